import { randomUUID } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

/** Beside the lock: who holds it, so that a refused process can name the holder. Written by the holder only. */
export const HOLDER_FILE = 'in-use-by.json';

const holderSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string(),
  startedAt: z.string(),
  purpose: z.string(),
});

export type LockHolder = z.infer<typeof holderSchema>;

export const holderPath = (dir: string) => join(dir, HOLDER_FILE);

/** This process, started at the time the operating system started it (not when it took the lock). */
export function thisProcess(purpose: string): LockHolder {
  return { pid: process.pid, host: hostname(), startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(), purpose };
}

/** The holder's own account; null when there is none or it is unreadable (being written, or written by something else). */
export async function readHolder(dir: string): Promise<LockHolder | null> {
  try {
    const parsed = holderSchema.safeParse(JSON.parse(await readFile(holderPath(dir), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Replaces the file whole (a reader never sees half of it). */
export async function writeHolder(dir: string, holder: LockHolder): Promise<void> {
  const temp = join(dir, `.${HOLDER_FILE}.${randomUUID()}`);
  await writeFile(temp, `${JSON.stringify(holder)}\n`, { mode: 0o600 });
  await rename(temp, holderPath(dir));
}

export const removeHolder = (dir: string) => rm(holderPath(dir), { force: true });

export function describeHolder(holder: LockHolder | null): string {
  return holder
    ? `${holder.purpose} (pid ${holder.pid} on host ${holder.host}, started at ${holder.startedAt})`
    : `a process that has not written who it is (${HOLDER_FILE} is missing or being written)`;
}
