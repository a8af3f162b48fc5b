import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rmdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const REPO_ROOT = join(__dirname, '..', '..');
export const BUILT_MAIN = join(REPO_ROOT, 'dist', 'src', 'main.js');
/** What `npm run build` compiles (tsconfig.build.json). */
const SOURCE_FOLDERS = ['src', 'commands', 'queries', 'projections', 'infra'];
const LOCK_WAIT_MS = 120_000;

/**
 * Builds dist/ unless it is newer than every source file, so that a test of the built service
 * runs today's code. Test files running at once in other workers build once: the first takes a
 * lock (a folder, created atomically) and the others wait for it, then find dist/ fresh.
 */
export async function ensureBuilt(): Promise<void> {
  if (await isFresh()) return;
  const lock = join(tmpdir(), `cms-build-${createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 12)}.lock`);
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`could not take the build lock ${lock}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    if (await isFresh()) return;
    await run(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(REPO_ROOT, 'tsconfig.build.json')], { cwd: REPO_ROOT });
  } finally {
    await rmdir(lock);
  }
}

async function isFresh(): Promise<boolean> {
  if (!existsSync(BUILT_MAIN)) return false;
  const builtAt = (await stat(BUILT_MAIN)).mtimeMs;
  const newest = Math.max(...(await Promise.all(SOURCE_FOLDERS.map((folder) => newestSource(join(REPO_ROOT, folder))))));
  return newest < builtAt;
}

async function newestSource(folder: string): Promise<number> {
  if (!existsSync(folder)) return 0;
  let newest = 0;
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts')) newest = Math.max(newest, (await stat(join(entry.parentPath, entry.name))).mtimeMs);
  }
  return newest;
}
