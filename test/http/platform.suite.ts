import { client } from '../support/http';
import { type Engine, startTestService, type TestService } from '../support/service';

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
      expect(answer.body).toEqual({ status: 'ok', checks: { eventStore: 'up', readStore: 'up', projections: 'up', eventLog: 'up' } });
      expect((await api('GET', '/health/live')).status).toBe(200);
    });

    it('answers unknown routes with a problem+json 404', async () => {
      const answer = await api('GET', '/no/such/thing');
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(answer.body).toEqual({ type: expect.any(String), title: 'Not Found', status: 404, detail: expect.stringContaining('/no/such/thing') });
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
