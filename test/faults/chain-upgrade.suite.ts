import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventHash } from '../../infra/eventstore/chain';
import { type CheckpointBody, checkpointDigest, checkpointKey, HeadsDigest, signCheckpoint } from '../../infra/eventstore/chain-audit';
import { eventMacKey } from '../../infra/eventstore/event-mac';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import { positionToString, type RecordedEvent } from '../../infra/eventstore/port';
import type { SqlClient } from '../../infra/sql/client';
import { runCli } from '../../src/cli/operator';
import { captureCliOutput } from '../support/cli-output';
import { createTestDatabase } from '../support/postgres';
import type { Engine } from '../support/service';

/** The event tables exactly as the versions before the hash chain created them. */
const UNCHAINED_SCHEMA = [
  'create table es_streams (stream text primary key, revision bigint not null)',
  `create table es_events (
     position bigserial primary key,
     xid xid8 not null default pg_current_xact_id(),
     stream text not null,
     revision bigint not null,
     id uuid not null unique,
     type text not null,
     data jsonb not null,
     metadata jsonb not null,
     recorded_at timestamptz not null default now(),
     unique (stream, revision)
   )`,
  'create index es_events_xid_position on es_events (xid, position)',
];

/** An upgrade on a store that already holds events: they are chained at start, and the chain goes on from them. */
export function describeChainUpgrade(engine: Engine): void {
  describe(`hash chain upgrade of a store written before it (${engine})`, () => {
    let dataDir: string;
    let database: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
    let environment: Record<string, string>;
    let sql: SqlClient;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'cms-upgrade-'));
      database = engine === 'postgres' ? await createTestDatabase() : null;
      environment = { DATA_DIR: dataDir, ENCRYPTION_KEY: randomBytes(32).toString('base64'), ...(database ? { DATABASE_URL: database.url } : {}) };
      sql =
        engine === 'postgres'
          ? await (await import('../../infra/sql/pg-client')).PgSqlClient.open(database!.url)
          : await (await import('../../infra/sql/pglite-client')).PgliteSqlClient.open(join(dataDir, 'pglite'));
    });

    afterAll(async () => {
      await sql.close();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    });

    it('chains the existing events in order at start, records it in a checkpoint, and appends go on from the chain', async () => {
      for (const statement of UNCHAINED_SCHEMA) await sql.query(statement);
      const streams = ['upgrade-a', 'upgrade-b', 'upgrade-ü'];
      for (const [index, stream] of streams.entries()) {
        const count = 3 + index;
        for (let revision = 0; revision < count; revision++) {
          await sql.query(`insert into es_events (stream, revision, id, type, data, metadata) values ($1, $2, $3, 'Old', $4::text::jsonb, $5::text::jsonb)`, [
            stream,
            revision,
            randomUUID().toUpperCase(),
            JSON.stringify({ z: revision, a: { price: 1.5, names: ['x', 'ÿ'] } }),
            JSON.stringify({ workspaceId: null, actor: 'old-version', correlationId: randomUUID(), timestamp: '2025-01-02T03:04:05.000Z' }),
          ]);
        }
        await sql.query('insert into es_streams (stream, revision) values ($1, $2)', [stream, count - 1]);
      }

      // As the service opens it: the upgrade checkpoint signed with the key derived from ENCRYPTION_KEY, and MACs from here on.
      const masterKey = Buffer.from(environment.ENCRYPTION_KEY!, 'base64');
      const store = await PostgresEventStore.create(sql, { checkpointKey: checkpointKey(masterKey), macKey: eventMacKey(masterKey) });
      try {
        for (const stream of streams) expectChained(await store.readStream(stream));
        const checkpoints = await store.audit.checkpoints();
        expect(checkpoints).toHaveLength(1);
        expect(checkpoints[0]!.body).toMatchObject({ kind: 'upgrade', streams: 3, events: 3 + 4 + 5 });

        await store.append('upgrade-a', [{ type: 'New', data: { after: true }, metadata: { workspaceId: null, actor: 'new-version', correlationId: randomUUID(), timestamp: new Date().toISOString() } }], 2);
        const continued = await store.readStream('upgrade-a');
        expect(continued).toHaveLength(4);
        expectChained(continued);
        expect(continued.map((event) => event.mac !== undefined)).toEqual([false, false, false, true]);
        // MACs begin after the last event written before the upgrade, in log order.
        const log = await store.readAll();
        expect(log.at(-1)!.id).toBe(continued[3]!.id);
        expect(store.macMarker?.body).toMatchObject({ kind: 'event-macs', after: positionToString(log.at(-2)!.position), eventsBefore: 12 });
        await expect(sql.query(`delete from es_events where stream = 'upgrade-a'`)).rejects.toThrow('the event log is append-only');
      } finally {
        await store.close();
      }

      // A second start finds nothing left to chain.
      const again = await PostgresEventStore.create(sql);
      expect(await again.audit.checkpoints()).toHaveLength(1);
      await again.close();
    });

    it('is reported by cms verify, which recomputes the chain of the upgraded log', async () => {
      if (engine === 'pglite') await sql.close();
      try {
        const run = captureCliOutput();
        // The read models were never built on this bare log: only the chain's lines matter here.
        await expect(runCli(['verify'], environment, run.output)).rejects.toThrow(/problems? found/);
        expect(run.lines).toContainEqual('chain: the hash of each of the 13 events verifies from its content and the hash before it');
        expect(run.lines).toContainEqual(expect.stringMatching(/^chain: events written before checkpoint #1 \(.*\) were chained when the store was upgraded; they attest the log as it was then$/));
        // Signed before the append: it covers the 12 events its snapshot saw.
        expect(run.lines).toContainEqual(expect.stringMatching(/^checkpoints: 1; the latest, #1 of .*, matches the log \(3 streams, 12 events\)$/));
        expect(run.lines).toContainEqual(expect.stringMatching(/^tail: 1 event lies after the latest checkpoint, unprotected/));
        expect(run.lines).toContainEqual(expect.stringMatching(/^macs: each of the 1 events after position \d+\/\d+ \(MACs began .*\) carries a MAC that verifies; 12 events predate MACs$/));
        expect(run.lines.filter((line) => line.startsWith('problem: ') && !line.startsWith('problem: read model'))).toEqual([]);
      } finally {
        if (engine === 'pglite') sql = await (await import('../../infra/sql/pglite-client')).PgliteSqlClient.open(join(dataDir, 'pglite'));
      }
    });
  });
}

/** A checkpoint as the release before signed it: the heads of every stream, no id, no predecessor, no order. */
async function signAsTheReleaseBefore(sql: SqlClient, key: Buffer): Promise<void> {
  await sql.transaction(async (tx) => {
    await tx.query('set transaction isolation level repeatable read');
    const [{ snapshot }] = (await tx.query<{ snapshot: string }>('select pg_current_snapshot()::text as snapshot')) as [{ snapshot: string }];
    const digest = new HeadsDigest();
    const heads = await tx.query<{ stream: string; revision: string; hash: string }>(
      `select stream, revision::text as revision, encode(hash, 'hex') as hash from es_streams order by stream collate "C"`,
    );
    for (const head of heads) digest.add({ stream: head.stream, revision: Number(head.revision), hash: head.hash });
    const body: CheckpointBody = { kind: 'periodic', at: new Date().toISOString(), snapshot, streams: digest.streams, events: digest.events, digest: digest.digest() };
    await tx.query('insert into es_checkpoints (body, signature) values ($1::text::jsonb, $2)', [JSON.stringify(body), signCheckpoint(body, key)]);
  });
}

/** The store as the release before MACs left it: no MAC column, no marker, its schema mark. */
async function asTheReleaseBeforeMacs(sql: SqlClient): Promise<void> {
  await sql.query('alter table es_events drop column mac');
  await sql.query('drop table es_mac_marker');
  await sql.query(`comment on table es_events is 'cms event log: hash-chained, append-only (schema 3)'`);
}

/** A store whose checkpoints were signed by the release before checkpoints named their predecessors (and before MACs). */
export function describeCheckpointsOfTheReleaseBefore(engine: Engine): void {
  describe(`checkpoints signed by the release before links (${engine})`, () => {
    let dataDir: string;
    let database: Awaited<ReturnType<typeof createTestDatabase>> | null = null;
    let environment: Record<string, string>;

    beforeAll(async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'cms-old-checkpoints-'));
      database = engine === 'postgres' ? await createTestDatabase() : null;
      environment = { DATA_DIR: dataDir, ENCRYPTION_KEY: randomBytes(32).toString('base64'), ...(database ? { DATABASE_URL: database.url } : {}) };
    });

    afterAll(async () => {
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    });

    const open = async () =>
      engine === 'postgres'
        ? (await import('../../infra/sql/pg-client')).PgSqlClient.open(database!.url)
        : (await import('../../infra/sql/pglite-client')).PgliteSqlClient.open(join(dataDir, 'pglite'));

    const verifyLines = async () => {
      const run = captureCliOutput();
      // The read models were never built on this bare log: only the chain's lines matter here.
      await runCli(['verify'], environment, run.output).catch(() => undefined);
      return { lines: run.lines, problems: run.lines.filter((line) => line.startsWith('problem: ') && !line.startsWith('problem: read model')) };
    };

    it('stay verifiable, and the first checkpoint of this release extends the latest of them and names it', async () => {
      const key = checkpointKey(Buffer.from(environment.ENCRYPTION_KEY!, 'base64'));
      let sql = await open();
      try {
        const store = await PostgresEventStore.create(sql);
        for (let round = 0; round < 11; round++) {
          const metadata = { workspaceId: null, actor: 'old-version', correlationId: randomUUID(), timestamp: new Date().toISOString() };
          await store.append(`old-${round % 4}`, [{ type: 'Old', data: { round }, metadata }], 'any');
          await signAsTheReleaseBefore(sql, key);
        }
        await asTheReleaseBeforeMacs(sql);
      } finally {
        await sql.close();
      }
      const before = await verifyLines();
      expect(before.problems).toEqual([]);
      expect(before.lines).toContainEqual(expect.stringMatching(/^checkpoints: 11; the latest, #11 of .*, matches the log \(4 streams, 11 events\)$/));
      expect(before.lines).toContain('macs: none of the events carries a MAC: the store predates them (the next start of the service marks where they begin)');

      sql = await open();
      try {
        const masterKey = Buffer.from(environment.ENCRYPTION_KEY!, 'base64');
        const store = await PostgresEventStore.create(sql, { checkpointKey: key, macKey: eventMacKey(masterKey) });
        expect(store.macMarker?.body).toMatchObject({ kind: 'event-macs', eventsBefore: 11 });
        const latest = (await store.audit.checkpoints()).at(-1)!;
        const metadata = { workspaceId: null, actor: 'new-version', correlationId: randomUUID(), timestamp: new Date().toISOString() };
        await store.append('old-1', [{ type: 'New', data: {}, metadata }], 'any');
        const next = await store.audit.writeCheckpoint('periodic', key);
        expect(next.id).toBe(12);
        expect(next.body).toMatchObject({ id: 12, previous: checkpointDigest(latest.body), order: { added: 1 }, streams: 4, events: 12 });
      } finally {
        await sql.close();
      }
      const after = await verifyLines();
      expect(after.problems).toEqual([]);
      expect(after.lines).toContainEqual(expect.stringMatching(/^checkpoints: 12; the latest, #12 of .*, matches the log \(4 streams, 12 events\)$/));
      expect(after.lines).toContain('checkpoints: those before #12 were signed before each checkpoint named its predecessor: their signatures verify, and #12 extends the one before it');
      expect(after.lines).toContainEqual(expect.stringMatching(/^macs: each of the 1 events after position \d+\/\d+ \(MACs began .*\) carries a MAC that verifies; 11 events predate MACs$/));
    });
  });
}

function expectChained(events: RecordedEvent[]): void {
  let previous: Buffer | null = null;
  for (const recorded of events) {
    expect(recorded.hash).toBe(eventHash(recorded, recorded.revision, previous).toString('hex'));
    previous = Buffer.from(recorded.hash!, 'hex');
  }
}
