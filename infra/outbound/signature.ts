import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'Svc-Signature';

/** `t={unix seconds},s={hex HMAC-SHA256 of "{t}.{payload}"}` */
export function signatureHeader(secret: string, payload: string, unixSeconds: number): string {
  const signature = createHmac('sha256', secret).update(`${unixSeconds}.${payload}`).digest('hex');
  return `t=${unixSeconds},s=${signature}`;
}
