import { Client } from 'pg';
import { PgSqlClient } from '../../infra/sql/pg-client';
import { createTestDatabase } from '../support/postgres';

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
