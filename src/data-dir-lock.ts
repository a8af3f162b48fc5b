import { lockDataDir } from '../infra/lock/data-dir';
import type { DataDirLock } from '../infra/lock/lock';
import type { Config } from './config';

export { DataDirInUse } from '../infra/lock/lock';

/**
 * Holds DATA_DIR for this process when the configuration keeps the embedded store (PGlite) there,
 * which admits one process; null otherwise. The file blob store and the generated encryption.key
 * alone do not take it: a blob is written under a temporary name and renamed into place, and the
 * key file is created only if absent, so instances on PostgreSQL may share one DATA_DIR volume for
 * their blobs (the database server arbitrates the rest).
 */
export async function lockEmbeddedStore(config: Config, purpose: string): Promise<DataDirLock | null> {
  const embedded = config.eventStore === 'embedded' || config.readStore === 'embedded';
  return embedded ? lockDataDir(config.dataDir, purpose) : null;
}
