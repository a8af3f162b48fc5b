import { randomBytes } from 'node:crypto';
import type { DataKeyStore } from '../keys/port';
import { open, seal } from './aes-gcm';

/**
 * Envelope encryption: each workspace has its own random data key, stored wrapped by the
 * master key (ENCRYPTION_KEY). Values are sealed with the data key (AES-256-GCM).
 */
export class WorkspaceCipher {
  private readonly dataKeys = new Map<string, Buffer>();

  constructor(
    private readonly masterKey: Buffer,
    private readonly store: DataKeyStore,
  ) {
    if (masterKey.length !== 32) throw new Error('the master key must be 32 bytes');
  }

  async encrypt(workspaceId: string, plaintext: string): Promise<string> {
    return seal(await this.dataKey(workspaceId, true), Buffer.from(plaintext, 'utf8'));
  }

  /** Throws when the workspace's data key was deleted (the value is shredded) or the value was tampered with. */
  async decrypt(workspaceId: string, ciphertext: string): Promise<string> {
    return open(await this.dataKey(workspaceId, false), ciphertext).toString('utf8');
  }

  /** Deletes the workspace's data key: every value sealed with it becomes unreadable. */
  async shred(workspaceId: string): Promise<void> {
    await this.store.delete(workspaceId);
    this.dataKeys.delete(workspaceId);
  }

  private async dataKey(workspaceId: string, createIfMissing: boolean): Promise<Buffer> {
    const cached = this.dataKeys.get(workspaceId);
    if (cached) return cached;
    let wrapped = await this.store.get(workspaceId);
    if (wrapped === null) {
      if (!createIfMissing) throw new Error(`workspace ${workspaceId} has no data key`);
      wrapped = await this.store.putIfAbsent(workspaceId, seal(this.masterKey, randomBytes(32)));
    }
    const key = open(this.masterKey, wrapped);
    this.dataKeys.set(workspaceId, key);
    return key;
  }
}
