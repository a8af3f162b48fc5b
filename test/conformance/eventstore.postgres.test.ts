import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import {
  WrongExpectedRevisionError,
  comparePositions,
  type AppendResult,
  type NewEvent,
  type RecordedEvent,
} from '../../infra/eventstore/port';
import type { SqlClient, SqlQueryable } from '../../infra/sql/client';
import { PgSqlClient } from '../../infra/sql/pg-client';
import { createTestDatabase } from '../support/postgres';
import { incompressibleData } from '../support/incompressible';
import { describeEventStoreConformance } from './eventstore.suite';

describeEventStoreConformance('PostgreSQL adapter on a PostgreSQL server', async () => {
  const database = await createTestDatabase();
  const sql = await PgSqlClient.open(database.url);
  const store = await PostgresEventStore.create(sql);
  return {
    store,
    close: async () => {
      await store.close();
      await sql.close();
      await database.drop();
    },
  };
});

describe('PostgresEventStore on a PostgreSQL server', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: PgSqlClient;
  let store: PostgresEventStore;

  beforeAll(async () => {
    database = await createTestDatabase();
    sql = await PgSqlClient.open(database.url);
    store = await PostgresEventStore.create(sql, { pollIntervalMs: 50, batchSize: 2 });
  });

  afterAll(async () => {
    await store.close();
    await sql.close();
    await database.drop();
  });

  it('creates its schema idempotently', async () => {
    const again = await PostgresEventStore.create(sql);
    await again.append(`schema-${randomUUID()}`, [event('Created')], 'no_stream');
    await again.close();
  });

  it('reads large events without their data in the row, then the data of a whole read in pieces of 64 KB by one statement; small events in the row', async () => {
    const statements: string[] = [];
    const reader = await PostgresEventStore.create(countingClient(sql, (text) => statements.push(text)));
    const stream = `large-${randomUUID()}`;
    const [first, second] = [incompressibleData(), incompressibleData()];
    const smallEvent = event('Small');
    await store.append(stream, [smallEvent, { ...event('Large'), data: first }, { ...event('Large'), data: second }], 'no_stream');
    statements.length = 0;
    const read = await reader.readStream(stream);
    expect(read.map((recorded) => recorded.data)).toEqual([smallEvent.data, first, second]);
    expect(statements.filter((text) => text.includes("convert_to(e.data::text, 'UTF8')"))).toHaveLength(1);
    const stored = await sql.query<{ bytes: number }>('select pg_column_size(data) as bytes from es_events where id = any($1::uuid[])', [read.slice(1).map((recorded) => recorded.id)]);
    expect(stored.map((row) => row.bytes).every((bytes) => bytes > 65_536)).toBe(true);
    await reader.close();
  });

  it('lets exactly one of many concurrent appends with the same expectation win and reports the winner to the others', async () => {
    const stream = `crowd-${randomUUID()}`;
    const crowd = (expected: 'no_stream' | 'stream_exists' | number, events: NewEvent[]) =>
      Promise.allSettled(Array.from({ length: 10 }, () => store.append(stream, events, expected)));
    const losers = (results: PromiseSettledResult<AppendResult>[]) => results.filter((r) => r.status === 'rejected').map((r) => r.reason);

    const created = await crowd('no_stream', [event('Created')]);
    expect(losers(created)).toHaveLength(9);
    for (const error of losers(created)) expect(error).toMatchObject(new WrongExpectedRevisionError(stream, 'no_stream', 0));

    const continued = await crowd(0, [event('Next'), event('Next')]);
    expect(losers(continued)).toHaveLength(9);
    for (const error of losers(continued)) expect(error).toMatchObject(new WrongExpectedRevisionError(stream, 0, 2));

    const appended = await crowd('stream_exists', [event('More')]);
    expect(losers(appended)).toEqual([]);
    const written = await store.readStream(stream);
    expect(written.map((e) => e.revision)).toEqual(Array.from({ length: 13 }, (_, i) => i));
  });

  it('writes appends that arrive together in one statement, and fails only the one whose event id is taken', async () => {
    const statements: string[] = [];
    const counting = countingClient(sql, (text) => statements.push(text));
    const grouped = await PostgresEventStore.create(counting, { maxInFlight: 1 });
    const taken = randomUUID();
    await grouped.append(`taken-${randomUUID()}`, [{ ...event('First'), id: taken }], 'no_stream');
    statements.length = 0;

    const streams = Array.from({ length: 20 }, () => `grouped-${randomUUID()}`);
    const results = await Promise.allSettled(
      streams.map((stream, index) => grouped.append(stream, [index === 10 ? { ...event('Duplicate'), id: taken } : event('Grouped')], 'no_stream')),
    );

    // The first append went alone; the other 19 waited for it and went together. The duplicate
    // failed that statement, so each of the 19 was then retried alone.
    expect(statements.length).toBe(1 + 1 + 19);
    expect(results.filter((result) => result.status === 'rejected')).toHaveLength(1);
    expect(results[10]!.status).toBe('rejected');
    expect(await grouped.readStream(streams[10]!)).toEqual([]);
    for (const stream of streams.filter((_, index) => index !== 10)) expect(await grouped.readStream(stream)).toHaveLength(1);
    await grouped.close();
  });

  it('writes many concurrent appends in few statements', async () => {
    let statements = 0;
    const counting = countingClient(sql, () => statements++);
    const grouped = await PostgresEventStore.create(counting, { maxInFlight: 1 });
    statements = 0;
    const results = await Promise.all(Array.from({ length: 100 }, () => grouped.append(`many-${randomUUID()}`, [event('Many')], 'no_stream')));
    expect(results.every((result) => result.revision === 0)).toBe(true);
    expect(statements).toBe(2);
    await grouped.close();
  });

  it('reports caught up after a last batch that was full', async () => {
    const stream = `batches-${randomUUID()}`;
    const caughtUp: number[] = [];
    let delivered = 0;
    const subscription = store.subscribeToAll({
      after: await store.headPosition(),
      onEvent: async (e) => {
        if (e.stream === stream) delivered++;
      },
      onCaughtUp: () => void caughtUp.push(delivered),
    });
    await eventually(() => caughtUp.length === 1);
    await store.append(stream, [event('One'), event('Two'), event('Three'), event('Four')], 'no_stream');
    await eventually(() => caughtUp.includes(4));
    await subscription.stop();
  });

  it('holds back a commit until the earlier transaction commits, then delivers both in transaction order', async () => {
    const gated = withCommitGate(sql);
    const slowWriter = await PostgresEventStore.create(gated.sql);
    const streamA = `early-${randomUUID()}`;
    const streamB = `late-${randomUUID()}`;
    const from = await store.headPosition();
    const received: RecordedEvent[] = [];
    const subscription = store.subscribeToAll({
      after: from,
      onEvent: async (e) => {
        if (e.stream === streamA || e.stream === streamB) received.push(e);
      },
    });

    // A takes its transaction id and sequence number first but commits last.
    const held = gated.holdNextCommit();
    const appendA = slowWriter.append(streamA, [event('A')], 'no_stream');
    let b: AppendResult;
    try {
      await held.reached;
      b = await store.append(streamB, [event('B')], 'no_stream');
      expect(await store.readStream(streamB)).toHaveLength(1);

      await delay(500);
      expect(received).toEqual([]);
      expect((await store.readAll({ after: from })).map((e) => e.stream)).not.toContain(streamB);
      expect(comparePositions(await store.headPosition(), b.position)).toBe(-1);
    } finally {
      held.release();
    }
    const a = await appendA;
    await eventually(() => received.length === 2);
    await subscription.stop();

    expect(received.map((e) => e.stream)).toEqual([streamA, streamB]);
    expect(a.position.prepare < b.position.prepare).toBe(true);
    expect(comparePositions(a.position, b.position)).toBe(-1);
  });

  it('keeps delivering after its database connections are terminated', async () => {
    const stream = `survivor-${randomUUID()}`;
    const received: string[] = [];
    const subscription = store.subscribeToAll({
      after: await store.headPosition(),
      onEvent: async (e) => {
        if (e.stream === stream) received.push(e.type);
      },
    });
    await store.append(stream, [event('Before')], 'no_stream');
    await eventually(() => received.length === 1);

    await sql.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    await delay(100);
    await store.append(stream, [event('After')], 0);
    await eventually(() => received.length === 2);
    await subscription.stop();

    expect(received).toEqual(['Before', 'After']);
  });
});

