import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { type BuiltService, startBuiltService } from '../support/built-service';
import { type Answer, call } from '../support/http';
import { createTestDatabase } from '../support/postgres';
import { type Receiver, startHttpReceiver } from '../support/receivers';
import { ADMIN_TOKEN } from '../support/service';
import { delay, eventually } from '../support/waiting';
import { articleType, type ItemLedger, runContentWriter, type WriterLedger } from './crash/content-writers';
import { finishUpload, isComplete, runUploader, type UploaderLedger } from './crash/uploaders';

/** Items checked at once after the restart (each reads its history, a costly read). */
const CHECKS_AT_ONCE = 8;

const CONTENT_CLIENTS = 16;
const UPLOAD_CLIENTS = 4;
const LOAD_BEFORE_KILL_MS = 3500;
const JOBS = 24;
/** Claims of a webhook attempt or a job occurrence whose process died are taken over after 60 s. */
const SETTLE_TIMEOUT_MS = 90_000;
const SENT = 2;

describe('kill -9 under load, then a restart on the same store (built service, postgres)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let dataDir: string;
  let receiver: Receiver;
  let service: BuiltService | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'cms-crash-'));
    receiver = await startHttpReceiver();
  });

  afterAll(async () => {
    if (service && service.process.exitCode === null && service.process.signalCode === null) {
      service.process.kill('SIGTERM');
      await service.exited;
    }
    await receiver?.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write, duplicates nothing, catches up and sends what was pending', async () => {
    const environment = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_RETRY_UNIT_MS: '200',
      SCHEDULER_BACKOFF_UNIT_MS: '200',
    };
    service = await startBuiltService(environment, { firstStart: true });
    const { readKey, writeKey } = service.firstStart!;
    const api = (method: string, path: string, key: string, body?: unknown) => call(service!.url, method, path, { key, body });

    expect((await api('PUT', '/content-types', writeKey, articleType)).status).toBe(200);
    const webhook = await api('PUT', '/webhooks', writeKey, { endpoint: `${receiver.url}/hook`, eventTypes: { Article: [3] } });
    expect(webhook.status).toBe(200);
    const jobs: string[] = [];
    for (let index = 0; index < JOBS; index++) {
      // Due before the kill, while the service is down, and after the restart.
      const job = await api('POST', '/scheduled-jobs', writeKey, { delaySeconds: 1 + (index % 8), callbackUrl: `${receiver.url}/job`, idempotencyKey: `crash-job-${index}` });
      expect(job.status).toBe(200);
      jobs.push(job.body.id);
    }

    const writers: WriterLedger = { items: [], pendingCreates: 0, refused: [] };
    const uploaders: UploaderLedger = { uploads: [], refused: [] };
    const clients = [
      ...Array.from({ length: CONTENT_CLIENTS }, (_, client) => runContentWriter(service!.url, writeKey, client, writers)),
      ...Array.from({ length: UPLOAD_CLIENTS }, () => runUploader(service!.url, writeKey, uploaders)),
    ];
    await delay(LOAD_BEFORE_KILL_MS);
    service.process.kill('SIGKILL');
    expect((await service.exited).signal).toBe('SIGKILL');
    await Promise.all(clients);
    const receivedBeforeRestart = receiver.requests.length;

    service = await startBuiltService(environment);
    const restartedAt = Date.now() - service.readyAfterMs;
    const atHeadAfterMs = (await eventually(async () => {
      const status = await call(service!.url, 'GET', '/admin/projections', { bearer: ADMIN_TOKEN });
      return status.body.running && status.body.projections.every((projection: { atHead: boolean }) => projection.atHead) && Date.now();
    }, 30_000)) - restartedAt;

    // Content: every acknowledged write is there with its content, and nothing twice.
    expect(writers.refused).toEqual([]);
    // A few at a time, as a client within its workspace's share of costly reads (READS_PER_WORKSPACE and its queue) asks.
    const itemProblems: string[] = [];
    for (let start = 0; start < writers.items.length; start += CHECKS_AT_ONCE) {
      itemProblems.push(...(await Promise.all(writers.items.slice(start, start + CHECKS_AT_ONCE).map((item) => checkItem(api, readKey, item)))).flat());
    }
    expect(itemProblems).toEqual([]);
    const listed = await api('POST', '/v2/preview-contents/Article/ids', readKey, { pageSize: 5000 });
    expect(new Set(listed.body.ids).size).toBe(listed.body.ids.length);
    expect(listed.body.ids).toEqual(expect.arrayContaining(writers.items.map((item) => item.id)));
    expect(listed.body.total).toBeGreaterThanOrEqual(writers.items.length);
    expect(listed.body.total).toBeLessThanOrEqual(writers.items.length + writers.pendingCreates);

    // Uploads: whole files are there byte for byte; the ones cut short are finished after the restart.
    expect(uploaders.refused).toEqual([]);
    const completeBeforeKill = uploaders.uploads.filter(isComplete).length;
    for (const upload of uploaders.uploads.filter((candidate) => !isComplete(candidate))) {
      expect(await finishUpload(service.url, writeKey, upload)).toBe(200);
    }
    for (const upload of uploaders.uploads) {
      const asset = await api('GET', `/assets/${upload.assetId}`, readKey);
      expect(asset.body.fileInfo).toMatchObject({ hash: upload.md5, fileSize: upload.size });
      const shared = await api('POST', `/assets/${upload.assetId}/shared-access-keys`, writeKey, {});
      const bytes = Buffer.from(await (await fetch(shared.body.url.replace(/^https?:\/\/[^/]+/, service.url))).arrayBuffer());
      expect(createHash('md5').update(bytes).digest('hex')).toBe(upload.md5);
    }

    // Webhooks and jobs: everything pending at the kill goes out; each delivery is recorded Sent once.
    const published = writers.items.filter((item) => item.published !== null);
    const settledAt = await eventually(async () => {
      const log = await deliveryLog(api, readKey, webhook.body.id);
      const sentFor = new Set(log.filter((entry) => entry.processStatus === SENT).map((entry) => entry.contentId));
      const jobStatuses = await Promise.all(jobs.map(async (id) => (await api('GET', `/scheduled-jobs/${id}`, readKey)).body.status));
      return published.every((item) => sentFor.has(item.id)) && jobStatuses.every((status) => status === 'Done') && Date.now();
    }, SETTLE_TIMEOUT_MS);
    const log = await deliveryLog(api, readKey, webhook.body.id);
    const entriesPerItem = countBy(log.map((entry) => entry.contentId));
    expect([...entriesPerItem.values()].filter((count) => count > 1)).toEqual([]);
    const details = await Promise.all(log.map(async (entry) => (await api('GET', `/webhooks/${webhook.body.id}/events/${entry.id}`, readKey)).body));
    expect(details.filter((entry) => entry.attempts.filter((attempt: { statusCode: number }) => attempt.statusCode === 200).length > 1)).toEqual([]);
    const hooks = receiver.requests.filter((request) => request.path === '/hook');
    const hookIds = countBy(hooks.map((request) => String(request.headers['svc-delivery-id'])));
    expect(log.filter((entry) => entry.processStatus === SENT && !hookIds.has(entry.id)).map((entry) => entry.id)).toEqual([]);
    const jobKeys = countBy(receiver.requests.filter((request) => request.path === '/job').map((request) => String(request.headers['svc-idempotency-key'])));
    expect(jobKeys.size).toBe(JOBS);

    const saves = writers.items.reduce((sum, item) => sum + item.saves.length, 0);
    const pending = writers.items.filter((item) => item.pending !== null).length + writers.pendingCreates;
    console.log(
      [
        'FAULTS kill -9:',
        `acknowledged ${writers.items.length} items (${saves} draft saves, ${published.length} publishes), all found with their content; ${pending} writes in flight at the kill;`,
        `uploads ${uploaders.uploads.length} (${completeBeforeKill} complete before the kill, all complete and intact after);`,
        `restart to ready ${service.readyAfterMs} ms, to projections at head ${atHeadAfterMs} ms; deliveries and jobs settled ${settledAt - restartedAt} ms after the restart;`,
        `receiver: ${receivedBeforeRestart} requests before the restart, webhook ${hooks.length} requests for ${hookIds.size} delivery ids (${duplicates(hookIds)} seen twice or more),`,
        `jobs ${[...jobKeys.values()].reduce((sum, count) => sum + count, 0)} callbacks for ${jobKeys.size} keys (${duplicates(jobKeys)} seen twice or more)`,
      ].join(' '),
    );
  }, 170_000);
});

