import { CmsAdminClient, CmsAppClient, CmsClient, CmsError, CmsPublicClient } from '../../clients/typescript/src';
import { fakeFetch, jsonAnswer, problemAnswer } from '../support/fake-fetch';

const BASE_URL = 'http://cms.test';

async function caught(promise: Promise<unknown>): Promise<CmsError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(CmsError);
  return error as CmsError;
}

describe('the SDK clients', () => {
  describe('credentials', () => {
    it('send a workspace key as X-Api-Key, or as a bearer token when asked', async () => {
      const service = fakeFetch();
      await new CmsClient({ baseUrl: BASE_URL, apiKey: 'read-key', fetch: service.fetch }).locales.list();
      await new CmsClient({ baseUrl: BASE_URL, apiKey: 'read-key', sendKeyAs: 'bearer', fetch: service.fetch }).locales.list();
      expect(service.sent.map((request) => request.headers)).toEqual([{ 'x-api-key': 'read-key' }, { authorization: 'Bearer read-key' }]);
    });

    it('send an app key, the admin token as a bearer token, and nothing from the public client', async () => {
      const service = fakeFetch();
      await new CmsAppClient({ baseUrl: BASE_URL, appKey: 'app-key', fetch: service.fetch }).getSettings();
      await new CmsAdminClient({ baseUrl: BASE_URL, adminToken: 'admin-token', fetch: service.fetch }).workspaces.list();
      await new CmsPublicClient({ baseUrl: BASE_URL, fetch: service.fetch }).getServerTime();
      expect(service.sent.map((request) => [request.method, request.url, request.headers])).toEqual([
        ['GET', `${BASE_URL}/apps`, { 'x-api-key': 'app-key' }],
        ['GET', `${BASE_URL}/admin/workspaces`, { authorization: 'Bearer admin-token' }],
        ['GET', `${BASE_URL}/utility/server-time`, {}],
      ]);
    });

    it('add the configured headers to every call', async () => {
      const service = fakeFetch();
      await new CmsClient({ baseUrl: BASE_URL, apiKey: 'k', headers: { 'X-Request-Id': 'trace-7' }, fetch: service.fetch }).contentTypes.list();
      expect(service.sent[0]!.headers).toEqual({ 'X-Request-Id': 'trace-7', 'x-api-key': 'k' });
    });
  });

  describe('requests', () => {
    const client = (service: ReturnType<typeof fakeFetch>, baseUrl = BASE_URL) => new CmsClient({ baseUrl, apiKey: 'k', fetch: service.fetch });

    it('fill path parameters percent-encoded, keep a base path, and send JSON bodies with their type', async () => {
      const service = fakeFetch();
      await client(service, `${BASE_URL}/cms/`).contentsV2.save('Article', { fields: { title: 'Hi' } });
      await client(service).contents.get('Art icle', 'a/b?c');
      expect(service.sent[0]).toEqual({
        url: `${BASE_URL}/cms/v2/contents/Article`,
        method: 'PUT',
        headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
        body: { fields: { title: 'Hi' } },
      });
      expect(service.sent[1]!.url).toBe(`${BASE_URL}/contents/Art%20icle/a%2Fb%3Fc`);
    });

    it('send a patch as a JSON Merge Patch', async () => {
      const service = fakeFetch();
      await client(service).previewContentsV2.patch('Article', 'item-1', { fields: { rank: null } });
      expect(service.sent[0]).toEqual({
        url: `${BASE_URL}/v2/preview-contents/Article/item-1`,
        method: 'PATCH',
        headers: { 'x-api-key': 'k', 'content-type': 'application/merge-patch+json' },
        body: { fields: { rank: null } },
      });
    });

    it('refuse path parameters that URL parsing would resolve away, before sending', async () => {
      const service = fakeFetch();
      await expect(client(service).webhooks.get('..')).rejects.toThrow('path parameter id must not be empty, "." or ".."');
      await expect(client(service).webhooks.get('')).rejects.toThrow(TypeError);
      await expect(client(service).images.getByPath('asset/../../admin')).rejects.toThrow(TypeError);
      expect(service.sent).toEqual([]);
    });

    it('keep the slashes of the image storage path and leave unset query values out', async () => {
      const service = fakeFetch(new Response('png', { headers: { 'content-type': 'image/png' } }));
      await client(service).images.getByPath('a1/my logo.png', { width: 40, format: undefined });
      await client(service).webhooks.listDeliveries('w1', { page: 2, status: undefined, eventType: 0 });
      expect(service.sent.map((request) => request.url)).toEqual([`${BASE_URL}/images/bypath/a1/my%20logo.png?width=40`, `${BASE_URL}/webhooks/w1/events?page=2&eventType=0`]);
    });

    it('fill the V1 content type from the path argument and send clientInfo on publish changes', async () => {
      const service = fakeFetch();
      await client(service).previewContents.save('Article', { fields: [{ key: 'title', value: 'Hi' }] });
      await client(service).previewContents.publish('Article', 'i1', 'release 42');
      expect(service.sent.map((request) => request.body)).toEqual([{ fields: [{ key: 'title', value: 'Hi' }], contentType: 'Article' }, { clientInfo: 'release 42' }]);
    });
  });

  describe('answers', () => {
    it('turn a problem+json answer into a CmsError with its title, detail and field errors', async () => {
      const errors = [{ field: 'fields.0.key', message: 'must start with a letter' }];
      const service = fakeFetch(problemAnswer(400, 'invalid body', { errors }, { 'x-request-id': 'req-1', 'x-server-request-id': 'server-req-1' }));
      const error = await caught(new CmsClient({ baseUrl: BASE_URL, apiKey: 'k', fetch: service.fetch }).contentTypes.save({ name: 'A', key: 'A', fields: [] }));
      expect(error).toMatchObject({ status: 400, title: 'Problem', detail: 'invalid body', errors, requestId: 'req-1', serverRequestId: 'server-req-1', retryAfterSeconds: null, method: 'PUT', path: '/content-types' });
      expect(error.problem).toEqual(expect.objectContaining({ status: 400, errors }));
      expect(error.message).toBe('PUT /content-types answered 400 Problem: invalid body');
    });

    it('carry Retry-After on 429, in seconds or as an HTTP date', async () => {
      const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
      const service = fakeFetch(problemAnswer(429, 'slow down', {}, { 'retry-after': '3' }), problemAnswer(429, 'slow down', {}, { 'retry-after': inTwoMinutes }));
      const client = new CmsClient({ baseUrl: BASE_URL, apiKey: 'k', fetch: service.fetch });
      expect((await caught(client.locales.list())).retryAfterSeconds).toBe(3);
      expect((await caught(client.locales.list())).retryAfterSeconds).toBeGreaterThanOrEqual(119);
    });

    it('keep an error body that is not problem+json, as from a proxy', async () => {
      const service = fakeFetch(new Response('<html>bad gateway</html>', { status: 502, headers: { 'content-type': 'text/html' } }));
      const error = await caught(new CmsClient({ baseUrl: BASE_URL, apiKey: 'k', fetch: service.fetch }).locales.list());
      expect(error).toMatchObject({ status: 502, title: 'HTTP 502', detail: '<html>bad gateway</html>', problem: null, errors: [] });
    });

    it('answer null for an asset hash without a match, and the readiness report when a store is down', async () => {
      const readiness = { status: 'unavailable', checks: { events: 'down' } };
      const service = fakeFetch(jsonAnswer(404, null), jsonAnswer(503, readiness));
      expect(await new CmsClient({ baseUrl: BASE_URL, apiKey: 'k', fetch: service.fetch }).assets.getByHash('5d41402abc4b2a76b9719d911017c592', 5)).toBeNull();
      expect(await new CmsPublicClient({ baseUrl: BASE_URL, fetch: service.fetch }).getReadiness()).toEqual(readiness);
    });

    it('give images as the fetch Response, a 304 included', async () => {
      const service = fakeFetch(new Response(null, { status: 304, headers: { etag: '"v1"' } }));
      const answer = await new CmsClient({ baseUrl: BASE_URL, apiKey: 'k', fetch: service.fetch }).images.get('a1', { accept: 'image/webp', ifNoneMatch: '"v1"' });
      expect(answer.status).toBe(304);
      expect(service.sent[0]!.headers).toEqual({ 'x-api-key': 'k', Accept: 'image/webp', 'If-None-Match': '"v1"' });
    });
  });

  describe('helpers', () => {
    it('build image addresses', () => {
      const images = new CmsClient({ baseUrl: `${BASE_URL}/`, apiKey: 'k' }).images;
      expect(images.url('a1', { width: 320, quality: 80, format: 'webp', enlarge: true })).toBe(`${BASE_URL}/images/a1?width=320&quality=80&format=webp&enlarge=true`);
      expect(images.url('a1')).toBe(`${BASE_URL}/images/a1`);
      expect(images.urlByPath('a1/logo.png', { height: 10, enlarge: false })).toBe(`${BASE_URL}/images/bypath/a1/logo.png?height=10&enlarge=false`);
    });

    it('poll an AI run until it is no longer in progress', async () => {
      const running = () => jsonAnswer(200, { status: 'in_progress' });
      const service = fakeFetch(running(), running(), jsonAnswer(200, { status: 'failed', error: 'provider down' }));
      const status = await new CmsClient({ baseUrl: BASE_URL, apiKey: 'k', fetch: service.fetch }).aiAssistant.waitForRun('t1', 'r1', { intervalMs: 1 });
      expect(status).toEqual({ status: 'failed', error: 'provider down' });
      expect(service.sent.map((request) => request.url)).toEqual(Array(3).fill(`${BASE_URL}/ai-assistant/thread/t1/run/r1/status`));
    });

    it('give up waiting for an AI run after the timeout', async () => {
      const service = fakeFetch(...Array.from({ length: 20 }, () => jsonAnswer(200, { status: 'in_progress' })));
      const waiting = new CmsClient({ baseUrl: BASE_URL, apiKey: 'k', fetch: service.fetch }).aiAssistant.waitForRun('t1', 'r1', { intervalMs: 5, timeoutMs: 20 });
      await expect(waiting).rejects.toThrow('AI run r1 was still in progress after 20 ms');
    });
  });
});
