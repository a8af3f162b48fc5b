import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import { PgSqlClient } from '../../infra/sql/pg-client';
import { runCli } from '../../src/cli/operator';
import { captureCliOutput } from '../support/cli-output';
import { createTestDatabase } from '../support/postgres';

/**
 * The role split of docs/production.md: the owner creates the event tables with `cms migrate`,
 * the service connects as a role granted exactly what the document grants, and can append and
 * read but cannot change history, even by switching the triggers off.
 */
describe('an insert-only service role (PostgreSQL)', () => {
  const role = `cms_service_${randomBytes(4).toString('hex')}`;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let serviceUrl: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const migrated = captureCliOutput();
    await runCli(['migrate'], { DATABASE_URL: database.url, ENCRYPTION_KEY: randomBytes(32).toString('base64'), DATA_DIR: `/tmp/${role}` }, migrated.output);
    expect(migrated.lines).toEqual(['migrate: the event tables are current (hash chain, append-only triggers)']);
    const owner = new Client({ connectionString: database.url });
    await owner.connect();
    try {
      // As in docs/production.md.
      await owner.query(`create role ${role} login`);
      await owner.query(`grant usage, create on schema public to ${role}`);
      await owner.query(`grant select, insert on es_events, es_checkpoints to ${role}`);
      await owner.query(`grant select, insert, update on es_streams to ${role}`);
      await owner.query(`grant usage on sequence es_events_position_seq, es_checkpoints_id_seq to ${role}`);
    } finally {
      await owner.end();
    }
    const url = new URL(database.url);
    url.username = role;
    serviceUrl = url.toString();
  });

  afterAll(async () => {
    await database.drop();
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`drop role if exists ${role}`);
    await admin.end();
  });

  it('appends, reads and signs checkpoints, and cannot update, delete, truncate or switch the triggers off', async () => {
    const sql = await PgSqlClient.open(serviceUrl);
    try {
      const store = await PostgresEventStore.create(sql);
      const stream = `roles-${randomUUID()}`;
      const metadata = { workspaceId: null, actor: 'service', correlationId: randomUUID(), timestamp: new Date().toISOString() };
      await store.append(stream, [{ type: 'Created', data: { price: 10 }, metadata }], 'no_stream');
      await store.append(stream, [{ type: 'Changed', data: { price: 12 }, metadata }], 0);
      expect((await store.readStream(stream)).map((event) => event.revision)).toEqual([0, 1]);
      await store.audit.writeCheckpoint('periodic', randomBytes(32));
      await store.close();

      for (const statement of [
        `update es_events set data = '{}'`,
        `delete from es_events`,
        'truncate es_events',
        'alter table es_events disable trigger es_events_append_only',
        `delete from es_streams`,
        'delete from es_checkpoints',
        'set session_replication_role = replica',
      ]) {
        await expect(sql.query(statement)).rejects.toThrow(/permission denied|must be owner/);
      }
      await expect(sql.query(`update es_streams set revision = 0 where stream = $1`, [stream])).rejects.toThrow('may only move forwards along its chain');
    } finally {
      await sql.close();
    }
  });
});