/**
 * Wraps `sql` so that the next transaction, or the next single statement (run in a transaction
 * for the purpose), can be held open, its work done, until the test releases it.
 */
function withCommitGate(sql: SqlClient) {
  let gate: { arrive: () => void; released: Promise<void> } | undefined;
  const holdCommit = async <T>(result: T): Promise<T> => {
    const current = gate;
    gate = undefined;
    if (current) {
      current.arrive();
      await current.released;
    }
    return result;
  };
  const gated: SqlClient = {
    engine: sql.engine,
    query: <Row>(text: string, params?: unknown[]) =>
      gate ? sql.transaction(async (tx) => holdCommit(await tx.query<Row>(text, params))) : sql.query<Row>(text, params),
    read: <Row>(text: string, params?: unknown[]) => sql.read<Row>(text, params),
    transaction: <T>(work: (tx: SqlQueryable) => Promise<T>) => sql.transaction(async (tx) => holdCommit(await work(tx))),
    listen: (channel, onNotify) => sql.listen(channel, onNotify),
    close: () => sql.close(),
    forReadModels: () => sql.forReadModels(),
  };
  return {
    sql: gated,
    holdNextCommit() {
      let arrive!: () => void;
      let release!: () => void;
      const reached = new Promise<void>((resolve) => (arrive = resolve));
      gate = { arrive, released: new Promise<void>((resolve) => (release = resolve)) };
      return { reached, release };
    },
  };
}

/** `sql`, reporting each single statement it runs. */
function countingClient(sql: SqlClient, onQuery: (text: string) => void): SqlClient {
  return {
    engine: sql.engine,
    query: (text, params) => {
      onQuery(text);
      return sql.query(text, params);
    },
    read: (text, params) => {
      onQuery(text);
      return sql.read(text, params);
    },
    transaction: (work) => sql.transaction(work),
    listen: (channel, onNotify) => sql.listen(channel, onNotify),
    close: () => sql.close(),
    forReadModels: () => countingClient(sql.forReadModels(), onQuery),
  };
}

function event(type: string): NewEvent {
  return { type, data: {}, metadata: { workspaceId: null, actor: 'test', correlationId: randomUUID(), timestamp: new Date().toISOString() } };
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function eventually(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await delay(20);
  }
}

