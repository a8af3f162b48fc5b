import { open } from '../../infra/crypto/aes-gcm';
import type { DataKeyStore } from '../../infra/keys/port';
import { loadMasterKey } from '../../infra/master-key';
import type { Config } from '../config';

/**
 * Stores an imported workspace data key as it came (wrapped). It is first checked against
 * this store's master key, so that an import with another ENCRYPTION_KEY stops before it
 * writes anything instead of leaving every encrypted value unreadable.
 */
export async function restoreDataKey(config: Config, dataKeys: DataKeyStore, workspaceId: string, wrapped: string): Promise<void> {
  const masterKey = await loadMasterKey(config.encryptionKey, config.dataDir);
  try {
    open(masterKey, wrapped);
  } catch {
    throw new Error(
      `import: the data key of workspace ${workspaceId} does not open with this ENCRYPTION_KEY; import needs the ENCRYPTION_KEY of the store the export came from`,
    );
  }
  if ((await dataKeys.putIfAbsent(workspaceId, wrapped)) !== wrapped) {
    throw new Error(`import: this store already holds another data key for workspace ${workspaceId}`);
  }
}
