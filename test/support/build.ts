import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const REPO_ROOT = join(__dirname, '..', '..');
export const BUILT_MAIN = join(REPO_ROOT, 'dist', 'src', 'main.js');
export const BUILT_CLI = join(REPO_ROOT, 'dist', 'src', 'cli.js');
const LOCK_WAIT_MS = 120_000;

/**
 * Builds dist/ when a source changed since the last build (scripts/build-if-stale.js, the check
 * `npm start` makes), so that a test of the built service runs today's code. Test files running at
 * once in other workers build once: the first takes a lock (a folder, created atomically) and the
 * others wait for it, then find dist/ fresh.
 */
export async function ensureBuilt(): Promise<void> {
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
    await run(process.execPath, [join(REPO_ROOT, 'scripts', 'build-if-stale.js')], { cwd: REPO_ROOT });
  } finally {
    await rmdir(lock);
  }
}
