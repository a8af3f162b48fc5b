import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import pino from 'pino';
import { loadConfig } from '../../src/config';
import { startService, type RunningService } from '../../src/server';
import { call } from '../support/http';
import { createTestDatabase } from '../support/postgres';
import { ADMIN_TOKEN } from '../support/service';
import { openRoutedReadStore, standby } from '../support/standby';
import { eventually } from '../support/waiting';

const SHARED_KEY = randomBytes(32).toString('base64');
const WRITERS = 6;
const PAIRS = 300;
const READS = 300;
const READERS = 6;

/** Read-model tables, and the typed content tables (rm_ct_*) that content queries read. */
const READ_MODEL_TABLES = 'rm\\_%';
const CONTENT_TABLES = 'rm\\_ct\\_%';

/** Scans of the tables `like` names a server has counted: each query reads at least one. */
async function readModelScans(url: string, like = READ_MODEL_TABLES): Promise<number> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ scans: string }>(`select coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0)::text as scans from pg_stat_user_tables where relname like $1`, [like]);
    return Number(rows[0]!.scans);
  } finally {
    await client.end();
  }
}

/**
 * Two instances on one PostgreSQL database with its streaming standby as their read replica
 * (READ_REPLICA_URLS): content queries run on the standby, writes are read back through the other
 * instance without a stale answer, and the standby stopped and started is left and rejoined.
 */
