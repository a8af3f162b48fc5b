import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 of `text` under `key`, base64url (43 characters). */
export function signText(key: Buffer, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('base64url');
}

/**
 * Whether `signature` is the signature of `text` under one of `keys`. Compared as the exact
 * characters (a signature has one spelling) in constant time, and every key is tried, so the
 * time taken tells nothing of which key matched or how much of the signature did.
 */
export function signatureMatches(keys: readonly Buffer[], text: string, signature: string): boolean {
  const presented = Buffer.from(signature, 'utf8');
  let matched = false;
  for (const key of keys) {
    const expected = Buffer.from(signText(key, text), 'utf8');
    if (presented.length === expected.length && timingSafeEqual(presented, expected)) matched = true;
  }
  return matched;
}
