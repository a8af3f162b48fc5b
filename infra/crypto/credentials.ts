import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/**
 * Credentials have the form `<prefix>_<id as 32 hex>_<secret>`: the id finds the stored
 * record without a scan, and only the SHA-256 of the 256-bit random secret is stored. A
 * fast hash is sound here because the secret is random, not a password.
 */
export type CredentialPrefix = 'cms' | 'app' | 'sak';

export interface IssuedCredential {
  readonly id: string;
  readonly key: string;
  readonly secretHash: string;
}

export function issueCredential(prefix: CredentialPrefix): IssuedCredential {
  const id = randomUUID();
  const secret = randomBytes(32).toString('base64url');
  return { id, key: `${prefix}_${id.replace(/-/g, '')}_${secret}`, secretHash: sha256Hex(secret) };
}

/** A shared access key of one asset (`sak_...`): anonymous downloads present it. */
export function issueSharedAccessKey(): IssuedCredential {
  return issueCredential('sak');
}

export function parseCredential(key: string): { prefix: CredentialPrefix; id: string; secret: string } | null {
  const match = /^(cms|app|sak)_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/.exec(key);
  if (!match) return null;
  const hex = match[2]!;
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { prefix: match[1] as CredentialPrefix, id, secret: match[3]! };
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Compares the hash of `secret` with a stored hash in constant time. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const actual = Buffer.from(sha256Hex(secret), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A random token of the given byte length, base64url. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
