import { checkWebhookSignature, verifyWebhookSignature } from '../../clients/typescript/src';
import { signatureHeader } from '../../infra/outbound/signature';

const SECRET = 'wh_0123456789abcdefghijklmnopqrstuv';
const BODY = '{"eventType":"PublishedCreated","contentId":"c41f","fields":{"title":"Hällo"}}';
const SIGNED_AT = 1_790_000_000;
const now = new Date(SIGNED_AT * 1000 + 10_000);

describe('verifyWebhookSignature', () => {
  const header = signatureHeader(SECRET, BODY, SIGNED_AT);

  it('accepts what the service signs, for the body as text or as the raw bytes received', () => {
    expect(verifyWebhookSignature(SECRET, BODY, header, { now })).toBe(true);
    expect(verifyWebhookSignature(SECRET, Buffer.from(BODY, 'utf8'), header, { now })).toBe(true);
    expect(checkWebhookSignature(SECRET, BODY, header, { now })).toEqual({ valid: true, signedAt: new Date(SIGNED_AT * 1000) });
  });

  it('refuses another secret', () => {
    expect(checkWebhookSignature('wh_another-secret', BODY, header, { now })).toEqual({ valid: false, reason: 'mismatch' });
  });

  it('refuses a tampered body, even by one character or re-serialised', () => {
    expect(checkWebhookSignature(SECRET, BODY.replace('Hällo', 'Hallo'), header, { now })).toEqual({ valid: false, reason: 'mismatch' });
    expect(verifyWebhookSignature(SECRET, JSON.stringify(JSON.parse(BODY), null, 1), header, { now })).toBe(false);
  });

  it('refuses a signature moved to another time', () => {
    const moved = header.replace(`t=${SIGNED_AT}`, `t=${SIGNED_AT + 1}`);
    expect(checkWebhookSignature(SECRET, BODY, moved, { now })).toEqual({ valid: false, reason: 'mismatch' });
  });

  it('refuses timestamps outside the tolerance, either way, and honours a custom tolerance', () => {
    const later = (seconds: number) => new Date((SIGNED_AT + seconds) * 1000);
    expect(verifyWebhookSignature(SECRET, BODY, header, { now: later(300) })).toBe(true);
    expect(checkWebhookSignature(SECRET, BODY, header, { now: later(301) })).toEqual({ valid: false, reason: 'stale' });
    expect(checkWebhookSignature(SECRET, BODY, header, { now: later(-301) })).toEqual({ valid: false, reason: 'stale' });
    expect(verifyWebhookSignature(SECRET, BODY, header, { now: later(3000), toleranceSeconds: 3600 })).toBe(true);
    expect(verifyWebhookSignature(SECRET, BODY, header, { now: later(31), toleranceSeconds: 30 })).toBe(false);
  });

  it('uses the current time by default', () => {
    const fresh = signatureHeader(SECRET, BODY, Math.floor(Date.now() / 1000));
    expect(verifyWebhookSignature(SECRET, BODY, fresh)).toBe(true);
    expect(verifyWebhookSignature(SECRET, BODY, header)).toBe(false);
  });

  it.each([
    ['absent', undefined],
    ['null', null],
    ['empty', ''],
    ['without a timestamp', header.replace(/^t=\d+,/, '')],
    ['without a signature', `t=${SIGNED_AT}`],
    ['in the wrong order', header.split(',').reverse().join(',')],
    ['with a timestamp that is not a number', header.replace(`t=${SIGNED_AT}`, 't=soon')],
    ['with a signature that is not hex', header.replace(/s=[0-9a-f]{2}/, 's=zz')],
    ['with a truncated signature', header.slice(0, -2)],
    ['with a longer signature', `${header}00`],
    ['with another scheme', header.replace('s=', 'v1=')],
  ])('refuses a header %s as malformed', (_case, value) => {
    expect(checkWebhookSignature(SECRET, BODY, value, { now })).toEqual({ valid: false, reason: 'malformed' });
  });
});
