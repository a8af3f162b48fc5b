import { randomUUID } from 'node:crypto';
import { call } from '../support/http';
import { sendRaw } from '../support/raw-http';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/service';

const PER_SECOND = 5;
/** Just over the 1 MB JSON limit, and over the 24 MB limit of an upload chunk. */
const OVERSIZE_JSON_BYTES = 1024 * 1024 + 1;
const OVERSIZE_CHUNK_BYTES = 25 * 1024 * 1024;

describe('body limits and the per-key rate limit (pglite)', () => {
  let service: TestService;
  let otherKey: string;

  beforeAll(async () => {
    service = await startTestService('pglite', { RATE_LIMIT_PER_SECOND: String(PER_SECOND) });
    const created = await call(service.url, 'POST', `/admin/workspaces/${service.workspaceId}/api-keys`, {
      bearer: ADMIN_TOKEN,
      body: { name: 'second reader', policies: ['ReadAccess'] },
    });
    expect(created.status).toBe(201);
    otherKey = created.body.key;
  });

  afterAll(() => service?.close());

  it('answers an oversize JSON body with 413 problem+json, before any credential is looked at', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(OVERSIZE_JSON_BYTES), key: 'Big', fields: [] });
    for (const headers of [{ 'x-api-key': service.writeKey }, {}] as Record<string, string>[]) {
      const answer = await sendRaw(service.url, { method: 'PUT', path: '/content-types', headers: { ...headers, 'content-type': 'application/json' }, body });
      expect(answer.status).toBe(413);
      expect(answer.headers['content-type']).toContain('application/problem+json');
      expect(JSON.parse(answer.body)).toMatchObject({ status: 413, title: 'Content Too Large' });
    }
  });

  it('answers an upload chunk over the upload limit with 413 problem+json', async () => {
    const answer = await sendRaw(service.url, {
      method: 'POST',
      path: '/assets/uploadAsset',
      headers: { 'x-api-key': service.writeKey, 'content-type': 'application/json' },
      body: Buffer.concat([Buffer.from(`{"assetId":"${randomUUID()}","stream":"`), Buffer.alloc(OVERSIZE_CHUNK_BYTES, 0x41), Buffer.from('"}')]),
    });
    expect(answer.status).toBe(413);
    expect(answer.headers['content-type']).toContain('application/problem+json');
  });

  it('limits each key on its own: 429 with Retry-After past the limit, while another key goes on', async () => {
    // Within one window: the first key sends three times its allowance at once, the other only its allowance.
    const burst = await Promise.all(Array.from({ length: PER_SECOND * 3 }, () => call(service.url, 'GET', '/content-types', { key: service.readKey })));
    const other = await Promise.all(Array.from({ length: PER_SECOND }, () => call(service.url, 'GET', '/content-types', { key: otherKey })));

    const limited = burst.filter((answer) => answer.status === 429);
    // The burst may straddle two windows: at most two allowances get through.
    expect(burst.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(PER_SECOND * 2);
    expect(limited.length).toBeGreaterThanOrEqual(PER_SECOND);
    for (const answer of limited) {
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(answer.body).toMatchObject({ status: 429, title: 'Too Many Requests' });
    }
    expect(other.map((answer) => answer.status)).toEqual(other.map(() => 200));
    // Probes are never limited.
    expect((await call(service.url, 'GET', '/health/live')).status).toBe(200);

    // After the window the first key is served again.
    await new Promise((resolve) => setTimeout(resolve, Number(limited[0]!.headers.get('retry-after')) * 1000));
    expect((await call(service.url, 'GET', '/content-types', { key: service.readKey })).status).toBe(200);
  });
});
