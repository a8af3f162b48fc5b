import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { startService } from '../../src/server';
import { call, client } from '../support/http';
import { signedWith, startHttpReceiver, startHttpsReceiver, startMailServer, type MailServer, type Receiver } from '../support/receivers';
import { delay, eventually } from '../support/waiting';
import { type Engine, startTestService, type TestService } from '../support/service';

const articleType = { name: 'Article', key: 'Article', fields: [{ key: 'title', type: 'Text', required: true }, { key: 'rank', type: 'Number' }] };
const noteType = { name: 'Note', key: 'Note', fields: [{ key: 'text', type: 'Text' }] };
/** Retries after 5, 25, 125, 625 and 3125 ms: a whole failing schedule takes about 4 s. */
const RETRY_UNIT_MS = 5;

type Api = ReturnType<typeof client>;


export function describeWebhooks(engine: Engine): void {
  describe(`webhooks (${engine})`, () => {
    let service: TestService;
    let api: Api;
    let read: { key: string };
    let write: { key: string };
    let receiver: Receiver & { caCertificate: string };
    let mail: MailServer;
    let caDir: string;
    let caFile: string;

    const createWebhook = async (body: Record<string, unknown>) => {
      const created = await api('PUT', '/webhooks', { ...write, body: { endpoint: `${receiver.url}/hook`, ...body } });
      expect(created.status).toBe(200);
      return created.body as { id: string; secret: string };
    };
    const publish = async (type: string, fields: Record<string, unknown>, id?: string) => {
      const saved = await api('PUT', `/v2/contents/${type}`, { ...write, body: { ...(id ? { id } : {}), fields } });
      expect(saved.status).toBe(200);
      return saved.body.id as string;
    };
    const log = async (webhookId: string, query = '') => (await api('GET', `/webhooks/${webhookId}/events${query}`, read)).body;
    const requestsTo = (path: string) => receiver.requests.filter((request) => request.path === path);

    beforeAll(async () => {
      receiver = await startHttpsReceiver();
      mail = await startMailServer();
      caDir = await mkdtemp(join(tmpdir(), 'cms-ca-'));
      caFile = join(caDir, 'ca.pem');
      await writeFile(caFile, receiver.caCertificate);
      service = await startTestService(engine, {
        ALLOW_PRIVATE_TARGETS: 'true',
        OUTBOUND_CA_FILE: caFile,
        SMTP_URL: mail.url,
        WEBHOOK_RETRY_UNIT_MS: String(RETRY_UNIT_MS),
      });
      api = client(service.url);
      read = { key: service.readKey };
      write = { key: service.writeKey };
      for (const type of [articleType, noteType]) expect((await api('PUT', '/content-types', { ...write, body: type })).status).toBe(200);
    });

    afterAll(async () => {
      await service?.close();
      await receiver?.close();
      await mail?.close();
      await rm(caDir, { recursive: true, force: true });
    });

    beforeEach(() => {
      receiver.fallback = 200;
      receiver.replyBody = '';
    });

    describe('the webhook resource', () => {
      it('creates with a generated id and wh_ secret, lists, reads, and refuses without the right key', async () => {
        const created = await createWebhook({ eventTypes: { Article: [0] }, description: 'first' });
        expect(created).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), secret: expect.stringMatching(/^wh_[A-Za-z0-9]{32}$/), enabled: true });
        expect((await api('GET', `/webhooks/${created.id}`, read)).body).toEqual({
          id: created.id,
          endpoint: `${receiver.url}/hook`,
          secret: created.secret,
          eventTypes: { Article: [0] },
          useCustomPayload: false,
          customPayload: null,
          description: 'first',
          errorEmailTo: '',
          enabled: true,
        });
        expect((await api('GET', '/webhooks', read)).body.map((webhook: { id: string }) => webhook.id)).toContain(created.id);
        expect((await api('GET', '/webhooks')).status).toBe(401);
        expect((await api('PUT', '/webhooks', { ...read, body: { endpoint: receiver.url } })).status).toBe(403);
        expect((await api('GET', '/webhooks/00000000-0000-0000-0000-000000000000', read)).status).toBe(404);
        expect((await api('GET', '/webhooks/00000000-0000-0000-0000-000000000000/events', read)).status).toBe(404);
        expect((await api('GET', `/webhooks/${created.id}/events`, read)).body).toMatchObject({ items: [], total: 0 });
        await api('DELETE', `/webhooks/${created.id}`, write);
      });

      it('keeps the secret on an update without one, replaces it with a given one, and takes a given secret on create', async () => {
        const created = await createWebhook({ secret: 'my-own-secret' });
        expect(created.secret).toBe('my-own-secret');
        const kept = await api('PUT', '/webhooks', { ...write, body: { id: created.id, endpoint: `${receiver.url}/other`, secret: '' } });
        expect(kept.body).toMatchObject({ id: created.id, endpoint: `${receiver.url}/other`, secret: 'my-own-secret' });
        const replaced = await api('PUT', '/webhooks', { ...write, body: { id: created.id, endpoint: `${receiver.url}/other`, secret: 'replaced' } });
        expect(replaced.body.secret).toBe('replaced');
        expect((await api('PUT', '/webhooks', { ...write, body: { id: '00000000-0000-0000-0000-000000000000', endpoint: receiver.url } })).status).toBe(404);
        await api('DELETE', `/webhooks/${created.id}`, write);
      });

      it('refuses a missing body or endpoint, an http or relative endpoint, an unknown content type and a bad template, naming the field', async () => {
        const refused = async (body: unknown, field: string) => {
          const answer = await api('PUT', '/webhooks', { ...write, body });
          expect(answer.status).toBe(400);
          expect(answer.headers.get('content-type')).toContain('application/problem+json');
          expect(answer.body.errors.map((error: { field: string }) => error.field)).toContain(field);
        };
        const missingBody = await api('PUT', '/webhooks', write);
        expect(missingBody.status).toBe(400);
        await refused({ description: 'no endpoint' }, 'endpoint');
        await refused({ endpoint: 'http://example.com/hook' }, 'endpoint');
        const plainHttp = await api('PUT', '/webhooks', { ...write, body: { endpoint: 'http://example.com/hook' } });
        expect(plainHttp.body.errors).toEqual([{ field: 'endpoint', message: expect.stringContaining('WEBHOOK_ALLOW_HTTP=true') }]);
        await refused({ endpoint: '/relative' }, 'endpoint');
        await refused({ endpoint: receiver.url, eventTypes: { Missing: [0] } }, 'eventTypes.Missing');
        await refused({ endpoint: receiver.url, eventTypes: { Article: [7] } }, 'eventTypes.Article.0');
        await refused({ endpoint: receiver.url, useCustomPayload: true, customPayload: { id: '{{nope}}' } }, 'customPayload.id');
        await refused({ endpoint: receiver.url, useCustomPayload: true, customPayload: { id: '{{contentId' } }, 'customPayload.id');
        await refused({ endpoint: receiver.url, errorEmailTo: 'ops@example.com, not-an-address' }, 'errorEmailTo');
        const everything = await api('PUT', '/webhooks', {
          ...write,
          body: { endpoint: 'http://example.com/hook', eventTypes: { Missing: [0], Gone: [1] }, useCustomPayload: true, customPayload: { id: '{{nope}}' } },
        });
        expect(everything.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(['customPayload.id', 'endpoint', 'eventTypes.Gone', 'eventTypes.Missing']);
      });
    });

    describe('deliveries', () => {
      it('signs each event type of the listed content types, and sends nothing for others', async () => {
        const webhook = await createWebhook({ endpoint: `${receiver.url}/kinds`, eventTypes: { Article: [0, 1, 2, 3, 4] } });
        const id = await publish('Article', { title: 'First' });
        await publish('Article', { title: 'First, edited' }, id);
        await publish('Note', { text: 'not listed' });
        expect((await api('PUT', `/contents/Article/${id}/unpublish`, write)).status).toBe(200);
        expect((await api('DELETE', `/contents/Article/${id}`, write)).status).toBe(200);

        // publish (0, 3), publish again (0, 4), unpublish (1), delete (2)
        await eventually(async () => requestsTo('/kinds').length >= 6);
        await delay(200);
        const requests = requestsTo('/kinds');
        expect(requests).toHaveLength(6);
        for (const request of requests) {
          expect(signedWith(request, webhook.secret)).toBe(true);
          expect(request.headers['content-type']).toBe('application/json');
          expect(request.headers['svc-delivery-id']).toBe(JSON.parse(request.body).deliveryId);
        }
        const bodies = requests.map((request) => JSON.parse(request.body));
        expect(bodies.map((body) => body.eventTypeCode).sort()).toEqual([0, 0, 1, 2, 3, 4]);
        const created = bodies.find((body) => body.eventTypeCode === 3);
        expect(created).toEqual({
          eventType: 'PublishedCreated',
          eventTypeCode: 3,
          deliveryId: expect.any(String),
          webhookId: webhook.id,
          workspaceId: service.workspaceId,
          contentType: 'Article',
          contentId: id,
          fields: { title: 'First' },
          translations: {},
          occurredAt: expect.any(String),
        });
        expect(bodies.find((body) => body.eventTypeCode === 4).fields).toEqual({ title: 'First, edited' });
        expect(new Set(bodies.map((body) => body.deliveryId)).size).toBe(6);

        const entries = await eventually(async () => {
          const page = await log(webhook.id);
          return page.total === 6 && page.items.every((entry: { processStatus: number }) => entry.processStatus === 2) && page;
        });
        expect(entries.items[0]).toMatchObject({ webhookId: webhook.id, contentType: 'Article', contentId: id, isResponseSuccessStatusCode: true, responseStatusCode: 200 });
        await api('DELETE', `/webhooks/${webhook.id}`, write);
      });

      it('sends Deleted when the draft of an item with nothing published is deleted, which ends the item', async () => {
        const webhook = await createWebhook({ endpoint: `${receiver.url}/draft-only`, eventTypes: { Article: [2] } });
        const draft = await api('PUT', '/v2/preview-contents/Article', { ...write, body: { fields: { title: 'Never published' } } });
        expect((await api('DELETE', `/preview-contents/Article/${draft.body.id}`, write)).status).toBe(200);
        const [request] = await eventually(async () => requestsTo('/draft-only').length >= 1 && requestsTo('/draft-only'));
        expect(JSON.parse(request!.body)).toMatchObject({ eventType: 'Deleted', contentType: 'Article', contentId: draft.body.id });
        expect((await api('GET', `/v2/preview-contents/Article/${draft.body.id}`, read)).status).toBe(404);
        await api('DELETE', `/webhooks/${webhook.id}`, write);
      });

      it('renders a custom payload', async () => {
        const webhook = await createWebhook({
          endpoint: `${receiver.url}/custom`,
          eventTypes: { Article: [3] },
          useCustomPayload: true,
          customPayload: { text: 'New: {{fields.title}} ({{eventType}})', rank: '{{fields.rank}}', item: { id: '{{contentId}}' }, missing: '{{fields.none}}' },
        });
        const id = await publish('Article', { title: 'Custom', rank: 7 });
        const [request] = await eventually(async () => requestsTo('/custom').length > 0 && requestsTo('/custom'));
        expect(JSON.parse(request!.body)).toEqual({ text: 'New: Custom (PublishedCreated)', rank: 7, item: { id }, missing: null });
        expect(signedWith(request!, webhook.secret)).toBe(true);
        const entry = (await eventually(async () => (await log(webhook.id)).items[0])) as { customPayload: unknown };
        expect(entry.customPayload).toEqual(JSON.parse(request!.body));
        await api('DELETE', `/webhooks/${webhook.id}`, write);
      });

      it('queues nothing while disabled, delivers again once enabled', async () => {
        const webhook = await createWebhook({ endpoint: `${receiver.url}/toggle`, eventTypes: { Article: [3] } });
        const disabled = await api('POST', `/webhooks/${webhook.id}/disable`, write);
        expect(disabled.body.enabled).toBe(false);
        await publish('Article', { title: 'Unseen' });
        await delay(500);
        expect(requestsTo('/toggle')).toHaveLength(0);
        expect((await log(webhook.id)).total).toBe(0);

        expect((await api('POST', `/webhooks/${webhook.id}/enable`, write)).body.enabled).toBe(true);
        await publish('Article', { title: 'Seen' });
        await eventually(async () => requestsTo('/toggle').length === 1);
        expect(JSON.parse(requestsTo('/toggle')[0]!.body).fields.title).toBe('Seen');
        await api('DELETE', `/webhooks/${webhook.id}`, write);
      });

      it('signs with the new secret at once after a rotation; the old one no longer verifies', async () => {
        const webhook = await createWebhook({ endpoint: `${receiver.url}/rotate`, eventTypes: { Article: [3] } });
        const rotated = await api('POST', `/webhooks/${webhook.id}/rotate-secret`, write);
        expect(rotated.status).toBe(200);
        expect(rotated.body.secret).toMatch(/^wh_[A-Za-z0-9]{32}$/);
        expect(rotated.body.secret).not.toBe(webhook.secret);
        await publish('Article', { title: 'After rotation' });
        const [request] = await eventually(async () => requestsTo('/rotate').length === 1 && requestsTo('/rotate'));
        expect(signedWith(request!, rotated.body.secret)).toBe(true);
        expect(signedWith(request!, webhook.secret)).toBe(false);
        await api('DELETE', `/webhooks/${webhook.id}`, write);
      });

      it('retries a failed delivery and records every attempt until it is sent', async () => {
        const webhook = await createWebhook({ endpoint: `${receiver.url}/flaky`, eventTypes: { Article: [3] } });
        receiver.respondWith(500, 503);
        await publish('Article', { title: 'Flaky' });
        const entry = await eventually(async () => {
          const [first] = (await log(webhook.id)).items;
          return first?.processStatus === 2 && first;
        });
        const requests = requestsTo('/flaky');
        expect(requests).toHaveLength(3);
        expect(new Set(requests.map((request) => request.headers['svc-delivery-id'])).size).toBe(1);
        const detail = (await api('GET', `/webhooks/${webhook.id}/events/${entry.id}`, read)).body;
        expect(detail.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).toEqual([500, 503, 200]);
        expect(detail).toMatchObject({ processStatus: 2, responseStatusCode: 200, isResponseSuccessStatusCode: true, nextAttemptAt: null });
        await api('DELETE', `/webhooks/${webhook.id}`, write);
      });

      it('ends a failing delivery in Error after the last attempt, e-mails once per failing streak, and retries one entry on request', async () => {
        const webhook = await createWebhook({ endpoint: `${receiver.url}/down?token=secret123`, eventTypes: { Article: [3] }, errorEmailTo: 'ops@example.com, dev@example.com' });
        receiver.fallback = 500;
        receiver.replyBody = 'x'.repeat(3000);
        const mailsBefore = mail.messages.length;
        await publish('Article', { title: 'Doomed 1' });
        const failed = await eventually(async () => {
          const [first] = (await log(webhook.id)).items;
          return first?.processStatus === -1 && first;
        });
        expect(requestsTo('/down?token=secret123')).toHaveLength(6);
        expect(failed).toMatchObject({ responseStatusCode: 500, isResponseSuccessStatusCode: false });
        expect(failed.responseMessage).toHaveLength(2000);
        const [message] = await mail.waitFor(mailsBefore + 1, 10_000);
        expect(mail.messages[mailsBefore]!.to.sort()).toEqual(['dev@example.com', 'ops@example.com']);
        // The endpoint's query (a token here) stays out of the e-mail.
        expect(mail.messages[mailsBefore]!.raw).not.toContain('secret123');
        expect(message).toBeDefined();

        // Still failing: the streak has been e-mailed already.
        await publish('Article', { title: 'Doomed 2' });
        await eventually(async () => (await log(webhook.id, '?status=-1')).total === 2);
        await delay(300);
        expect(mail.messages.length).toBe(mailsBefore + 1);

        // A retry by hand, now that the receiver is back, sends it and ends the streak.
        receiver.fallback = 200;
        const retried = await api('POST', `/webhooks/${webhook.id}/events/${failed.id}/retry`, write);
        expect(retried.status).toBe(200);
        expect(retried.body.processStatus === 0 || retried.body.processStatus === 2).toBe(true);
        await eventually(async () => (await api('GET', `/webhooks/${webhook.id}/events/${failed.id}`, read)).body.processStatus === 2);

        receiver.fallback = 500;
        await publish('Article', { title: 'Doomed 3' });
        await mail.waitFor(mailsBefore + 2, 10_000);
        expect((await api('POST', `/webhooks/${webhook.id}/events/00000000-0000-0000-0000-000000000000/retry`, write)).status).toBe(404);
        await api('DELETE', `/webhooks/${webhook.id}`, write);
      });

      it('keeps the delivery log of a deleted webhook', async () => {
        const webhook = await createWebhook({ endpoint: `${receiver.url}/deleted`, eventTypes: { Article: [3] } });
        await publish('Article', { title: 'Logged' });
        await eventually(async () => (await log(webhook.id)).total === 1);
        expect((await api('DELETE', `/webhooks/${webhook.id}`, write)).status).toBe(200);
        expect((await api('GET', `/webhooks/${webhook.id}`, read)).status).toBe(404);
        expect((await log(webhook.id)).total).toBe(1);
      });
    });

    describe('the delivery log', () => {
      it('pages newest first and filters by status, event type, content type and inclusive dates', async () => {
        const webhook = await createWebhook({ endpoint: `${receiver.url}/log`, eventTypes: { Article: [0, 3, 4], Note: [3] } });
        const article = await publish('Article', { title: 'Logged article' });
        await publish('Article', { title: 'Logged article, again' }, article);
        await publish('Note', { text: 'logged note' });
        const all = await eventually(async () => {
          const page = await log(webhook.id, '?pageSize=100');
          return page.total === 5 && page.items.every((entry: { processStatus: number }) => entry.processStatus === 2) && page;
        });
        const inserted: string[] = all.items.map((entry: { dateInsert: string }) => entry.dateInsert);
        expect([...inserted].sort().reverse()).toEqual(inserted);

        const firstPage = await log(webhook.id, '?page=1&pageSize=2');
        expect(firstPage).toMatchObject({ page: 1, pageSize: 2, total: 5 });
        expect(firstPage.items.map((entry: { id: string }) => entry.id)).toEqual(all.items.slice(0, 2).map((entry: { id: string }) => entry.id));
        const lastPage = await log(webhook.id, '?page=3&pageSize=2');
        expect(lastPage.items.map((entry: { id: string }) => entry.id)).toEqual([all.items[4].id]);
        expect((await log(webhook.id, '?page=4&pageSize=2')).items).toEqual([]);
        expect((await log(webhook.id)).pageSize).toBe(20);

        expect((await log(webhook.id, '?eventType=0')).total).toBe(2);
        expect((await log(webhook.id, '?eventType=4')).total).toBe(1);
        expect((await log(webhook.id, '?contentType=Note')).total).toBe(1);
        expect((await log(webhook.id, '?status=2')).total).toBe(5);
        expect((await log(webhook.id, '?status=-1')).total).toBe(0);
        const oldest = all.items[4].dateInsert as string;
        const newest = all.items[0].dateInsert as string;
        expect((await log(webhook.id, `?from=${encodeURIComponent(newest)}`)).items.map((entry: { dateInsert: string }) => entry.dateInsert)).toContain(newest);
        expect((await log(webhook.id, `?to=${encodeURIComponent(oldest)}`)).items.map((entry: { dateInsert: string }) => entry.dateInsert)).toContain(oldest);
        expect((await log(webhook.id, `?from=${encodeURIComponent(oldest)}&to=${encodeURIComponent(newest)}`)).total).toBe(5);
        expect((await log(webhook.id, '?from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z')).total).toBe(0);

        for (const bad of ['pageSize=101', 'pageSize=0', 'page=0', 'status=5', 'eventType=9', 'from=yesterday']) {
          const answer = await api('GET', `/webhooks/${webhook.id}/events?${bad}`, read);
          expect(answer.status).toBe(400);
          expect(answer.body.errors[0].field).toBe(bad.split('=')[0]);
        }
        const one = await api('GET', `/webhooks/${webhook.id}/events/${all.items[0].id}`, read);
        expect(one.body).toMatchObject({ id: all.items[0].id, webhookId: webhook.id, attempts: [expect.objectContaining({ attempt: 1, statusCode: 200 })] });
        expect((await api('GET', `/webhooks/${webhook.id}/events/00000000-0000-0000-0000-000000000000`, read)).status).toBe(404);
        await api('DELETE', `/webhooks/${webhook.id}`, write);
      });
    });

    describe('test ping', () => {
      it('sends a signed webhook.test with Svc-Test, truncates the answer, writes no log entry', async () => {
        const webhook = await createWebhook({ endpoint: `${receiver.url}/ping` });
        receiver.fallback = 418;
        receiver.replyBody = 'y'.repeat(2500);
        const answer = await api('POST', `/webhooks/${webhook.id}/test`, write);
        expect(answer.status).toBe(200);
        expect(answer.body).toEqual({ isSuccessStatusCode: false, statusCode: 418, message: 'y'.repeat(2000), durationMs: expect.any(Number) });
        const [request] = requestsTo('/ping');
        expect(request!.headers['svc-test']).toBe('true');
        expect(JSON.parse(request!.body)).toMatchObject({ eventType: 'webhook.test', webhookId: webhook.id });
        expect(signedWith(request!, webhook.secret)).toBe(true);
        expect((await log(webhook.id)).total).toBe(0);

        receiver.fallback = 204;
        receiver.replyBody = '';
        expect((await api('POST', `/webhooks/${webhook.id}/test`, write)).body).toMatchObject({ isSuccessStatusCode: true, statusCode: 204 });
        await api('DELETE', `/webhooks/${webhook.id}`, write);
      });

      it('answers statusCode 0 when the request never reached a server', async () => {
        const webhook = await createWebhook({ endpoint: 'https://127.0.0.1:1/closed' });
        const answer = await api('POST', `/webhooks/${webhook.id}/test`, write);
        expect(answer.body).toMatchObject({ isSuccessStatusCode: false, statusCode: 0, message: expect.stringMatching(/ECONNREFUSED|connect/) });
        expect((await api('POST', '/webhooks/00000000-0000-0000-0000-000000000000/test', write)).status).toBe(404);
        await api('DELETE', `/webhooks/${webhook.id}`, write);
      });
    });

    it('loses no waiting delivery across a restart and sends none twice', async () => {
      // Slow retries at first: the first attempt fails and the service stops before the retry is due.
      service = await service.restart({ WEBHOOK_RETRY_UNIT_MS: '1500' });
      api = client(service.url);
      const webhook = await createWebhook({ endpoint: `${receiver.url}/restart`, eventTypes: { Article: [3] } });
      receiver.respondWith(500);
      await publish('Article', { title: 'Across a restart' });
      await eventually(async () => (await log(webhook.id)).items[0]?.responseStatusCode === 500);
      expect(requestsTo('/restart')).toHaveLength(1);

      service = await service.restart({ WEBHOOK_RETRY_UNIT_MS: String(RETRY_UNIT_MS) });
      api = client(service.url);
      const sent = await eventually(async () => {
        const [entry] = (await log(webhook.id)).items;
        return entry?.processStatus === 2 && entry;
      });
      await delay(300);
      expect(requestsTo('/restart')).toHaveLength(2);
      expect(new Set(requestsTo('/restart').map((request) => request.headers['svc-delivery-id'])).size).toBe(1);
      expect((await api('GET', `/webhooks/${webhook.id}/events/${sent.id}`, read)).body.attempts).toHaveLength(2);
      await api('DELETE', `/webhooks/${webhook.id}`, write);
    });
  });

  if (engine === 'postgres') {
    describe('webhooks on two service instances (postgres)', () => {
      it('sends each delivery once although both instances queue and dispatch', async () => {
        const receiver = await startHttpReceiver();
        const first = await startTestService(engine, { WEBHOOK_ALLOW_HTTP: 'true', ALLOW_PRIVATE_TARGETS: 'true' });
        const config = loadConfig({ PORT: '0', LOG_LEVEL: 'silent', WEBHOOK_ALLOW_HTTP: 'true', ALLOW_PRIVATE_TARGETS: 'true', ...first.environment });
        const second = await startService(config, pino({ level: 'silent' }));
        try {
          const api = client(first.url);
          const write = { key: first.writeKey };
          await api('PUT', '/content-types', { ...write, body: articleType });
          await api('PUT', '/webhooks', { ...write, body: { endpoint: `${receiver.url}/twice`, eventTypes: { Article: [3] } } });
          // Both instances see the webhook before the publishes begin.
          await eventually(async () => (await call(second.url, 'GET', '/webhooks', { key: first.readKey })).body.length === 1);
          for (let index = 0; index < 20; index++) await client(index % 2 ? second.url : first.url)('PUT', '/v2/contents/Article', { ...write, body: { fields: { title: `Item ${index}` } } });
          await receiver.waitFor(20, 15_000);
          await delay(1000);
          const ids = receiver.requests.map((request) => request.headers['svc-delivery-id']);
          expect(ids).toHaveLength(20);
          expect(new Set(ids).size).toBe(20);
        } finally {
          await second.close();
          await first.close();
          await receiver.close();
        }
      });
    });
  }

  describe(`webhooks with other outbound settings (${engine})`, () => {
    it('refuses a loopback target when sending, in the test ping and in the log', async () => {
      const receiver = await startHttpsReceiver();
      const caDir = await mkdtemp(join(tmpdir(), 'cms-ca-'));
      await writeFile(join(caDir, 'ca.pem'), receiver.caCertificate);
      const service = await startTestService(engine, { OUTBOUND_CA_FILE: join(caDir, 'ca.pem') });
      try {
        const api = client(service.url);
        const write = { key: service.writeKey };
        await api('PUT', '/content-types', { ...write, body: articleType });
        const webhook = (await api('PUT', '/webhooks', { ...write, body: { endpoint: `${receiver.url}/private`, eventTypes: { Article: [3] } } })).body;
        const ping = await api('POST', `/webhooks/${webhook.id}/test`, write);
        // The refusal names the setting that allows such targets in development.
        expect(ping.body).toMatchObject({ isSuccessStatusCode: false, statusCode: 0, message: expect.stringMatching(/refused.*loopback.*ALLOW_PRIVATE_TARGETS=true/) });

        await api('PUT', '/v2/contents/Article', { ...write, body: { fields: { title: 'Private' } } });
        const entry = await eventually(async () => {
          const [first] = (await api('GET', `/webhooks/${webhook.id}/events`, { key: service.readKey })).body.items;
          return first?.responseMessage && first;
        });
        expect(entry).toMatchObject({ processStatus: 0, responseStatusCode: 0, responseMessage: expect.stringMatching(/refused.*ALLOW_PRIVATE_TARGETS=true/) });
        expect(receiver.requests).toHaveLength(0);
      } finally {
        await service.close();
        await receiver.close();
        await rm(caDir, { recursive: true, force: true });
      }
    });

    it('accepts and delivers to an http endpoint when WEBHOOK_ALLOW_HTTP is set', async () => {
      const receiver = await startHttpReceiver();
      const service = await startTestService(engine, { WEBHOOK_ALLOW_HTTP: 'true', ALLOW_PRIVATE_TARGETS: 'true' });
      try {
        const api = client(service.url);
        const write = { key: service.writeKey };
        await api('PUT', '/content-types', { ...write, body: articleType });
        const webhook = await api('PUT', '/webhooks', { ...write, body: { endpoint: `${receiver.url}/plain`, eventTypes: { Article: [3] } } });
        expect(webhook.status).toBe(200);
        expect((await api('PUT', '/webhooks', { ...write, body: { endpoint: 'ftp://example.com/hook' } })).status).toBe(400);
        await api('PUT', '/v2/contents/Article', { ...write, body: { fields: { title: 'Plain' } } });
        const [request] = await receiver.waitFor(1, 10_000);
        expect(signedWith(request!, webhook.body.secret)).toBe(true);
        expect(JSON.parse(request!.body)).toMatchObject({ eventType: 'PublishedCreated', fields: { title: 'Plain' } });
      } finally {
        await service.close();
        await receiver.close();
      }
    });
  });
}