describe('reads on a streaming replica (PostgreSQL and its standby, scripts/standby.sh)', () => {
  const replica = standby();
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let replicaUrl: string;
  const dataDirs: string[] = [];
  let keys: { readKey: string; writeKey: string };
  let running: RunningService[] = [];

  const startPair = async (environment: Record<string, string> = {}): Promise<RunningService[]> => {
    const start = (dataDir: string) =>
      startService(
        loadConfig({
          PORT: '0',
          LOG_LEVEL: 'silent',
          ADMIN_TOKEN,
          DATABASE_URL: database.url,
          DATA_DIR: dataDir,
          ENCRYPTION_KEY: SHARED_KEY,
          READ_REPLICA_URLS: replicaUrl,
          // Every query reaches a store: the query cache would answer repeated ones from memory.
          QUERY_CACHE: 'false',
          ...environment,
        }),
        pino({ level: 'silent' }),
      );
    const first = await start(dataDirs[0]!);
    running = [first, await start(dataDirs[1]!)];
    if (first.bootstrap) keys = { readKey: first.bootstrap.readKey, writeKey: first.bootstrap.writeKey };
    // Each test may run alone (-t): the content type is put by every start, a no-op after the first.
    const note = await call(first.url, 'PUT', '/content-types', { key: keys.writeKey, body: { name: 'Note', key: 'Note', fields: [{ key: 'title', type: 'Text' }] } });
    expect(note.status).toBe(200);
    return running;
  };
  const closePair = async () => {
    for (const service of running) await service.close();
    running = [];
  };
  const byId = (service: RunningService, id: string) =>
    call(service.url, 'POST', '/v2/preview-contents/Note', { key: keys.readKey, body: { filter: { type: 'condition', fieldKey: 'id', operator: 'e', value: id } } });
  const write = (service: RunningService, id: string | undefined, title: string) =>
    call(service.url, 'PUT', '/v2/preview-contents/Note', { key: keys.writeKey, body: { ...(id ? { id } : {}), fields: { title } } });
  const onReplica = async (sql: string) => {
    const client = new Client({ connectionString: replicaUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  const replicaStatus = async (service: RunningService) => (await call(service.url, 'GET', '/health/ready')).body.details?.readReplicas?.[0];

  beforeAll(async () => {
    database = await createTestDatabase();
    replicaUrl = replica.urlOf(database.url);
    await eventually(() => replica.reachable(replicaUrl), 15_000);
    for (let index = 0; index < 2; index++) dataDirs.push(await mkdtemp(join(tmpdir(), 'cms-replica-')));
  });

  afterAll(async () => {
    await closePair();
    // A failed test may leave the standby stopped or its replay paused; the next suite or run needs it.
    await onReplica('select pg_wal_replay_resume()').catch(() => undefined);
    if (!(await replica.reachable(replicaUrl ?? replica.urlOf(process.env.DATABASE_URL!)))) await replica.start().catch(() => undefined);
    await database?.drop();
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true });
  });

  it('reads each write through the other instance via the replica, none stale', async () => {
    const [a, b] = await startPair();
    await eventually(async () => (await replicaStatus(b!))?.inRotation === true);
    const scansBefore = await readModelScans(replicaUrl);
    const items: string[] = [];
    for (let writer = 0; writer < WRITERS; writer++) items.push((await write(running[writer % 2]!, undefined, 'v0')).body.id);

    const stale: string[] = [];
    let pairs = 0;
    const runWriter = async (writer: number) => {
      for (let next = 1; pairs < PAIRS; next++) {
        const [via, readVia] = (writer + next) % 2 === 0 ? [a!, b!] : [b!, a!];
        const saved = await write(via, items[writer], `v${next}`);
        expect(saved.status).toBe(200);
        const read = await byId(readVia, items[writer]!);
        if (read.status !== 200 || read.body.items[0]?.fields?.title !== `v${next}`) stale.push(`wrote v${next}, read ${read.status} ${JSON.stringify(read.body.items?.[0]?.fields?.title)}`);
        pairs += 1;
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, writer) => runWriter(writer)));
    // Closed connections report their counts at once (an idle one may hold them for seconds).
    await closePair();
    const replicaScans = (await readModelScans(replicaUrl)) - scansBefore;

    expect(stale).toEqual([]);
    expect(pairs).toBeGreaterThanOrEqual(PAIRS);
    expect(replicaScans).toBeGreaterThanOrEqual(PAIRS);
    console.log(`replica reads: ${pairs} write-then-read pairs on the other instance, ${stale.length} stale; ${replicaScans} scans of read-model tables on the replica`);
    // Measured 20-40 s on 2 cores under other suites' load.
  }, 120_000);

  it('leaves the primary out of a read load: it scans no content table while the replica counts every query', async () => {
    const pair = await startPair();
    const scans = () => Promise.all([readModelScans(database.url, CONTENT_TABLES), readModelScans(replicaUrl, CONTENT_TABLES), readModelScans(database.url)]);
    const before = await scans();
    // A few clients at a time: a workspace's reads beyond its queue are refused (READ_QUEUE_PER_WORKSPACE).
    const answers: { status: number }[] = [];
    await Promise.all(
      Array.from({ length: READERS }, async (_, reader) => {
        for (let index = reader; index < READS; index += READERS) {
          answers.push(await call(pair[index % 2]!.url, 'POST', '/v2/preview-contents/Note', { key: keys.readKey, body: { filter: { type: 'condition', fieldKey: 'title', operator: 'e', value: `v${index}` } } }));
        }
      }),
    );
    await closePair();
    const [primaryScans, replicaScans, primaryReadModelScans] = (await scans()).map((after, index) => after - before[index]!);

    expect(answers.map((answer) => answer.status).filter((status) => status !== 200)).toEqual([]);
    expect(replicaScans).toBeGreaterThanOrEqual(READS);
    expect(primaryScans).toBe(0);
    // What the primary still reads are documents by id (a type's table once a second per instance, keys and types before the cache holds them), not queries.
    console.log(
      `replica reads: ${READS} content queries -> ${replicaScans} content-table scans on the replica, ${primaryScans} on the primary (${primaryReadModelScans} scans of all read-model tables on the primary)`,
    );
  }, 60_000);

  it('sends the reads to the primary while the standby is stopped, with no 5xx, and back to the standby once it is started', async () => {
    const [a, b] = await startPair();
    const item = (await write(a!, undefined, 'before')).body.id as string;
    let reading = true;
    const statuses: number[] = [];
    const readLoad = (async () => {
      for (let index = 0; reading; index++) statuses.push((await byId(running[index % 2]!, item).catch(() => ({ status: 0 }))).status);
    })();
    try {
      await replica.stop();
      await eventually(async () => (await replicaStatus(a!))?.inRotation === false && (await replicaStatus(b!))?.inRotation === false, 10_000);
      const down = await call(b!.url, 'GET', '/health/ready');
      expect(down.body).toMatchObject({ status: 'degraded', checks: { readReplicas: 'degraded' }, details: { readReplicas: [{ inRotation: false, lagSeconds: null }] } });
      expect((await call(a!.url, 'GET', '/metrics')).body).toMatch(/read_replica_in_rotation\{replica="127\.0\.0\.1:\d+"\} 0/);
      // Writes are answered without the replica, and read back on the primary.
      expect((await write(a!, item, 'while down')).status).toBe(200);
      expect((await byId(b!, item)).body.items[0].fields.title).toBe('while down');
    } finally {
      await replica.start();
    }
    await eventually(async () => (await replicaStatus(a!))?.inRotation === true && (await replicaStatus(b!))?.inRotation === true, 20_000);
    const replicaBefore = await readModelScans(replicaUrl);
    expect((await call(a!.url, 'GET', '/metrics')).body).toMatch(/read_replica_lag_seconds\{replica="127\.0\.0\.1:\d+"\} \d/);
    expect((await write(b!, item, 'after')).status).toBe(200);
    expect((await byId(a!, item)).body.items[0].fields.title).toBe('after');
    reading = false;
    await readLoad;
    // Closed connections report their counts at once.
    await closePair();

    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    // Back in rotation: the queries of the instances started after go to the standby again.
    expect(await readModelScans(replicaUrl)).toBeGreaterThan(replicaBefore);
    console.log(`replica reads: ${statuses.length} reads across the standby's stop and start, all 200`);
  }, 60_000);

  it('leaves a replica whose replay stopped out of rotation once a write waited out its bound, nothing stale, and takes it back once it has replayed', async () => {
    const [a, b] = await startPair({ READ_REPLICA_MAX_LAG_MS: '1000' });
    await eventually(async () => (await replicaStatus(a!))?.inRotation === true && (await replicaStatus(b!))?.inRotation === true);
    const item = (await write(a!, undefined, 'before')).body.id as string;
    await onReplica('select pg_wal_replay_pause()');
    try {
      const started = Date.now();
      expect((await write(a!, item, 'paused')).status).toBe(200);
      const waitedMs = Date.now() - started;
      expect((await byId(b!, item)).body.items[0].fields.title).toBe('paused');
      expect((await byId(a!, item)).body.items[0].fields.title).toBe('paused');
      expect(await replicaStatus(a!)).toMatchObject({ inRotation: false });
      expect((await replicaStatus(b!)).lagSeconds).toBeGreaterThan(0);
      console.log(`replica reads: a write waited ${waitedMs} ms for a replica whose replay was paused (READ_REPLICA_MAX_LAG_MS=1000) before leaving it out`);
    } finally {
      await onReplica('select pg_wal_replay_resume()');
    }
    await eventually(async () => (await replicaStatus(a!))?.inRotation === true && (await replicaStatus(b!))?.inRotation === true, 10_000);
    expect((await write(b!, item, 'resumed')).status).toBe(200);
    expect((await byId(a!, item)).body.items[0].fields.title).toBe('resumed');
    await closePair();
  }, 60_000);
});

