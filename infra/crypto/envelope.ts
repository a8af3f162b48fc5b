import { hkdfSync, randomBytes } from 'node:crypto';
import { DomainError } from '../../src/domain/errors';
import type { DataKeyStore } from '../keys/port';
import { open, seal } from './aes-gcm';

/**
 * The workspace's data key is gone (shredded by an operator, or deleted from the key store):
 * what was encrypted with it is unreadable, and nothing is encrypted until an operator
 * creates a new key on purpose. Answered as 410 Gone.
 */
export class WorkspaceKeyGoneError extends DomainError {
  constructor(workspaceId: string) {
    super(
      'gone',
      `the data key of workspace ${workspaceId} was shredded: the values encrypted with it (encrypted fields, the TOTP secret, webhook, action and scheduler secrets) are unreadable; an operator can create a new key (POST /admin/workspaces/${workspaceId}/data-key), then set the TOTP and other secrets again`,
    );
    this.name = 'WorkspaceKeyGoneError';
  }
}

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

  /** Throws WorkspaceKeyGoneError when the workspace's data key was deleted (the value is shredded); throws when the value was tampered with. */
  async decrypt(workspaceId: string, ciphertext: string): Promise<string> {
    const key = await this.dataKey(workspaceId, false);
    try {
      return open(key, ciphertext).toString('utf8');
    } catch {
      // The log is immutable: a value that does not open was sealed with a key shredded since and replaced.
      throw new DomainError('gone', `this value of workspace ${workspaceId} was encrypted with a data key that was shredded since: it is unreadable`);
    }
  }

  /**
   * A 32-byte key for one purpose (`info`), derived from the workspace's data key (HKDF-SHA256):
   * it is never stored, and a shredded data key takes it along.
   */
  async derivedKey(workspaceId: string, info: string): Promise<Buffer> {
    return Buffer.from(hkdfSync('sha256', await this.dataKey(workspaceId, true), Buffer.alloc(0), info, 32));
  }

  /**
   * Deletes the workspace's data key: every value sealed with it becomes unreadable. Other
   * instances may hold the key in memory until they restart (docs/operations.md).
   */
  async shred(workspaceId: string): Promise<void> {
    await this.store.delete(workspaceId);
    this.dataKeys.delete(workspaceId);
  }

  /** An operator's new key for a workspace whose key is gone; false when the workspace has a key. */
  async createAfterShred(workspaceId: string): Promise<boolean> {
    this.dataKeys.delete(workspaceId);
    return this.store.replaceGone(workspaceId, seal(this.masterKey, randomBytes(32)));
  }

  private async dataKey(workspaceId: string, createIfMissing: boolean): Promise<Buffer> {
    const cached = this.dataKeys.get(workspaceId);
    if (cached) return cached;
    let wrapped = await this.store.get(workspaceId);
    if (wrapped === null) {
      // Decrypting without a key: the value was sealed with a key that is gone.
      if (!createIfMissing) throw new WorkspaceKeyGoneError(workspaceId);
      wrapped = await this.store.putIfAbsent(workspaceId, seal(this.masterKey, randomBytes(32)));
      if (wrapped === null) throw new WorkspaceKeyGoneError(workspaceId);
    }
    const key = open(this.masterKey, wrapped);
    this.dataKeys.set(workspaceId, key);
    return key;
  }
}
