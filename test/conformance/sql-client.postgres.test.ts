import { Client } from 'pg';
import { READ_MODEL_WRITER, type SqlQueryable } from '../../infra/sql/client';
import { PgSqlClient } from '../../infra/sql/pg-client';
import { createTestDatabase } from '../support/postgres';
import { jsonParamSuite } from './json-param.suite';

describe('PostgreSQL client reads', () => {
  it('cancels a read running past the read statement timeout (57014), and never an ordinary statement', async () => {
    const database = await createTestDatabase();
    const sql = await PgSqlClient.open(database.url, { readStatementTimeoutMs: 100 });
    try {
      await expect(sql.read('select pg_sleep(0.5)')).rejects.toMatchObject({ code: '57014' });
      await expect(sql.query('select pg_sleep(0.3)')).resolves.toHaveLength(1);
      await expect(sql.transaction((tx) => tx.query('select pg_sleep(0.3)'))).resolves.toHaveLength(1);
      await expect(sql.read('select 1 as one')).resolves.toEqual([{ one: 1 }]);
    } finally {
      await sql.close();
      await database.drop();
    }
  });
});

describe('PostgreSQL client prepared statements', () => {
  it('parses a statement marked prepare once per connection, and only that one', async () => {
    const database = await createTestDatabase();
    const sql = await PgSqlClient.open(database.url);
    const prepared = `select $1::int + 1 as next`;
    const unnamed = `select $1::int + 2 as next`;
    const preparedHere = (tx: SqlQueryable, text: string) =>
      tx.query<{ n: number }>(`select count(*)::int as n from pg_prepared_statements where statement = $1`, [text]).then((rows) => rows[0]!.n);
    try {
      await sql.transaction(async (tx) => {
        await expect(tx.query(prepared, [1], { prepare: true })).resolves.toEqual([{ next: 2 }]);
        await expect(tx.query(prepared, [2], { prepare: true })).resolves.toEqual([{ next: 3 }]);
        await expect(tx.query(unnamed, [1])).resolves.toEqual([{ next: 3 }]);
        expect(await preparedHere(tx, prepared)).toBe(1);
        expect(await preparedHere(tx, unnamed)).toBe(0);
      });
    } finally {
      await sql.close();
      await database.drop();
    }
  });

  it('runs a prepared statement whose result type changed (0A000) again unnamed, on every connection', async () => {
    const database = await createTestDatabase();
    const sql = await PgSqlClient.open(database.url, { maxConnections: 1 });
    try {
      await sql.query('create table probe (id int)');
      await sql.query('insert into probe values (1)');
      const everything = 'select * from probe where id = $1';
      await expect(sql.query(everything, [1], { prepare: true })).resolves.toEqual([{ id: 1 }]);
      await sql.query(`alter table probe add column label text default 'new'`);
      await expect(sql.query(everything, [1], { prepare: true })).resolves.toEqual([{ id: 1, label: 'new' }]);
      await expect(sql.query(everything, [1], { prepare: true })).resolves.toEqual([{ id: 1, label: 'new' }]);
    } finally {
      await sql.close();
      await database.drop();
    }
  });
});

