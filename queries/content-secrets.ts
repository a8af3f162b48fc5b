import { createHash, timingSafeEqual } from 'node:crypto';
import { TOTP } from 'otpauth';
import type { WorkspaceCipher } from '../infra/crypto/envelope';
import type { ReadStore } from '../infra/readstore/port';
import { CONTENT_SECRETS, contentSecretsId, type ContentSecretsDocument } from '../projections/read-models/content-items';
import { DomainError } from '../src/domain/errors';
import type { WorkspaceQueries } from './workspaces';
import { ownValue } from '../src/domain/own-value';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Reads of encrypted field values: a comparison that reveals nothing, and decryption behind a TOTP code. */
export class ContentSecretQueries {
  constructor(
    private readonly store: ReadStore,
    private readonly cipher: WorkspaceCipher,
    private readonly workspaces: WorkspaceQueries,
  ) {}

  /** True when every given plaintext equals the stored value (compared as digests, in constant time). */
  async matches(workspaceId: string, itemId: string, plaintexts: Record<string, string>): Promise<boolean> {
    const stored = await this.ciphertexts(workspaceId, itemId);
    let all = Object.keys(plaintexts).length > 0;
    for (const [key, plaintext] of Object.entries(plaintexts)) {
      const ciphertext = ownValue(stored, key);
      const actual = ciphertext === undefined ? null : await this.cipher.decrypt(workspaceId, ciphertext);
      all = (actual !== null && timingSafeEqual(digest(actual), digest(plaintext))) && all;
    }
    return all;
  }

  /** RFC 6238 (SHA-1, 6 digits, 30 s), one step of skew either way. */
  async totpValid(workspaceId: string, code: string): Promise<boolean> {
    const workspace = await this.workspaces.get(workspaceId);
    if (!workspace?.encryptedTotpSecret || !/^\d{6}$/.test(code)) return false;
    const secret = await this.cipher.decrypt(workspaceId, workspace.encryptedTotpSecret);
    return new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).validate({ token: code, window: 1 }) !== null;
  }

  async decrypt(workspaceId: string, itemId: string, keys: readonly string[]): Promise<Record<string, string | null>> {
    const stored = await this.ciphertexts(workspaceId, itemId);
    const fields = new Map<string, string | null>();
    for (const key of keys) {
      const ciphertext = ownValue(stored, key);
      fields.set(key, ciphertext === undefined ? null : await this.cipher.decrypt(workspaceId, ciphertext));
    }
    return Object.fromEntries(fields);
  }

  private async ciphertexts(workspaceId: string, itemId: string): Promise<Record<string, string>> {
    return (await this.store.get<ContentSecretsDocument>(CONTENT_SECRETS, contentSecretsId(workspaceId, itemId)))?.ciphertexts ?? {};
  }
}

export const invalidTotp = () => new DomainError('forbidden', 'the one-time password is not valid');
