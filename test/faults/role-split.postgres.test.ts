import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { checkpointKey } from '../../infra/eventstore/chain-audit';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import { PostgresChainAudit } from '../../infra/eventstore/postgres-chain-audit';
import { PgSqlClient } from '../../infra/sql/pg-client';
import pino from 'pino';
import { runCli } from '../../src/cli/operator';
import { loadConfig } from '../../src/config';
import { buildContainer, TOKENS } from '../../src/container';
import { captureCliOutput } from '../support/cli-output';
import { createTestDatabase } from '../support/postgres';
import { SERVICE_ROLE_GRANTS } from '../support/service-role';

/**
 * The role split of docs/production.md: the owner creates the event tables with `cms migrate`,
 * the service connects as a role granted exactly what the document grants, and can append and
 * read but cannot change history, even by switching the triggers off.
 */
describe('an insert-only service role (PostgreSQL)', () => {
  const role = `cms_service_${randomBytes(4).toString('hex')}`;
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let serviceUrl: string;
  const ENCRYPTION_KEY = randomBytes(32).toString('base64');

  beforeAll(async () => {
    database = await createTestDatabase();
    const migrated = captureCliOutput();
    await runCli(['migrate'], { DATABASE_URL: database.url, ENCRYPTION_KEY, DATA_DIR: `/tmp/${role}` }, migrated.output);
    expect(migrated.lines).toEqual(['migrate: the event tables are current (hash chain, append-only triggers)']);
    const owner = new Client({ connectionString: database.url });
    await owner.connect();
    try {
      // As in docs/production.md.
      await owner.query(`create role ${role} login`);
      for (const grant of SERVICE_ROLE_GRANTS(role)) await owner.query(grant);
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
      await store.audit.writeCheckpoint('periodic', checkpointKey(Buffer.from(ENCRYPTION_KEY, 'base64')));
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

  it('sets the checkpoint id sequence to each id it signs, and cannot put a dropped trigger back: the service reports it degraded', async () => {
    const sql = await PgSqlClient.open(serviceUrl);
    try {
      const store = await PostgresEventStore.create(sql);
      const signed = await store.audit.writeCheckpoint('periodic', checkpointKey(Buffer.from(ENCRYPTION_KEY, 'base64')));
      expect((await store.audit.guards()).checkpointIdsIssued).toBe(signed.id);
    } finally {
      await sql.close();
    }
    const owner = new Client({ connectionString: database.url });
    await owner.connect();
    try {
      await owner.query('drop trigger es_events_append_only on es_events');
    } finally {
      await owner.end();
    }
    const container = await buildContainer(loadConfig({ DATABASE_URL: serviceUrl, ENCRYPTION_KEY, DATA_DIR: `/tmp/${role}` }), pino({ level: 'silent' }));
    try {
      const probe = container.resolve(TOKENS.http).healthProbes.find((candidate) => candidate.name === 'eventLog')!;
      expect(await probe.check()).toBe('degraded');
      const [alert] = await container.resolve(TOKENS.eventStore).readStream('eventlog-alerts');
      expect(alert).toMatchObject({ type: 'EventLogAlertRaised', data: { reason: 'guardsMissing', problems: ['es_events.es_events_append_only: missing (dropped)'] } });
      expect((await container.resolve(TOKENS.chainAudit)!.audit.guards()).triggers).toEqual(['es_events.es_events_append_only: missing (dropped)']);
    } finally {
      for (const close of container.resolve(TOKENS.closers)) await close();
    }
    // The owner's migrate puts it back.
    const migrated = captureCliOutput();
    await runCli(['migrate'], { DATABASE_URL: database.url, ENCRYPTION_KEY, DATA_DIR: `/tmp/${role}` }, migrated.output);
    expect(migrated.lines.at(-1)).toBe('migrate: put back append-only guards that were not as created: es_events.es_events_append_only: missing (dropped)');
    const afterMigrate = await PgSqlClient.open(serviceUrl);
    try {
      expect((await new PostgresChainAudit(afterMigrate).guards()).triggers).toEqual([]);
    } finally {
      await afterMigrate.close();
    }
  });

  it('verify needs only reading: a role granted SELECT and nothing else (docs/production.md) gets the report the owner gets, and cannot create a table', async () => {
    const auditor = `cms_auditor_${randomBytes(4).toString('hex')}`;
    const owner = new Client({ connectionString: database.url });
    await owner.connect();
    try {
      await owner.query(`create role ${auditor} login`);
      await owner.query(`grant usage on schema public to ${auditor}`);
      await owner.query(`grant select on all tables in schema public to ${auditor}`);
      await owner.query(`grant select on sequence es_checkpoints_id_seq to ${auditor}`);
      const url = new URL(database.url);
      url.username = auditor;
      const verifyAs = async (databaseUrl: string) => {
        const run = captureCliOutput();
        const outcome = await runCli(['verify'], { DATABASE_URL: databaseUrl, ENCRYPTION_KEY, DATA_DIR: `/tmp/${auditor}` }, run.output).then(
          () => 'ok',
          (error: Error) => error.message,
        );
        return { outcome, lines: run.lines };
      };
      const asOwner = await verifyAs(database.url);
      expect(asOwner.lines.length).toBeGreaterThan(5);
      expect(await verifyAs(url.toString())).toEqual(asOwner);
      const reader = new Client({ connectionString: url.toString() });
      await reader.connect();
      try {
        await expect(reader.query('create table if not exists readstore_checkpoints (name text)')).rejects.toThrow('permission denied for schema public');
      } finally {
        await reader.end();
      }
    } finally {
      await owner.query(`drop owned by ${auditor}`);
      await owner.query(`drop role ${auditor}`);
      await owner.end();
    }
  });
});