// In this file: the tests below stop the standby and pause its replay.
describe('ReplicaRoutedReadStore', () => {
  it('runs the queries after a write on the replica, which answers with the write', async () => {
    const { store, replicaUrl, disconnect, close } = await openRoutedReadStore();
    const reader = new Client({ connectionString: replicaUrl });
    try {
      await store.ensureCollection('notes', [{ fields: ['workspaceId'] }]);
      await store.apply([{ kind: 'upsert', collection: 'notes', document: { id: 'ws:1', workspaceId: 'ws', title: 'one' } }]);
      const inWorkspace = { type: 'condition', field: 'workspaceId', operator: 'e', value: 'ws' } as const;
      expect((await store.find('notes', { filter: inWorkspace })).items).toEqual([{ id: 'ws:1', workspaceId: 'ws', title: 'one' }]);
      await store.apply([{ kind: 'upsert', collection: 'notes', document: { id: 'ws:2', workspaceId: 'ws', title: 'two' } }]);
      expect(await store.count('notes', { filter: inWorkspace })).toBe(2);
      // The replica's connections closed report their counts.
      await disconnect();
      await reader.connect();
      const { rows } = await reader.query<{ scans: string }>(`select (coalesce(seq_scan, 0) + coalesce(idx_scan, 0))::text as scans from pg_stat_user_tables where relname = 'rm_notes'`);
      expect(Number(rows[0]?.scans ?? 0)).toBeGreaterThanOrEqual(2);
    } finally {
      await reader.end().catch(() => undefined);
      await close();
    }
  });
});
