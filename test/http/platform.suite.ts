import { client } from '../support/http';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';

export function describePlatform(engine: Engine): void {
  describe(`utility, health and errors (${engine})`, () => {
    let service: TestService;
    let api: ReturnType<typeof client>;

    beforeAll(async () => {
      service = await startTestService(engine);
      api = client(service.url);
    });
    afterAll(() => service.close());

    it('tells the server time anonymously, in Unix milliseconds', async () => {
      const before = Date.now();
      const answer = await api('GET', '/utility/server-time');
      expect(answer.status).toBe(200);
      expect(answer.body.value).toBeGreaterThanOrEqual(before);
      expect(answer.body.value).toBeLessThanOrEqual(Date.now());
    });

    it('reports ready when every store answers', async () => {
      const answer = await api('GET', '/health');
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ status: 'ok', checks: { eventStore: 'up', readStore: 'up', projections: 'up' } });
      expect((await api('GET', '/health/live')).status).toBe(200);
    });

    it('answers unknown routes with a problem+json 404', async () => {
      const answer = await api('GET', '/no/such/thing');
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(answer.body).toEqual({ type: expect.any(String), title: 'Not Found', status: 404, detail: expect.stringContaining('/no/such/thing') });
    });

    it('tags GET answers and says who may keep them: the key\'s own cache, no cache for the admin and secrets, any cache for anonymous reads', async () => {
      const cacheControl = async (path: string, options: Parameters<typeof api>[2] = {}) => {
        const answer = await api('GET', path, options);
        expect([path, answer.status]).toEqual([path, 200]);
        expect(answer.headers.get('etag')).toMatch(/^"[\w-]+"$/);
        return answer.headers.get('cache-control');
      };
      expect(await cacheControl('/content-types', { key: service.readKey })).toBe('private, no-cache');
      expect(await cacheControl('/webhooks', { key: service.readKey })).toBe('no-store');
      expect(await cacheControl('/admin/workspaces', { bearer: ADMIN_TOKEN })).toBe('no-store');
      expect(await cacheControl('/openapi.json')).toBe('no-cache');
      const reference = await api('GET', '/openapi.json');
      expect((await api('GET', '/openapi.json', { headers: { 'if-none-match': `W/${reference.headers.get('etag')}, "other"` } })).status).toBe(304);
      expect((await api('GET', '/no/such/thing', { key: service.readKey })).headers.get('etag')).toBeNull();
    });

    it('refuses members and parameters the other closed resources do not take, naming them (webhooks, locales, jobs, the assistant)', async () => {
      const refused = async (method: string, path: string, body?: unknown) => {
        const reads = method === 'GET' || path.startsWith('/ai-assistant');
        const answer = await api(method, path, { key: reads ? service.readKey : service.writeKey, ...(body === undefined ? {} : { body }) });
        expect([path, answer.status]).toEqual([path, 400]);
        return answer.body.errors as { field: string; message: string }[];
      };
      expect(await refused('PUT', '/locales', { code: 'fr', language: 'French' })).toEqual([{ field: 'language', message: 'is not accepted here: send only code, name, fallbackCode, default' }]);
      expect(await refused('PUT', '/webhooks', { endpoint: 'https://hooks.example.com/cms', events: { Article: [0] } })).toContainEqual({ field: 'events', message: expect.stringMatching(/^is not accepted here: send only id, endpoint, secret, eventTypes/) });
      expect(await refused('POST', '/scheduled-jobs', { callbackUrl: 'https://jobs.example.com/run', delay: 60 })).toContainEqual({ field: 'delay', message: expect.stringContaining('is not accepted here') });
      expect(await refused('GET', '/scheduled-jobs?limit=5')).toEqual([{ field: 'limit', message: expect.stringContaining('did you mean pageSize?') }]);
      expect(await refused('POST', '/ai-assistant/thread', { prompt: 'hello', model: 'big' })).toEqual([{ field: 'model', message: 'is not accepted here: send only threadId, prompt' }]);
    });

    it('answers a body that is not JSON with a problem+json 400 naming the body', async () => {
      const answer = await api('PUT', '/locales', { key: service.writeKey, rawBody: '{"code": "en",' });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ status: 400, errors: [{ field: 'body', message: expect.any(String) }] });
    });

    it('answers a body over the size limit with 413', async () => {
      const answer = await api('PUT', '/locales', { key: service.writeKey, body: { code: 'en', name: 'x'.repeat(2_000_000) } });
      expect(answer.status).toBe(413);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
    });

    it('gives every answer a request id, echoing a sane one from the caller', async () => {
      const answer = await api('GET', '/utility/server-time', { headers: { 'x-request-id': 'trace-42' } });
      expect(answer.headers.get('x-request-id')).toBe('trace-42');
      expect((await api('GET', '/utility/server-time')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
}
