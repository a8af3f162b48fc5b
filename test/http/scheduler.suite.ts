import { TOKENS } from '../../src/container';
import { client } from '../support/http';
import { signedWith, startHttpReceiver, type Receiver } from '../support/receivers';
import { delay, eventually } from '../support/waiting';
import { ADMIN_TOKEN, type Engine, movableClock, startTestService, type TestService } from '../support/service';

/** Retries after 100, 200, 400 ms...: a whole failing series takes well under a second. */
const BACKOFF_UNIT_MS = 100;
const SIGNING_SECRET = 'scheduler-signing-secret-0123456789';



export function describeScheduler(engine: Engine): void {
  describe(`scheduler (${engine})`, () => {
    const clock = movableClock();
    let service: TestService;
    let api: ReturnType<typeof client>;
    let read: { key: string };
    let write: { key: string };
    let receiver: Receiver;

    const schedule = async (body: Record<string, unknown>) => {
      const answer = await api('POST', '/scheduled-jobs', { ...write, body });
      expect(answer.status).toBe(200);
      return answer.body;
    };
    const job = async (id: string) => (await api('GET', `/scheduled-jobs/${id}`, read)).body;
    const requestsTo = (path: string) => receiver.requests.filter((request) => request.path === path);
    const untilStatus = (id: string, status: string) => eventually(async () => {
      const current = await job(id);
      return current.status === status && current;
    });

    beforeAll(async () => {
      receiver = await startHttpReceiver();
      service = await startTestService(engine, { ALLOW_PRIVATE_TARGETS: 'true', SCHEDULER_BACKOFF_UNIT_MS: String(BACKOFF_UNIT_MS) }, clock);
      api = client(service.url);
      read = { key: service.readKey };
      write = { key: service.writeKey };
    });

    afterAll(async () => {
      await service?.close();
      await receiver?.close();
    });

    beforeEach(() => {
      receiver.fallback = 200;
    });

    it('fires a delayed job within a second of its time, with its headers, payload and a valid signature', async () => {
      const signing = await api('PUT', `/admin/workspaces/${service.workspaceId}/scheduler-signing-secret`, { bearer: ADMIN_TOKEN, body: { secret: SIGNING_SECRET } });
      expect(signing.status).toBe(200);
      const created = await schedule({
        name: 'reminder',
        delaySeconds: 1,
        callbackUrl: `${receiver.url}/delayed`,
        headers: { 'X-Custom': 'yes' },
        payload: { hello: 'world' },
        correlationId: 'trace-1',
        idempotencyKey: 'key-1',
      });
      expect(created).toMatchObject({ id: expect.any(String), status: 'Pending', seriesId: created.id, occurrenceNumber: 1, method: 'POST', maxRetries: 5, idempotencyKey: 'key-1' });
      // Header values often carry tokens: sealed in the log, never shown again.
      expect(created.headers).toEqual({ 'X-Custom': '(hidden)' });
      const [scheduled] = await service.service.container.resolve(TOKENS.eventStore).readStream(`job-${service.workspaceId}-${created.id}`);
      expect(JSON.stringify(scheduled!.data)).not.toContain('"yes"');
      const dueAt = Date.parse(created.fireAtUtc);

      const [request] = await eventually(async () => requestsTo('/delayed').length === 1 && requestsTo('/delayed'));
      const lateness = request!.at - dueAt;
      expect(lateness).toBeGreaterThanOrEqual(0);
      expect(lateness).toBeLessThan(1000);
      expect(request!.method).toBe('POST');
      expect(JSON.parse(request!.body)).toEqual({ hello: 'world' });
      expect(request!.headers).toMatchObject({ 'svc-idempotency-key': 'key-1', 'svc-correlation-id': 'trace-1', 'x-custom': 'yes', 'content-type': 'application/json' });
      expect(signedWith(request!, SIGNING_SECRET)).toBe(true);
      expect(await untilStatus(created.id, 'Done')).toMatchObject({ attempts: 1, lastStatusCode: 200, nextAttemptAtUtc: null });
    });

    it('sends no payload for GET, generates an idempotency key, and prefers fireAtUtc to delaySeconds', async () => {
      const fireAt = new Date(clock.now().getTime() + 300).toISOString();
      const created = await schedule({ delaySeconds: 3600, fireAtUtc: fireAt, callbackUrl: `${receiver.url}/get`, method: 'get', payload: { ignored: true } });
      expect(created.fireAtUtc).toBe(fireAt);
      expect(created.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
      const [request] = await eventually(async () => requestsTo('/get').length === 1 && requestsTo('/get'));
      expect(request!.method).toBe('GET');
      expect(request!.body).toBe('');
      expect(request!.headers['svc-idempotency-key']).toBe(created.idempotencyKey);
      expect(request!.headers['svc-correlation-id']).toBeUndefined();
    });

    it('retries a failing callback with the backoff, then dead-letters it', async () => {
      receiver.fallback = 500;
      const created = await schedule({ callbackUrl: `${receiver.url}/failing`, maxRetries: 2 });
      const dead = await untilStatus(created.id, 'DeadLetter');
      expect(dead).toMatchObject({ attempts: 3, lastStatusCode: 500 });
      const times = requestsTo('/failing').map((request) => request.at);
      expect(times).toHaveLength(3);
      // 2^(attempts-1) units after each failure: 100 ms, then 200 ms.
      expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(BACKOFF_UNIT_MS - 20);
      expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(2 * BACKOFF_UNIT_MS - 20);
      await delay(500);
      expect(requestsTo('/failing')).toHaveLength(3);
    });

    it('retries after a 503 and succeeds', async () => {
      receiver.respondWith(503);
      const created = await schedule({ callbackUrl: `${receiver.url}/flaky` });
      expect(await untilStatus(created.id, 'Done')).toMatchObject({ attempts: 2, lastStatusCode: 200 });
    });

    it('cancels only a Pending job: 200, then 409; 404 for an unknown id', async () => {
      const pending = await schedule({ delaySeconds: 3600, callbackUrl: `${receiver.url}/never` });
      const cancelled = await api('DELETE', `/scheduled-jobs/${pending.id}`, write);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.status).toBe('Cancelled');
      expect((await api('DELETE', `/scheduled-jobs/${pending.id}`, write)).status).toBe(409);

      const done = await schedule({ callbackUrl: `${receiver.url}/done` });
      await untilStatus(done.id, 'Done');
      expect((await api('DELETE', `/scheduled-jobs/${done.id}`, write)).status).toBe(409);
      expect((await api('DELETE', '/scheduled-jobs/00000000-0000-0000-0000-000000000000', write)).status).toBe(404);
      expect((await api('GET', '/scheduled-jobs/00000000-0000-0000-0000-000000000000', read)).status).toBe(404);
      expect((await api('DELETE', `/scheduled-jobs/${pending.id}`, read)).status).toBe(403);
      expect((await api('GET', `/scheduled-jobs/${pending.id}`)).status).toBe(401);
    });

    it('refuses invalid requests, naming the field', async () => {
      const refused = async (body: Record<string, unknown>, field: string) => {
        const answer = await api('POST', '/scheduled-jobs', { ...write, body });
        expect(answer.status).toBe(400);
        expect(answer.body.errors.map((error: { field: string }) => error.field)).toContain(field);
      };
      const url = `${receiver.url}/x`;
      await refused({}, 'callbackUrl');
      await refused({ callbackUrl: 'ftp://example.com/x' }, 'callbackUrl');
      await refused({ callbackUrl: url, recurrenceSeconds: 59 }, 'recurrenceSeconds');
      await refused({ callbackUrl: url, scheduleTimes: ['25:00'] }, 'scheduleTimes.0');
      await refused({ callbackUrl: url, scheduleTimes: ['09:00'], scheduleDaysOfWeek: [7] }, 'scheduleDaysOfWeek.0');
      await refused({ callbackUrl: url, scheduleDaysOfWeek: [1] }, 'scheduleDaysOfWeek');
      await refused({ callbackUrl: url, recurrenceSeconds: 60, scheduleTimes: ['09:00'] }, 'scheduleTimes');
      await refused({ callbackUrl: url, method: 'TRACE' }, 'method');
      await refused({ callbackUrl: url, headers: { 'Svc-Signature': 'forged' } }, 'headers.Svc-Signature');
      await refused({ callbackUrl: url, fireAtUtc: 'tomorrow' }, 'fireAtUtc');
      await refused({ callbackUrl: url, delaySeconds: 10, endAtUtc: new Date(clock.now().getTime() + 1000).toISOString() }, 'endAtUtc');
    });

    it('keeps an interval series on its planned cadence after a retried occurrence, and ends it at maxOccurrences', async () => {
      receiver.respondWith(500);
      const first = await schedule({ callbackUrl: `${receiver.url}/series`, recurrenceSeconds: 60, maxOccurrences: 3 });
      const planned = Date.parse(first.fireAtUtc);
      expect(await untilStatus(first.id, 'Done')).toMatchObject({ attempts: 2 });

      const occurrence = async (n: number) =>
        eventually(async () => {
          const { items } = (await api('GET', '/scheduled-jobs?pageSize=100', read)).body;
          return items.find((item: { seriesId: string; occurrenceNumber: number }) => item.seriesId === first.id && item.occurrenceNumber === n);
        });
      const second = await occurrence(2);
      // Anchored to the planned time of the first, not to when its retry succeeded.
      expect(Date.parse(second.fireAtUtc)).toBe(planned + 60_000);
      expect(second).toMatchObject({ status: 'Pending', idempotencyKey: `${first.idempotencyKey}:2`, recurrenceSeconds: 60 });

      clock.advance(60_000);
      await untilStatus(second.id, 'Done');
      const third = await occurrence(3);
      expect(Date.parse(third.fireAtUtc)).toBe(planned + 120_000);
      clock.advance(60_000);
      await untilStatus(third.id, 'Done');
      await delay(300);
      const series = (await api('GET', '/scheduled-jobs?pageSize=100', read)).body.items.filter((item: { seriesId: string }) => item.seriesId === first.id);
      expect(series).toHaveLength(3);
      expect(requestsTo('/series').map((request) => request.headers['svc-idempotency-key'])).toEqual([
        first.idempotencyKey,
        first.idempotencyKey,
        `${first.idempotencyKey}:2`,
        `${first.idempotencyKey}:3`,
      ]);
    });

    it('ends an interval series at endAtUtc', async () => {
      const start = clock.now().getTime() + 200;
      const first = await schedule({ fireAtUtc: new Date(start).toISOString(), callbackUrl: `${receiver.url}/ending`, recurrenceSeconds: 60, endAtUtc: new Date(start + 90_000).toISOString() });
      await untilStatus(first.id, 'Done');
      const inSeries = async () => (await api('GET', '/scheduled-jobs?pageSize=100', read)).body.items.filter((item: { seriesId: string }) => item.seriesId === first.id);
      const [, second] = await eventually(async () => {
        const series = await inSeries();
        return series.length === 2 && series;
      });
      expect(Date.parse(second.fireAtUtc)).toBe(start + 60_000);
      clock.advance(60_000);
      await untilStatus(second.id, 'Done');
      await delay(300);
      expect(await inSeries()).toHaveLength(2);
    });

    it('starts a calendar series at its next matching Rome wall-clock time', async () => {
      const created = await schedule({ callbackUrl: `${receiver.url}/calendar`, scheduleTimes: ['09:00', '21:30'], scheduleDaysOfWeek: [1, 3] });
      const first = new Date(created.fireAtUtc);
      const local = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Rome', weekday: 'short', hour: '2-digit', minute: '2-digit', hour12: false }).format(first);
      expect(local).toMatch(/^(Mon|Wed) (09:00|21:30)$/);
      expect(first.getTime()).toBeGreaterThan(clock.now().getTime());
      expect(created).toMatchObject({ scheduleTimes: ['09:00', '21:30'], scheduleDaysOfWeek: [1, 3], recurrenceSeconds: null });
      await api('DELETE', `/scheduled-jobs/${created.id}`, write);
    });

    it('lists with paging and the status, from and to filters', async () => {
      const base = clock.now().getTime() + 10 * 86_400_000;
      const ids: string[] = [];
      for (let index = 0; index < 3; index++) ids.push((await schedule({ fireAtUtc: new Date(base + index * 1000).toISOString(), callbackUrl: `${receiver.url}/later` })).id);
      const from = new Date(base).toISOString();
      const to = new Date(base + 2000).toISOString();
      const page = (await api('GET', `/scheduled-jobs?from=${from}&to=${to}&pageSize=2`, read)).body;
      expect(page).toMatchObject({ page: 1, pageSize: 2, hasMore: true });
      expect(page.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(0, 2));
      const second = (await api('GET', `/scheduled-jobs?from=${from}&to=${to}&page=2&pageSize=2`, read)).body;
      expect(second.items.map((item: { id: string }) => item.id)).toEqual([ids[2]]);
      expect(second.hasMore).toBe(false);
      expect((await api('GET', `/scheduled-jobs?from=${to}`, read)).body.items.map((item: { id: string }) => item.id)).toContain(ids[2]);
      await api('DELETE', `/scheduled-jobs/${ids[0]}`, write);
      expect((await api('GET', `/scheduled-jobs?from=${from}&to=${to}&status=Cancelled`, read)).body.items.map((item: { id: string }) => item.id)).toEqual([ids[0]]);
      expect((await api('GET', `/scheduled-jobs?from=${from}&to=${to}&status=Pending`, read)).body.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(1));
      for (const bad of ['status=Sleeping', 'pageSize=101', 'page=0', 'from=soon']) {
        expect((await api('GET', `/scheduled-jobs?${bad}`, read)).status).toBe(400);
      }
      for (const id of ids.slice(1)) await api('DELETE', `/scheduled-jobs/${id}`, write);
    });

    it('loses and duplicates nothing across a restart while jobs are pending', async () => {
      const done = await schedule({ callbackUrl: `${receiver.url}/before-restart` });
      await untilStatus(done.id, 'Done');
      const pending = await schedule({ delaySeconds: 2, callbackUrl: `${receiver.url}/after-restart` });
      service = await service.restart();
      api = client(service.url);
      await untilStatus(pending.id, 'Done');
      await delay(500);
      expect(requestsTo('/after-restart')).toHaveLength(1);
      expect(requestsTo('/before-restart')).toHaveLength(1);
    });

    it('removes jobs that ended more than 30 days ago from the read model and keeps their events', async () => {
      const ended = await schedule({ callbackUrl: `${receiver.url}/old` });
      await untilStatus(ended.id, 'Done');
      const cancelled = await schedule({ delaySeconds: 3600, callbackUrl: `${receiver.url}/old` });
      await api('DELETE', `/scheduled-jobs/${cancelled.id}`, write);
      const pending = await schedule({ delaySeconds: 90 * 86_400, callbackUrl: `${receiver.url}/far` });

      clock.advance(31 * 86_400_000);
      service = await service.restart(); // the cleanup also runs at start
      api = client(service.url);
      await eventually(async () => (await api('GET', `/scheduled-jobs/${ended.id}`, read)).status === 404);
      expect((await api('GET', `/scheduled-jobs/${cancelled.id}`, read)).status).toBe(404);
      expect((await job(pending.id)).status).toBe('Pending');
      const events = await service.service.container.resolve(TOKENS.eventStore).readStream(`job-${service.workspaceId}-${ended.id}`);
      expect(events.map((event) => event.type)).toEqual(['JobScheduled', 'JobFired', 'JobSucceeded']);
    });
  });
}
