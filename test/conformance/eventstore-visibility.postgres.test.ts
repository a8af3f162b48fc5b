import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import { PostgresReadStore } from '../../infra/readstore/postgres';
import { PgSqlClient } from '../../infra/sql/pg-client';
import { createTestDatabase } from '../support/postgres';
import { eventually } from '../support/waiting';

/**
 * Readers see an event once no transaction that could commit before it is still running. On a
 * server shared with other databases, a long transaction there must not hide this log's events;
 * nor may one of the read store's (a rebuild's index build), which never appends events.
 */
describe('event visibility on a shared PostgreSQL server', () => {
  let ours: Awaited<ReturnType<typeof createTestDatabase>>;
  let theirs: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: PgSqlClient;
  let store: PostgresEventStore;

  beforeAll(async () => {
    ours = await createTestDatabase();
    theirs = await createTestDatabase();
    sql = await PgSqlClient.open(ours.url);
    store = await PostgresEventStore.create(sql);
  });

  afterAll(async () => {
    await store.close();
    await sql.close();
    await ours.drop();
    await theirs.drop();
  });

  /** A session holding a transaction that has written (so it has a transaction id) until `end` is called. */
  async function openWritingTransaction(url: string) {
    const client = new Client({ connectionString: url });
    await client.connect();
    await client.query('begin');
    await client.query('select pg_current_xact_id()');
    return {
      end: async () => {
        await client.query('commit');
        await client.end();
      },
    };
  }

  const append = (stream: string) =>
    store.append(stream, [{ type: 'Visible', data: {}, metadata: { workspaceId: null, actor: 'test', correlationId: randomUUID(), timestamp: new Date().toISOString() } }], 'no_stream');
  const streamsRead = async () => (await store.readAll()).map((event) => event.stream);

  it('shows events appended while another database of the server holds a transaction open', async () => {
    const other = await openWritingTransaction(theirs.url);
    try {
      const stream = `visible-${randomUUID()}`;
      await append(stream);
      // Shown while the other database's transaction stays open. Polled, as below: a short writing transaction of this
      // database (autovacuum's analyze), or one that ends between a read's snapshot and its look at pg_stat_activity,
      // holds that read back a moment (a CI run met one).
      expect(await eventually(async () => (await streamsRead()).includes(stream), 5_000)).toBe(true);
    } finally {
      await other.end();
    }
  });

  it('holds back events appended after a transaction of this database began, until it ends (it could still commit events before them)', async () => {
    const mine = await openWritingTransaction(ours.url);
    const stream = `held-${randomUUID()}`;
    try {
      await append(stream);
      expect(await streamsRead()).not.toContain(stream);
    } finally {
      await mine.end();
    }
    expect(await streamsRead()).toContain(stream);
  });

  it('shows events appended while the read store holds a transaction open (an index build of a rebuild), and its writes land', async () => {
    const readStore = await PostgresReadStore.open(sql);
    await readStore.ensureCollection('visibility', []);
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let began: () => void = () => undefined;
    const begun = new Promise<void>((resolve) => (began = resolve));
    // The read store's own connection, as its index builds and bulk writes use it.
    const building = sql.forReadModels().transaction(async (tx) => {
      await tx.query(`insert into rm_visibility (id, doc) values ('held', '{"id": "held"}')`);
      began();
      await released;
    });
    try {
      await begun;
      const stream = `beside-read-models-${randomUUID()}`;
      await append(stream);
      // Shown while the read store's transaction stays open. Polled: another short writing
      // transaction of this database (autovacuum's analyze takes a transaction id) may hold readers back a moment.
      expect(await eventually(async () => (await streamsRead()).includes(stream), 5_000)).toBe(true);
    } finally {
      release();
      await building;
    }
    expect(await readStore.get('visibility', 'held')).toEqual({ id: 'held' });
  });
});
