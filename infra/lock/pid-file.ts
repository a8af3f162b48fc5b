import { writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { HOLDER_FILE, holderPath, type LockHolder, readHolder, removeHolder, thisProcess, writeHolder } from './holder';
import { DataDirInUse, type DataDirLock } from './lock';

/**
 * The weaker lock, where flock(1) cannot be run: the holder file itself, created only if absent.
 * Weaker because nothing frees it when its process dies: a file left by a dead process of this
 * host is taken over, which a reused pid defeats, and one left by another host (or container)
 * cannot be judged and must be removed by hand; two processes finding a stale file at the same
 * moment may both take it over.
 */
export async function pidFileLock(dir: string, purpose: string): Promise<DataDirLock> {
  const holder = thisProcess(purpose);
  for (;;) {
    try {
      await writeFile(holderPath(dir), `${JSON.stringify(holder)}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const found = await readHolder(dir);
      if (!found || !isGone(found)) {
        throw new DataDirInUse(dir, found, `; this platform has no flock, so the lock is the file ${HOLDER_FILE}: remove it only if no process uses the directory`);
      }
      await removeHolder(dir);
    }
  }
  let released = false;
  return {
    describe: (newPurpose) => writeHolder(dir, thisProcess(newPurpose)),
    release: async () => {
      if (released) return;
      released = true;
      await removeHolder(dir);
    },
  };
}

function isGone(holder: LockHolder): boolean {
  if (holder.host !== hostname()) return false;
  try {
    process.kill(holder.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
