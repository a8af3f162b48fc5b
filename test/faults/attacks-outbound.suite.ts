import { randomUUID } from 'node:crypto';
import type { EventMetadata } from '../../infra/eventstore/port';
import { TOKENS } from '../../src/container';
import { contentTypeStream } from '../../src/domain/content-type/events';
import { scheduledJobStream, type JobScheduledData } from '../../src/domain/scheduled-job/events';
import { webhookStream } from '../../src/domain/webhook/events';
import { type BuiltService, startBuiltService } from '../support/built-service';
import { client } from '../support/http';
import { startHttpReceiver, type Receiver } from '../support/receivers';
import { type Engine, startTestService, type TestService } from '../support/service';
import { createBystander, type Bystander, measureWhile } from '../support/tenant-latency';
import { delay, eventually } from '../support/waiting';

/** The longest timeout of an outbound send (a synchronous content action); the old crash came when it fired. */
const LONGEST_SEND_TIMEOUT_MS = 30_000;
const OUTBOUND = { ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_ALLOW_HTTP: 'true' };
const CLAIM_LOST_AGO_MS = 61_000;

/**
 * Issue 14, outbound findings: values that made `http.request()` throw (CR/LF, NUL, DEL or
 * characters above U+00FF in headers and ids, undecodable userinfo in URLs) are refused when
 * saved; events an older version stored with them fail their attempt instead of ending the
 * process; hidden action headers do not follow a new url; a job's payload arrives as sent.
 * Outbound guards do not depend on the store's engine: the suite runs on the embedded default only,
 * which keeps CI under its time limit.
 */
