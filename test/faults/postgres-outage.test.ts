import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { type RunningService, startService } from '../../src/server';
import { call } from '../support/http';
import { driveLoad, percentile, type Sample } from '../support/load';
import { postgresServerBinaries, type PrivateCluster, startPrivateCluster } from '../support/private-postgres';
import { type Receiver, startHttpReceiver } from '../support/receivers';
import { ADMIN_TOKEN } from '../support/service';
import { delay, eventually } from '../support/waiting';

const noteType = { name: 'Note', key: 'Note', fields: [{ key: 'text', type: 'Text', required: true }] };
const CLIENTS = 4;
/** A failing request must answer well within this; a hang or a long connect timeout would not. */
const FAIL_FAST_MS = 2000;
/**
 * Longer than the read-your-writes wait (5 s): a write appended just before the stop waits that
 * long for read models that cannot be written (and is answered 503, saved), so a client caught in
 * one sends its next request only then, and every client must still be seen failing fast during the outage.
 */
const OUTAGE_MS = 7000;

const binaries = postgresServerBinaries();
if (!binaries) console.log('NOT RUN: PostgreSQL stop/restart fault test (no initdb under /usr/lib/postgresql)');

(binaries ? describe : describe.skip)('PostgreSQL stopped and started again under load', () => {
  let cluster: PrivateCluster;
  let dataDir: string;
  let receiver: Receiver;
  let service: RunningService;
  let writeKey: string;
  let readKey: string;

  const api = (method: string, path: string, key: string, body?: unknown) => call(service.url, method, path, { key, body });

  beforeAll(async () => {
    cluster = await startPrivateCluster(binaries!);
    dataDir = await mkdtemp(join(tmpdir(), 'cms-outage-'));
    receiver = await startHttpReceiver();
    const config = loadConfig({
      PORT: '0',
      ADMIN_TOKEN,
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      DATABASE_URL: cluster.url,
      RATE_LIMIT_PER_SECOND: '0',
      ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_ALLOW_HTTP: 'true',
    });
    service = await startService(config, pino({ level: 'silent' }));
    ({ writeKey, readKey } = service.bootstrap!);
  }, 60_000);

  afterAll(async () => {
    await service?.close();
    await cluster?.destroy();
    await receiver?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 503 problem+json fast while the database is down, and recovers without a restart', async () => {
    expect((await api('PUT', '/content-types', writeKey, noteType)).status).toBe(200);
    expect((await api('PUT', '/webhooks', writeKey, { endpoint: `${receiver.url}/notes`, eventTypes: { Note: [3] } })).status).toBe(200);
    const before = await api('PUT', '/v2/contents/Note', writeKey, { fields: { text: 'written before the outage' } });
    expect(before.status).toBe(200);

    const load = driveLoad(service.url, CLIENTS, (client, sequence) =>
      sequence % 2 === 0
        ? { kind: 'write', method: 'PUT', path: '/v2/contents/Note', key: writeKey, body: { fields: { text: `client ${client} note ${sequence}` } } }
        : { kind: 'read', method: 'POST', path: '/v2/contents/Note', key: readKey, body: { pageSize: 5 } },
    );
    await delay(1000);

    // Due while the database is down: fired once it is back.
    const job = await api('POST', '/scheduled-jobs', writeKey, { delaySeconds: 1, callbackUrl: `${receiver.url}/job`, idempotencyKey: 'during-outage' });
    expect(job.status).toBe(200);
    await cluster.stop();
    const stoppedAt = Date.now();
    await delay(OUTAGE_MS / 2);
    const probedAt = Date.now();
    const ready = await call(service.url, 'GET', '/health/ready');
    const probeMs = Date.now() - probedAt;
    const live = await call(service.url, 'GET', '/health/live');
    await delay(OUTAGE_MS / 2);

    await cluster.start();
    const startedAt = Date.now();
    const firstWrite = await eventually(async () => {
      const answer = await api('PUT', '/v2/contents/Note', writeKey, { fields: { text: 'written after the outage' } });
      return answer.status === 200 && { id: answer.body.id as string, at: Date.now() };
    }, 20_000);
    const readyAt = await eventually(async () => (await call(service.url, 'GET', '/health/ready')).status === 200 && Date.now(), 20_000);
    await delay(500);
    await load.stop();

    expect(ready.status).toBe(503);
    expect(ready.body.checks).toMatchObject({ eventStore: 'down', readStore: 'down' });
    expect(probeMs).toBeLessThan(FAIL_FAST_MS);
    expect(live.status).toBe(200);

    const samples = load.samples;
    const during = samples.filter((sample) => sample.startedAt >= stoppedAt && sample.endedAt <= startedAt);
    const failed = samples.filter((sample) => sample.status >= 500 || sample.status === 0);
    const unavailable = samples.filter((sample) => sample.status === 503);
    // Never a 500 or a hang: every failure is a 503 problem+json with Retry-After.
    expect(failed.filter((sample) => sample.status !== 503).map(describeSample)).toEqual([]);
    for (const sample of unavailable) {
      expect(sample.contentType).toContain('application/problem+json');
      expect(Number(sample.retryAfter)).toBeGreaterThan(0);
    }
    expect(during.length).toBeGreaterThan(CLIENTS);
    // No write can succeed without the database; reads may come from the cache.
    expect(during.filter((sample) => sample.kind === 'write' && sample.status !== 503).map(describeSample)).toEqual([]);
    // A write appended just before the stop is saved, but its read models cannot be written: it is
    // answered after the read-your-writes wait, 503 and not a 200 the next read would contradict.
    const savedUnread = unavailable.filter((sample) => sample.kind === 'write' && sample.body.includes('the change was saved'));
    for (const sample of savedUnread) expect(sample.startedAt).toBeLessThan(stoppedAt + FAIL_FAST_MS);
    const failingLatencies = unavailable.filter((sample) => !savedUnread.includes(sample)).map((sample) => sample.endedAt - sample.startedAt);
    expect(Math.max(...failingLatencies)).toBeLessThan(FAIL_FAST_MS);
    // Once the service is ready again, every request succeeds.
    const afterReady = samples.filter((sample) => sample.startedAt >= readyAt);
    expect(afterReady.filter((sample) => sample.status !== 200).map(describeSample)).toEqual([]);

    // The write from before is there, the first write after is readable at once, and everything caught up.
    expect((await api('GET', `/v2/contents/Note/${before.body.id}`, readKey)).body.fields).toEqual({ text: 'written before the outage' });
    expect((await api('GET', `/v2/contents/Note/${firstWrite.id}`, readKey)).body.fields).toEqual({ text: 'written after the outage' });
    const atHeadAt = await eventually(async () => {
      const status = await call(service.url, 'GET', '/admin/projections', { bearer: ADMIN_TOKEN });
      return status.body.running && status.body.projections.every((projection: { atHead: boolean }) => projection.atHead) && Date.now();
    }, 20_000);
    // The process managers resumed too: the scheduled job fired, and the write after the outage was delivered.
    await eventually(() => receiver.requests.some((request) => request.path === '/job'), 20_000);
    await eventually(() => receiver.requests.some((request) => request.path === '/notes' && JSON.parse(request.body).contentId === firstWrite.id), 20_000);

    console.log(
      [
        'FAULTS postgres-outage:',
        `requests ${samples.length} (${during.length} while down: ${during.filter((sample) => sample.status === 503).length} x 503, ${during.filter((sample) => sample.status === 200).length} x 200 from cache);`,
        `503 latency p50 ${percentile(failingLatencies, 50)} ms, p99 ${percentile(failingLatencies, 99)} ms, max ${Math.max(...failingLatencies)} ms;`,
        `after the start: first write ${firstWrite.at - startedAt} ms, ready ${readyAt - startedAt} ms, projections at head ${atHeadAt - startedAt} ms`,
      ].join(' '),
    );
  }, 90_000);
});

function describeSample(sample: Sample): string {
  return `${sample.kind} ${sample.status} after ${sample.endedAt - sample.startedAt} ms: ${sample.body.slice(0, 200)}`;
}
