import { spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, realpath } from 'node:fs/promises';
import { readHolder, removeHolder, thisProcess, writeHolder } from './holder';
import { DataDirInUse, type DataDirLock } from './lock';
import { pidFileLock } from './pid-file';

/** flock(1)'s exit status when -n finds the lock taken (util-linux and BusyBox alike). */
const LOCK_TAKEN = 1;

/**
 * Takes the directory for this process, or throws DataDirInUse naming the holder.
 *
 * Why flock(2) on the directory itself: the kernel frees it when the process ends however it ends
 * (kill -9 included), it is atomic, it follows the directory (the same volume mounted at another
 * path or in another container sharing it is the same lock, which a name such as an abstract Unix
 * socket, scoped to a network namespace, would not be), and it adds no file whose removal would
 * free it. Node has no flock, and the npm packages that do are native addons to compile; so the
 * `flock` program (util-linux on Debian, where it is Essential, BusyBox elsewhere) is handed our
 * descriptor as its fd 3 and locks it: a flock lock belongs to the open file description, shared
 * by that child's copy and ours, so it stays ours after the child exits, until our descriptor
 * closes. Node opens files close-on-exec, so no later child inherits it.
 * Where the program cannot be run (macOS, Windows, images without it) a weaker lock stands in:
 * see pid-file.ts.
 */
export async function lockDataDir(dataDir: string, purpose: string, flockProgram = 'flock'): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true });
  const dir = await realpath(dataDir);
  // Windows opens no directory as a file.
  if (process.platform === 'win32') return pidFileLock(dir, purpose);
  const fd = openSync(dir, 'r');
  const taken = spawnSync(flockProgram, ['-n', '-x', '3'], { stdio: ['ignore', 'ignore', 'pipe', fd] });
  if (taken.status !== 0) closeSync(fd);
  if ((taken.error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') return pidFileLock(dir, purpose);
  if (taken.status === LOCK_TAKEN) throw new DataDirInUse(dir, await readHolder(dir));
  if (taken.status !== 0) throw new Error(`could not lock DATA_DIR ${dir}: ${taken.error?.message ?? `${flockProgram} exited with ${taken.status}: ${taken.stderr.toString().trim()}`}`);

  await writeHolder(dir, thisProcess(purpose));
  let released = false;
  return {
    describe: (newPurpose) => writeHolder(dir, thisProcess(newPurpose)),
    release: async () => {
      if (released) return;
      released = true;
      await removeHolder(dir);
      closeSync(fd);
    },
  };
}