type Api = (method: string, path: string, key: string, body?: unknown) => Promise<Answer<any>>;

/** What is wrong with an acknowledged item after the restart; nothing when it is as acknowledged. */
async function checkItem(api: Api, readKey: string, item: ItemLedger): Promise<string[]> {
  const problems: string[] = [];
  const lastSaved = item.saves[item.saves.length - 1];
  const draft = await api('GET', `/v2/preview-contents/Article/${item.id}`, readKey);
  const allowed = [lastSaved, ...(item.pending?.kind === 'save' ? [item.pending.fields] : [])];
  if (draft.status !== 200 || !allowed.some((fields) => isDeepStrictEqual(draft.body.fields, fields))) problems.push(`${item.id}: draft ${draft.status} ${JSON.stringify(draft.body)}`);
  const live = await api('GET', `/v2/contents/Article/${item.id}`, readKey);
  if (item.published && (live.status !== 200 || !isDeepStrictEqual(live.body.fields, item.published))) problems.push(`${item.id}: published ${live.status}`);
  if (!item.published && item.pending?.kind !== 'publish' && live.status !== 404) problems.push(`${item.id}: published without an acknowledged publish`);

  const history = (await api('GET', `/v2/contents/Article/${item.id}/history`, readKey)).body as { version: number; type: string }[];
  if (history.some((entry, index) => entry.version !== index + 1)) problems.push(`${item.id}: versions not contiguous ${history.map((entry) => entry.version)}`);
  const savedEvents = history.filter((entry) => entry.type === 'ContentDraftSaved').length;
  const publishedEvents = history.filter((entry) => entry.type === 'ContentPublished').length;
  const maybeSave = item.pending?.kind === 'save' ? 1 : 0;
  const maybePublish = item.pending?.kind === 'publish' ? 1 : 0;
  if (savedEvents < item.saves.length || savedEvents > item.saves.length + maybeSave) problems.push(`${item.id}: ${savedEvents} saves for ${item.saves.length} acknowledged`);
  const publishes = item.published ? 1 : 0;
  if (publishedEvents < publishes || publishedEvents > publishes + maybePublish) problems.push(`${item.id}: ${publishedEvents} publishes for ${publishes} acknowledged`);
  return problems;
}

async function deliveryLog(api: Api, readKey: string, webhookId: string): Promise<any[]> {
  const entries: any[] = [];
  for (let page = 1; ; page++) {
    const answer = await api('GET', `/webhooks/${webhookId}/events?page=${page}&pageSize=100`, readKey);
    entries.push(...answer.body.items);
    if (entries.length >= answer.body.total || answer.body.items.length === 0) return entries;
  }
}

function countBy(values: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return counts;
}

const duplicates = (counts: Map<string, number>) => [...counts.values()].filter((count) => count > 1).length;
