import { Client } from 'pg';
import pino from 'pino';
import { PostgresReadStore } from '../../infra/readstore/postgres';
import { ReplicaRoutedReadStore } from '../../infra/readstore/replica-routed';
import { type Replica, ReplicaSet } from '../../infra/readstore/replicas';
import { PgSqlClient } from '../../infra/sql/pg-client';
import { createTestDatabase } from '../support/postgres';
import { standby } from '../support/standby';
import { eventually } from '../support/waiting';
import { describeReadStoreConformance } from './readstore.suite';

/** The read store on a fresh database, its queries routed to the database on the streaming standby (scripts/standby.sh). */
async function openRouted() {
  const database = await createTestDatabase();
  const replicaUrl = standby().urlOf(database.url);
  await eventually(() => standby().reachable(replicaUrl), 15_000);
  const client = await PgSqlClient.open(database.url);
  const replica: Replica = { name: 'standby', sql: await PgSqlClient.open(replicaUrl) };
  const replicas = new ReplicaSet(client, [replica], 5000, pino({ level: 'silent' }));
  await replicas.start();
  const store = new ReplicaRoutedReadStore(await PostgresReadStore.open(client), replicas, new Map([[replica, PostgresReadStore.onReplica(replica.sql)]]));
  let disconnecting: Promise<void> | null = null;
  const disconnect = () =>
    (disconnecting ??= (async () => {
      await replicas.stop();
      await client.close();
    })());
  return {
    store,
    replicaUrl,
    disconnect,
    close: async () => {
      await disconnect();
      await database.drop();
    },
  };
}

describeReadStoreConformance('PostgreSQL, queries on a streaming replica', openRouted);

describe('ReplicaRoutedReadStore', () => {
  it('runs the queries after a write on the replica, which answers with the write', async () => {
    const { store, replicaUrl, disconnect, close } = await openRouted();
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
