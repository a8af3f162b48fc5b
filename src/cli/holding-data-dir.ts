import type { Config } from '../config';
import { DataDirInUse, lockEmbeddedStore } from '../data-dir-lock';

/**
 * What each command that opens the stores itself tells the operator while another process holds
 * the embedded store's DATA_DIR. PGlite has no read-only open (a second opener replays the log and
 * writes), so even the reading commands need the directory to themselves.
 */
const INSTEAD = {
  export: 'export reads the log and records itself in it, and the service has no admin API for it: stop the service, then export',
  import: 'import needs a store no other process uses: stop the service, then import',
  verify: 'verify cannot vouch for a store another process is writing, and the service has no admin API for it: stop the service, then verify',
  migrate: 'stop the service, then migrate (on the embedded store the service creates and upgrades the event tables itself when it starts)',
  'projections status': 'no service answered at --url: pass the address of the one holding it (--url, with --token), or stop it to read the stores directly',
  'projections rebuild': 'no service answered at --url: pass the address of the one holding it (--url, with --token) to rebuild through it, or stop it to rebuild offline',
} as const;

export type StoreCommand = keyof typeof INSTEAD;

/** Runs `work` holding DATA_DIR when the embedded store is configured; refuses, saying what to do instead, while another process holds it. */
export async function holdingDataDir<T>(config: Config, command: StoreCommand, work: () => Promise<T>): Promise<T> {
  let lock;
  try {
    lock = await lockEmbeddedStore(config, `cms ${command}`);
  } catch (error) {
    if (error instanceof DataDirInUse) throw new Error(`${command}: ${error.message}. ${INSTEAD[command]}`, { cause: error });
    throw error;
  }
  try {
    return await work();
  } finally {
    await lock?.release();
  }
}
