import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header of webhook deliveries and signed scheduler callbacks. Node lower-cases it: `req.headers['svc-signature']`. */
export const SIGNATURE_HEADER = 'Svc-Signature';

const DEFAULT_TOLERANCE_SECONDS = 300;
/** `t={unix seconds},s={hex HMAC-SHA256}`: SHA-256 gives 32 bytes, 64 hex digits. */
const SIGNATURE_FORMAT = /^t=(\d{1,12}),s=([0-9a-fA-F]{64})$/;

export interface VerifyOptions {
  /** How far the signed time may be from now, either way. Default: 300 seconds. */
  readonly toleranceSeconds?: number;
  /** The current time. Default: the clock of this machine. */
  readonly now?: Date;
}

export type SignatureCheck =
  | { readonly valid: true; readonly signedAt: Date }
  | { readonly valid: false; readonly reason: 'malformed' | 'stale' | 'mismatch' };

/**
 * Checks `Svc-Signature: t={unix seconds},s={hex}` against the raw body exactly as received
 * (before any JSON parsing): HMAC-SHA256 over `{t}.{rawBody}` with the secret, compared in
 * constant time, and the time within the tolerance so a captured delivery cannot be replayed later.
 */
export function checkWebhookSignature(
  secret: string,
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  options: VerifyOptions = {},
): SignatureCheck {
  const match = SIGNATURE_FORMAT.exec(signatureHeader?.trim() ?? '');
  if (!match) return { valid: false, reason: 'malformed' };
  const timestamp = match[1]!;
  const signature = match[2]!;
  const signedAtSeconds = Number(timestamp);
  const nowSeconds = (options.now ?? new Date()).getTime() / 1000;
  if (Math.abs(nowSeconds - signedAtSeconds) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) return { valid: false, reason: 'stale' };
  const expected = createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest();
  const presented = Buffer.from(signature, 'hex');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return { valid: false, reason: 'mismatch' };
  return { valid: true, signedAt: new Date(signedAtSeconds * 1000) };
}

/** Whether a delivery is authentic and fresh; checkWebhookSignature tells why not. */
export function verifyWebhookSignature(
  secret: string,
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  options: VerifyOptions = {},
): boolean {
  return checkWebhookSignature(secret, rawBody, signatureHeader, options).valid;
}