export function describeOutboundAttacks(engine: Engine): void {
  describe(`outbound attacks by an ordinary tenant (${engine})`, () => {
    let service: TestService;
    let built: BuiltService | undefined;
    let receiver: Receiver;
    let bystander: Bystander;
    let api: ReturnType<typeof client>;
    let write: { key: string };
    let read: { key: string };
    let itemId: string;

    const articleType = (actions: unknown[]) => ({ name: 'Article', key: 'Article', fields: [{ key: 'title', type: 'Text' }], actions });
    const errorFields = (body: { errors?: { field: string }[] }) => (body.errors ?? []).map((error) => error.field);

    beforeAll(async () => {
      receiver = await startHttpReceiver();
      service = await startTestService(engine, OUTBOUND);
      api = client(service.url);
      write = { key: service.writeKey };
      read = { key: service.readKey };
      bystander = await createBystander(service.url);
      expect((await api('PUT', '/content-types', { key: bystander.writeKey, body: { name: 'Page', key: 'Page', fields: [{ key: 'title', type: 'Text' }] } })).status).toBe(200);
      expect((await api('PUT', '/content-types', { ...write, body: articleType([]) })).status).toBe(200);
      itemId = (await api('PUT', '/v2/preview-contents/Article', { ...write, body: { fields: { title: 'first' } } })).body.id;
    }, 120_000);

    afterAll(async () => {
      if (built && built.process.exitCode === null && built.process.signalCode === null) {
        built.process.kill('SIGKILL');
        await built.exited;
      }
      await service?.close();
      await receiver?.close();
    });

    describe('values that would reach the network are checked when saved (400 naming the field)', () => {
      const badUrl = 'https://%ff@example.com/';
      const job = (extra: Record<string, unknown>) => api('POST', '/scheduled-jobs', { ...write, body: { delaySeconds: 3600, callbackUrl: `${receiver.url}/job`, ...extra } });

      it.each([
        ['correlationId with CR/LF', { correlationId: 'trace\r\nInjected: yes' }, 'correlationId'],
        ['idempotencyKey with LF', { idempotencyKey: 'key\nInjected: yes' }, 'idempotencyKey'],
        ['a header value with NUL', { headers: { 'X-Token': 'nul\u0000' } }, 'headers.X-Token'],
        ['a header value with DEL', { headers: { 'X-Token': 'del\u007f' } }, 'headers.X-Token'],
        ['a header value above U+00FF', { headers: { 'X-Token': 'wide \u0100' } }, 'headers.X-Token'],
        ['a header name with a space', { headers: { 'X Token': 'value' } }, 'headers.X Token'],
        ['a callbackUrl with bad percent-encoding in the userinfo', { callbackUrl: badUrl }, 'callbackUrl'],
      ])('scheduled job: %s', async (_what, extra, field) => {
        const answer = await job(extra);
        expect(answer.status).toBe(400);
        expect(answer.headers.get('content-type')).toContain('application/problem+json');
        expect(errorFields(answer.body)).toContain(field);
      });

      it('webhook: an endpoint with bad percent-encoding in the userinfo', async () => {
        const answer = await api('PUT', '/webhooks', { ...write, body: { endpoint: badUrl } });
        expect(answer.status).toBe(400);
        expect(errorFields(answer.body)).toEqual(['endpoint']);
      });

      it.each([
        ['a header value with CR/LF', { headers: { 'X-Token': 'line\r\nInjected: yes' } }, 'actions.0.headers.X-Token'],
        ['a header value above U+00FF', { headers: { 'X-Token': '\u2603' } }, 'actions.0.headers.X-Token'],
        ['a header name that is not a token', { headers: { 'X:Token': 'value' } }, 'actions.0.headers.X:Token'],
        ['a url with bad percent-encoding in the userinfo', { url: badUrl }, 'actions.0.url'],
      ])('content action: %s', async (_what, extra, field) => {
        const answer = await api('PUT', '/content-types', { ...write, body: articleType([{ id: 'notify', url: `${receiver.url}/notify`, ...extra }]) });
        expect(answer.status).toBe(400);
        expect(errorFields(answer.body)).toContain(field);
      });
    });

    it('keeps a hidden action header only while the url is unchanged; a new url must be given the value again', async () => {
      const notify = (url: string, token: string) => ({ id: 'notify', url, headers: { Authorization: token } });
      expect((await api('PUT', '/content-types', { ...write, body: articleType([notify(`${receiver.url}/owner`, 'Bearer owner-secret')]) })).status).toBe(200);

      const moved = await api('PUT', '/content-types', { ...write, body: articleType([notify(`${receiver.url}/attacker`, '(hidden)')]) });
      expect(moved.status).toBe(400);
      expect(errorFields(moved.body)).toEqual(['actions.0.headers.Authorization']);

      expect((await api('PUT', '/content-types', { ...write, body: articleType([notify(`${receiver.url}/owner`, '(hidden)')]) })).status).toBe(200);
      expect((await api('GET', `/actions/Article/${itemId}/notify/execute`, read)).status).toBe(200);
      const sent = receiver.requests.filter((request) => request.path.startsWith('/owner') || request.path.startsWith('/attacker'));
      expect(sent.map((request) => [request.path, request.headers.authorization])).toEqual([['/owner', 'Bearer owner-secret']]);
    });

    it("sends a scheduled job's payload byte for byte as the client wrote it", async () => {
      const payload = '{ "hello" : "w\\u00f6rld",\n  "n":1.50, "2":[true ,null], "1":{"z":0,"a":1e3} }';
      const rawBody = `{"callbackUrl":"${receiver.url}/exact","payload":${payload},"correlationId":"trace-1"}`;
      const created = await api('POST', '/scheduled-jobs', { ...write, rawBody });
      expect(created.status).toBe(200);
      expect(created.body.payload).toEqual(JSON.parse(payload));
      const request = await eventually(() => receiver.requests.find((candidate) => candidate.path === '/exact'));
      expect(request.body).toBe(payload);
    });

    it('the built service, started on events an older version stored with such values, keeps answering: each send fails as an attempt, a stuck job can be cancelled, the bystander is not stalled', async () => {
      const { workspaceId } = service;
      const events = service.service.container.resolve(TOKENS.eventStore);
      const cipher = service.service.container.resolve(TOKENS.cipher);
      const now = Date.now();
      const metadata: EventMetadata = { workspaceId, actor: 'system', correlationId: 'written-by-an-older-version', timestamp: new Date(now).toISOString() };
      const append = (stream: string, type: string, data: unknown) => events.append(stream, [{ type, data, metadata }], 'any');
      const badUserinfo = (path: string) => `http://%ff@${new URL(receiver.url).host}${path}`;

      // What a process manager sends must not be sent by this in-process instance: the built service is the one under test.
      await service.service.container.resolve(TOKENS.processes).stop();
      // Its read models go on (the lease held them too), so that its writes here are answered before the built service starts.
      await service.service.container.resolve(TOKENS.projections).start();

      const scheduledJob = (jobId: string, changes: Partial<JobScheduledData>): JobScheduledData => ({
        jobId,
        workspaceId,
        seriesId: jobId,
        occurrenceNumber: 1,
        name: null,
        callbackUrl: `${receiver.url}/never`,
        method: 'POST',
        sealedHeaders: null,
        headerNames: [],
        payload: { hello: 'world', n: 1 },
        maxRetries: 0,
        idempotencyKey: `key-${jobId}`,
        seriesIdempotencyKey: `key-${jobId}`,
        correlationId: null,
        recurrence: null,
        endAtUtc: null,
        maxOccurrences: null,
        plannedAt: new Date(now - CLAIM_LOST_AGO_MS).toISOString(),
        ...changes,
      });
      const jobs = {
        claimedCorrelation: randomUUID(),
        nulHeader: randomUUID(),
        badCallbackUrl: randomUUID(),
        claimedToCancel: randomUUID(),
        oldPayload: randomUUID(),
      };
      const claimed = async (jobId: string, changes: Partial<JobScheduledData>) => {
        await append(scheduledJobStream(workspaceId, jobId), 'JobScheduled', scheduledJob(jobId, changes));
        // The claim of the attempt that ended the older version's process.
        await append(scheduledJobStream(workspaceId, jobId), 'JobFired', { jobId, workspaceId, attempt: 1, at: new Date(now - CLAIM_LOST_AGO_MS).toISOString() });
      };
      await claimed(jobs.claimedCorrelation, { correlationId: 'trace\r\nInjected: yes' });
      await claimed(jobs.claimedToCancel, { idempotencyKey: 'key\r\nInjected: yes', maxRetries: 3 });
      await append(scheduledJobStream(workspaceId, jobs.nulHeader), 'JobScheduled', scheduledJob(jobs.nulHeader, { sealedHeaders: await cipher.encrypt(workspaceId, JSON.stringify({ 'X-Token': 'nul\u0000 \u2603' })), headerNames: ['X-Token'] }));
      await append(scheduledJobStream(workspaceId, jobs.badCallbackUrl), 'JobScheduled', scheduledJob(jobs.badCallbackUrl, { callbackUrl: badUserinfo('/job') }));
      await append(scheduledJobStream(workspaceId, jobs.oldPayload), 'JobScheduled', scheduledJob(jobs.oldPayload, { callbackUrl: `${receiver.url}/old-payload`, payload: { hello: 'world', n: 1 } }));

      const badWebhookId = randomUUID();
      await append(webhookStream(workspaceId, badWebhookId), 'WebhookSaved', {
        webhookId: badWebhookId,
        workspaceId,
        created: true,
        endpoint: badUserinfo('/bad-hook'),
        sealedSecret: await cipher.encrypt(workspaceId, 'wh_secret'),
        eventTypes: { Article: [0] },
        useCustomPayload: false,
        customPayload: null,
        description: '',
        errorEmailTo: '',
        enabled: true,
      });
      const goodWebhook = await api('PUT', '/webhooks', { ...write, body: { endpoint: `${receiver.url}/good-hook`, eventTypes: { Article: [0] } } });
      expect(goodWebhook.status).toBe(200);

      const stored = (await events.readStream(contentTypeStream(workspaceId, 'Article'))).at(-1)!.data as { contentTypeId: string; definition: Record<string, unknown> };
      await append(contentTypeStream(workspaceId, 'Article'), 'ContentTypeSaved', {
        workspaceId,
        contentTypeId: stored.contentTypeId,
        created: false,
        definition: articleType([
          // Saved before headers were sealed: in clear, as such definitions still are.
          { id: 'clear-crlf', name: '', url: `${receiver.url}/clear-crlf`, method: 'POST', useCallback: false, payloadMode: 'IdOnly', customTemplate: null, headers: { 'X-Token': 'line\r\nInjected: yes' }, navigateUrl: null },
          { id: 'sealed-nul', name: '', url: `${receiver.url}/sealed-nul`, method: 'POST', useCallback: false, payloadMode: 'IdOnly', customTemplate: null, headers: { 'X-Token': '(hidden)' }, navigateUrl: null },
          { id: 'bad-url', name: '', url: badUserinfo('/bad-url'), method: 'POST', useCallback: true, payloadMode: 'IdOnly', customTemplate: null, headers: {}, navigateUrl: null },
        ]),
        sealedActionHeaders: { 'sealed-nul': await cipher.encrypt(workspaceId, JSON.stringify({ 'X-Token': 'nul\u0000' })) },
      });
      await service.service.close();

      built = await startBuiltService({ ...service.environment, ...OUTBOUND });
      const builtApi = client(built.url);
      const job = async (jobId: string) => (await builtApi('GET', `/scheduled-jobs/${jobId}`, read)).body;
      const jobWhen = (jobId: string, settled: (view: { status: string; attempts: number }) => boolean) =>
        eventually(async () => {
          const view = await job(jobId);
          return settled(view) && view;
        }, 20_000);
      const ended = (jobId: string) => jobWhen(jobId, (view) => ['DeadLetter', 'Done'].includes(view.status));
      let lastSendAt = 0;

      const { latency } = await measureWhile(built.url, { path: '/content-types', key: bystander.readKey }, async () => {
        // Jobs: the claimed one is taken over and fails; the others fail at their first attempt; none reaches the receiver.
        for (const jobId of [jobs.claimedCorrelation, jobs.nulHeader, jobs.badCallbackUrl]) {
          const settled = await ended(jobId);
          expect(settled).toMatchObject({ status: 'DeadLetter', attempts: 1, lastStatusCode: 0, lastMessage: expect.stringMatching(/could not be built/) });
        }
        await jobWhen(jobs.claimedToCancel, (view) => view.status === 'Pending' && view.attempts === 1);
        const cancelled = await builtApi('DELETE', `/scheduled-jobs/${jobs.claimedToCancel}`, write);
        expect(cancelled.status).toBe(200);
        expect(cancelled.body).toMatchObject({ status: 'Cancelled', lastStatusCode: 0 });
        expect(await ended(jobs.oldPayload)).toMatchObject({ status: 'Done', lastStatusCode: 200 });

        // Webhooks: the ping answers statusCode 0; a delivery to the bad endpoint fails its attempt, the good one is sent.
        const ping = await builtApi('POST', `/webhooks/${badWebhookId}/test`, write);
        expect(ping.status).toBe(200);
        expect(ping.body).toMatchObject({ isSuccessStatusCode: false, statusCode: 0, message: expect.stringMatching(/could not be built/) });
        expect((await builtApi('PUT', `/v2/preview-contents/Article/${itemId}/publish`, write)).status).toBe(200);
        const [delivery] = await eventually(async () => {
          const log = await builtApi('GET', `/webhooks/${badWebhookId}/events`, read);
          // An entry shows status code 0 and no message until its first attempt is recorded.
          return log.body.items?.length > 0 && log.body.items[0].responseMessage !== '' && log.body.items;
        }, 20_000);
        expect(delivery).toMatchObject({ responseStatusCode: 0, responseMessage: expect.stringMatching(/could not be built/) });
        await eventually(() => receiver.requests.find((request) => request.path === '/good-hook'));

        // Content actions, run with a read key: synchronous ones answer the failure, a callback one ends Failed.
        for (const actionId of ['clear-crlf', 'sealed-nul']) {
          const executed = await builtApi('GET', `/actions/Article/${itemId}/${actionId}/execute`, read);
          expect(executed.status).toBe(200);
          expect(executed.body).toMatchObject({ success: false, statusCode: 0, error: expect.stringMatching(/could not be built/) });
        }
        const refused = await builtApi('GET', `/actions/Article/${itemId}/bad-url/execute`, read);
        expect(refused.status).toBe(502);
        expect((await builtApi('GET', `/actions/Article/${itemId}/bad-url/status`, read)).body).toMatchObject({ status: -1, error: expect.stringMatching(/could not be built/) });
        lastSendAt = Date.now();

        // Every timeout of these sends would have fired by now.
        await delay(LONGEST_SEND_TIMEOUT_MS + 1000);
      });

      expect(built.process.exitCode).toBeNull();
      expect(Date.now() - lastSendAt).toBeGreaterThan(LONGEST_SEND_TIMEOUT_MS);
      expect((await builtApi('GET', '/health/live')).status).toBe(200);
      expect(receiver.requests.filter((request) => ['/never', '/job', '/bad-hook', '/bad-url', '/clear-crlf', '/sealed-nul'].some((path) => request.path.startsWith(path)))).toEqual([]);
      expect(receiver.requests.filter((request) => request.path === '/good-hook')).toHaveLength(1);
      expect(JSON.parse(receiver.requests.find((request) => request.path === '/old-payload')!.body)).toEqual({ hello: 'world', n: 1 });

      // The bystander was answered throughout and lost nothing.
      expect(new Set(latency.statuses)).toEqual(new Set([200]));
      // Generous for a CI machine shared by many processes; the attack used to end the process.
      expect(latency.maxMs).toBeLessThan(2000);
      const pages = await builtApi('GET', '/content-types', { key: bystander.readKey });
      expect(pages.body.map((type: { key: string }) => type.key)).toEqual(['Page']);
    }, 180_000);
  });
}
