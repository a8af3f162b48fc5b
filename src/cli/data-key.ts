import { open } from '../../infra/crypto/aes-gcm';
import type { ItemKeyStore } from '../../infra/keys/item-port';
import type { DataKeyStore } from '../../infra/keys/port';
import { existingMasterKey } from '../../infra/master-key';
import type { Config } from '../config';

/**
 * Checks, before the target store is opened or anything written, that an imported workspace
 * data key opens with this store's master key: with another ENCRYPTION_KEY every encrypted
 * value would be unreadable. No key is generated here: a generated one could not open it.
 */
export async function checkDataKeyOpens(config: Config, workspaceId: string, wrapped: string, itemKeys: readonly { itemId: string; wrapped: string }[] = []): Promise<void> {
  const masterKey = await existingMasterKey(config.encryptionKey, config.dataDir);
  const refusal = `import: the data key of workspace ${workspaceId} does not open with this ENCRYPTION_KEY; import needs the ENCRYPTION_KEY of the store the export came from`;
  if (!masterKey) throw new Error(`${refusal} (none is set, and DATA_DIR holds no encryption.key)`);
  try {
    open(masterKey, wrapped);
  } catch {
    throw new Error(refusal);
  }
  for (const key of itemKeys) {
    try {
      open(masterKey, key.wrapped);
    } catch {
      throw new Error(`import: the key of item ${key.itemId} does not open with this ENCRYPTION_KEY; the key file is damaged or from another store`);
    }
  }
}

/** Stores imported item keys as they came (wrapped). */
export async function restoreItemKeys(itemKeys: ItemKeyStore, workspaceId: string, keys: readonly { itemId: string; wrapped: string }[]): Promise<void> {
  for (const key of keys) {
    if ((await itemKeys.putIfAbsent(workspaceId, key.itemId, key.wrapped)) !== key.wrapped) {
      throw new Error(`import: this store already holds another key for item ${key.itemId}`);
    }
  }
}

/** Stores an imported workspace data key as it came (wrapped), unless the store holds another. */
export async function restoreDataKey(dataKeys: DataKeyStore, workspaceId: string, wrapped: string): Promise<void> {
  if ((await dataKeys.putIfAbsent(workspaceId, wrapped)) !== wrapped) {
    throw new Error(`import: this store already holds another data key for workspace ${workspaceId}`);
  }
}
