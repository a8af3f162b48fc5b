import { createHash, timingSafeEqual } from 'node:crypto';
import { TOTP } from 'otpauth';
import type { Clock } from '../infra/clock';
import type { WorkspaceCipher } from '../infra/crypto/envelope';
import type { ReadStore } from '../infra/readstore/port';
import { CONTENT_SECRETS, contentSecretsId, type ContentSecretsDocument } from '../projections/read-models/content-items';
import { DomainError } from '../src/domain/errors';
import type { WorkspaceQueries } from './workspaces';
import { ownValue } from '../src/domain/own-value';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
const TOTP_PERIOD_SECONDS = 30;

/** A one-time password that matched: the secret it matched (a tag, not the secret) and its time step. */
export interface AcceptedCode {
  readonly secretTag: string;
  readonly step: number;
}

/** Reads of encrypted field values: a comparison that reveals nothing, and decryption behind a TOTP code. */
export class ContentSecretQueries {
  constructor(
    private readonly store: ReadStore,
    private readonly cipher: WorkspaceCipher,
    private readonly workspaces: WorkspaceQueries,
    private readonly clock: Clock,
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

  /**
   * RFC 6238 (SHA-1, 6 digits, 30 s), one step of skew either way: the step the code belongs
   * to, or null. Whether the code was used before is the caller's decision (SecretReads).
   */
  async acceptedCode(workspaceId: string, code: string): Promise<AcceptedCode | null> {
    const workspace = await this.workspaces.get(workspaceId);
    if (!workspace?.encryptedTotpSecret || !/^\d{6}$/.test(code)) return null;
    const secret = await this.cipher.decrypt(workspaceId, workspace.encryptedTotpSecret);
    const timestamp = this.clock.now().getTime();
    const delta = new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: TOTP_PERIOD_SECONDS }).validate({ token: code, window: 1, timestamp });
    if (delta === null) return null;
    // The ciphertext is fresh for every secret set, so its digest names the secret without revealing it.
    const secretTag = createHash('sha256').update(workspace.encryptedTotpSecret).digest('hex').slice(0, 16);
    return { secretTag, step: Math.floor(timestamp / 1000 / TOTP_PERIOD_SECONDS) + delta };
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
