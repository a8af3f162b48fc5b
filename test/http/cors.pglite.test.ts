import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

const APP = 'https://app.example.com';
const STRANGER = 'https://evil.example.net';

/** What a browser sends before a cross-origin GET with an API key. */
const preflight = (url: string, origin: string, path = '/contents/Article') =>
  call(url, 'OPTIONS', path, { headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key,if-none-match' } });

const corsHeaders = (headers: Headers) => [...headers.keys()].filter((name) => name.startsWith('access-control-'));

describe('CORS for browser front ends (CORS_ORIGINS)', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService('pglite');
  });

  afterAll(async () => {
    await service?.close();
  });

  it('sends no CORS headers by default, so a browser on another origin cannot read answers', async () => {
    expect(corsHeaders((await preflight(service.url, APP)).headers)).toEqual([]);
    const read = await call(service.url, 'GET', '/content-types', { key: service.readKey, headers: { origin: APP } });
    expect(read.status).toBe(200);
    expect(corsHeaders(read.headers)).toEqual([]);
  });

  it('answers the preflight of an allowed origin with its methods, request headers and a cache time, and refuses other origins', async () => {
    service = await service.restart({ CORS_ORIGINS: `http://localhost:5173, ${APP}/` });

    const allowed = await preflight(service.url, APP);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(APP);
    expect(allowed.headers.get('vary')).toContain('Origin');
    expect(allowed.headers.get('access-control-max-age')).toBe('7200');
    expect(allowed.headers.get('access-control-allow-methods')!.split(',')).toEqual(expect.arrayContaining(['GET', 'PUT', 'POST', 'DELETE']));
    expect(allowed.headers.get('access-control-allow-headers')!.toLowerCase().split(',')).toEqual(
      expect.arrayContaining(['x-api-key', 'authorization', 'content-type', 'if-none-match', 'range']),
    );

    const refused = await preflight(service.url, STRANGER);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets an allowed origin read answers and their useful headers, errors included', async () => {
    const list = await call(service.url, 'GET', '/content-types', { key: service.readKey, headers: { origin: APP } });
    expect(list.status).toBe(200);
    expect(list.headers.get('access-control-allow-origin')).toBe(APP);
    expect(list.headers.get('access-control-expose-headers')!.split(',')).toEqual(expect.arrayContaining(['ETag', 'Retry-After', 'Location', 'X-Request-Id', 'X-Server-Request-Id']));

    const unauthorised = await call(service.url, 'GET', '/content-types', { headers: { origin: APP } });
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.headers.get('access-control-allow-origin')).toBe(APP);

    const stranger = await call(service.url, 'GET', '/content-types', { key: service.readKey, headers: { origin: STRANGER } });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('keeps Origin in Vary beside Accept on image renditions, so a shared cache never serves one origin\'s answer to another', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 0, g: 0, b: 0 } } }).png().toBuffer();
    const chunk = {
      assetId: randomUUID(),
      fileUploadId: randomUUID(),
      originalFileName: 'dot.png',
      chunkIndex: 0,
      chunkSize: png.length,
      totalChunkCount: 1,
      chunkByteOffset: 0,
      totalFileSize: png.length,
      stream: png.toString('base64'),
    };
    const asset = await call(service.url, 'POST', '/assets/uploadAsset', { key: service.writeKey, body: chunk });
    const image = await call(service.url, 'GET', `/images/${asset.body.id}?width=2`, { key: service.readKey, headers: { origin: APP } });
    expect(image.status).toBe(200);
    expect(image.headers.get('etag')).toBeTruthy();
    expect(image.headers.get('vary')!.split(/,\s*/)).toEqual(expect.arrayContaining(['Origin', 'Accept']));
  });

  it('allows any origin with *, also on a 429 a browser must be able to read', async () => {
    service = await service.restart({ CORS_ORIGINS: '*', RATE_LIMIT_PER_SECOND: '2' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => call(service.url, 'GET', '/content-types', { key: service.readKey, headers: { origin: STRANGER } })));
    for (const answer of answers) expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    const limited = answers.find((answer) => answer.status === 429);
    expect(limited?.headers.get('retry-after')).toBeTruthy();
  });
});
