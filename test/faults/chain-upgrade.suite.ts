import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventHash } from '../../infra/eventstore/chain';
import { checkpointKey } from '../../infra/eventstore/chain-audit';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import type { RecordedEvent } from '../../infra/eventstore/port';
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

      // As the service opens it: the upgrade checkpoint signed with the key derived from ENCRYPTION_KEY.
      const store = await PostgresEventStore.create(sql, { checkpointKey: checkpointKey(Buffer.from(environment.ENCRYPTION_KEY!, 'base64')) });
      try {
        for (const stream of streams) expectChained(await store.readStream(stream));
        const checkpoints = await store.audit.checkpoints();
        expect(checkpoints).toHaveLength(1);
        expect(checkpoints[0]!.body).toMatchObject({ kind: 'upgrade', streams: 3, events: 3 + 4 + 5 });

        await store.append('upgrade-a', [{ type: 'New', data: { after: true }, metadata: { workspaceId: null, actor: 'new-version', correlationId: randomUUID(), timestamp: new Date().toISOString() } }], 2);
        const continued = await store.readStream('upgrade-a');
        expect(continued).toHaveLength(4);
        expectChained(continued);
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
        expect(run.lines.filter((line) => line.startsWith('problem: ') && !line.startsWith('problem: read model'))).toEqual([]);
      } finally {
        if (engine === 'pglite') sql = await (await import('../../infra/sql/pglite-client')).PgliteSqlClient.open(join(dataDir, 'pglite'));
      }
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
