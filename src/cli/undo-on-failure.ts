import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Runs `work`, and when it fails removes what appeared in `dir` meanwhile (entries at its top,
 * or the folder itself when it did not exist): a refused import leaves no generated
 * encryption.key, no new embedded database, no half-written log behind.
 */
export async function undoOnFailure<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const before = await entries(dir);
  try {
    return await work();
  } catch (error) {
    if (before === null) await rm(dir, { recursive: true, force: true });
    else for (const entry of (await entries(dir)) ?? []) if (!before.has(entry)) await rm(join(dir, entry), { recursive: true, force: true });
    throw error;
  }
}

async function entries(dir: string): Promise<Set<string> | null> {
  try {
    return new Set(await readdir(dir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