describe('PostgreSQL client LISTEN', () => {
  it('reconnects after its connection is killed, and hears notifications again', async () => {
    const database = await createTestDatabase();
    const sql = await PgSqlClient.open(database.url);
    const heard: string[] = [];
    const stop = await sql.listen('probe', (payload) => heard.push(payload));
    await sql.query(`select pg_notify('probe', 'before')`);
    await waitUntil(() => heard.includes('before'));

    const admin = new Client({ connectionString: database.url });
    await admin.connect();
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'listen%'`);
    await admin.end();

    // Notifications sent while disconnected are lost; the client says so with an empty payload once it is back.
    await waitUntil(() => heard.filter((payload) => payload === '').length > 0, 5000);
    await sql.query(`select pg_notify('probe', 'after')`);
    await waitUntil(() => heard.includes('after'));

    await stop();
    await sql.close();
    await database.drop();
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('PostgreSQL client for the read store', () => {
  it('writes on connections named cms-read-models, in statements and transactions; its reads use the read timeout', async () => {
    const database = await createTestDatabase();
    const sql = await PgSqlClient.open(database.url, { readStatementTimeoutMs: 100 });
    const readModels = sql.forReadModels();
    const name = `select current_setting('application_name') as name`;
    try {
      expect(readModels.forReadModels()).toBe(readModels);
      await expect(readModels.query(name)).resolves.toEqual([{ name: READ_MODEL_WRITER }]);
      await expect(readModels.transaction((tx) => tx.query(name))).resolves.toEqual([{ name: READ_MODEL_WRITER }]);
      await expect(sql.query(name)).resolves.not.toEqual([{ name: READ_MODEL_WRITER }]);
      await expect(readModels.read('select pg_sleep(0.5)')).rejects.toMatchObject({ code: '57014' });
    } finally {
      await sql.close();
      await database.drop();
    }
  });
});

describe('PostgreSQL client generic plans (prepare: generic)', () => {
  const setting = `select current_setting('plan_cache_mode') as mode, current_setting('application_name') as name`;

  it('runs them on connections of their own that plan once for any values (the read store\'s named as its others), elsewhere as prepared', async () => {
    const database = await createTestDatabase();
    const sql = await PgSqlClient.open(database.url);
    const readModels = sql.forReadModels();
    try {
      await expect(readModels.query(setting, [], { prepare: 'generic' })).resolves.toEqual([{ mode: 'force_generic_plan', name: READ_MODEL_WRITER }]);
      await expect(readModels.query(setting, [], { prepare: true })).resolves.toEqual([{ mode: 'auto', name: READ_MODEL_WRITER }]);
      await expect(readModels.transaction((tx) => tx.query(setting, [], { prepare: 'generic' }))).resolves.toEqual([{ mode: 'auto', name: READ_MODEL_WRITER }]);
      const [main] = await sql.query<{ mode: string; name: string }>(setting, [], { prepare: 'generic' });
      expect(main).toMatchObject({ mode: 'force_generic_plan' });
      expect(main!.name).not.toBe(READ_MODEL_WRITER);
      await expect(sql.query(setting, [], { prepare: true })).resolves.toEqual([expect.objectContaining({ mode: 'auto' })]);
      await expect(sql.read(setting, [], { prepare: 'generic' })).resolves.toEqual([expect.objectContaining({ mode: 'auto' })]);
    } finally {
      await sql.close();
      await database.drop();
    }
  });

  it('keeps at most 32 texts with generic plans; the rest run on the ordinary connections', async () => {
    const database = await createTestDatabase();
    const sql = await PgSqlClient.open(database.url);
    const readModels = sql.forReadModels();
    try {
      const modes: string[] = [];
      for (let text = 0; text < 34; text++) {
        const [row] = await readModels.query<{ mode: string }>(`${setting}, ${text} as text`, [], { prepare: 'generic' });
        modes.push(row!.mode);
      }
      expect(modes.slice(0, 32).every((mode) => mode === 'force_generic_plan')).toBe(true);
      expect(modes.slice(32)).toEqual(['auto', 'auto']);
      // A text already kept stays kept.
      await expect(readModels.query(`${setting}, 0 as text`, [], { prepare: 'generic' })).resolves.toEqual([expect.objectContaining({ mode: 'force_generic_plan' })]);
    } finally {
      await sql.close();
      await database.drop();
    }
  });

  it('runs a statement whose result type changed (0A000) on the ordinary connections from then on', async () => {
    const database = await createTestDatabase();
    const sql = await PgSqlClient.open(database.url);
    const readModels = sql.forReadModels();
    try {
      await sql.query('create table probe (id int)');
      await sql.query('insert into probe values (1)');
      const everything = 'select * from probe where id = $1';
      await expect(readModels.query(everything, [1], { prepare: 'generic' })).resolves.toEqual([{ id: 1 }]);
      await sql.query(`alter table probe add column label text default 'new'`);
      await expect(readModels.query(everything, [1], { prepare: 'generic' })).resolves.toEqual([{ id: 1, label: 'new' }]);
      await expect(readModels.query(everything, [1], { prepare: 'generic' })).resolves.toEqual([{ id: 1, label: 'new' }]);
    } finally {
      await sql.close();
      await database.drop();
    }
  });
});

describe('PostgreSQL client JSON parameters', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let sql: PgSqlClient;

  beforeAll(async () => {
    database = await createTestDatabase();
    sql = await PgSqlClient.open(database.url);
  });

  afterAll(async () => {
    await sql.close();
    await database.drop();
  });

  jsonParamSuite(() => sql);
});
