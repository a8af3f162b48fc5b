import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client } from 'pg';
import pino from 'pino';
import { PostgresReadStore } from '../../infra/readstore/postgres';
import { ReplicaRoutedReadStore } from '../../infra/readstore/replica-routed';
import { type Replica, ReplicaSet } from '../../infra/readstore/replicas';
import { PgSqlClient } from '../../infra/sql/pg-client';
import { createTestDatabase } from './postgres';
import { eventually } from './waiting';

const run = promisify(execFile);

/**
 * The streaming standby scripts/standby.sh set up (REPLICA_DATABASE_URL): the URL of a database of
 * the primary as the standby serves it, and stopping and starting the standby (pg_ctl, as the
 * postgres user when the tests run as root).
 */
export function standby() {
  const serverUrl = process.env.REPLICA_DATABASE_URL;
  if (!serverUrl) throw new Error('REPLICA_DATABASE_URL is not set (scripts/standby.sh)');
  const dataDir = process.env.STANDBY_DATA ?? `/var/lib/postgresql/standby-${new URL(serverUrl).port || '5432'}`;
  const pgCtl = async (...args: string[]) => {
    const { stdout } = await run('sh', ['-c', 'ls /etc/postgresql | sort -V | tail -1']);
    const command = [`/usr/lib/postgresql/${stdout.trim()}/bin/pg_ctl`, '-D', dataDir, ...args];
    await (process.getuid?.() === 0 ? run('runuser', ['-u', 'postgres', '--', ...command]) : run(command[0]!, command.slice(1)));
  };
  return {
    /** The database `databaseUrl` names (on the primary), on the standby. */
    urlOf(databaseUrl: string): string {
      const url = new URL(serverUrl);
      url.pathname = new URL(databaseUrl).pathname;
      return url.toString();
    },
    /** Resolves once the standby answers in `url`'s database (replication brings a new database within moments). */
    async reachable(url: string): Promise<boolean> {
      const client = new Client({ connectionString: url, connectionTimeoutMillis: 1000 });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.query('select 1');
        return true;
      } catch {
        return false;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    stop: () => pgCtl('-m', 'fast', '-w', 'stop'),
    start: () => pgCtl('-l', `${dataDir}/server.log`, '-w', '-t', '60', 'start'),
  };
}

/** The read store on a fresh database, its queries routed to the database on the streaming standby (scripts/standby.sh). */
export async function openRoutedReadStore() {
  const database = await createTestDatabase();
  const replicaUrl = standby().urlOf(database.url);
  await eventually(() => standby().reachable(replicaUrl), 15_000);
  const client = await PgSqlClient.open(database.url);
  const replica: Replica = { name: 'standby', sql: await PgSqlClient.open(replicaUrl, { lazy: true }) };
  const replicas = new ReplicaSet(client, [replica], 5000, pino({ level: 'silent' }));
  await replicas.start();
  const store = new ReplicaRoutedReadStore(await PostgresReadStore.open(client), replicas, new Map([[replica, PostgresReadStore.readOnly(replica.sql)]]));
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
