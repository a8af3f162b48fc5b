import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ChainAudit } from '../../infra/eventstore/chain-audit';
import { checkpointKey } from '../../infra/eventstore/chain-audit';
import { eventMacKey, type MacMarker } from '../../infra/eventstore/event-mac';
import type { EventStore } from '../../infra/eventstore/port';
import { existingMasterKey } from '../../infra/master-key';
import type { Checkpoint } from '../../infra/readstore/port';
import type { SqlClient } from '../../infra/sql/client';
import type { Config } from '../config';
import { holdingDataDir } from './holding-data-dir';

/** What `cms verify` reads, and nothing more: the log, its checkpoints and keys, the read models' checkpoints. */
export interface VerifyStores {
  readonly events: EventStore;
  /** The log's checkpoints and their key, the key of the events' MACs and their marker; null on a store that keeps none (EventStoreDB, an embedded store never written). */
  readonly chain: { readonly audit: ChainAudit; readonly key: Buffer; readonly macKey: Buffer; readonly macMarker: MacMarker | null } | null;
  /** Every read model's checkpoint as stored; none when the read store was never written. */
  readModelCheckpoints(): Promise<Checkpoint[]>;
}

/**
 * Runs `work` on the stores opened for reading only, holding DATA_DIR meanwhile. Unlike the
 * service's container it creates no table, generates no key and starts nothing: verify must work
 * with a role that may only read, and a store it found missing stays missing.
 */
export function withVerifyStores<T>(config: Config, work: (stores: VerifyStores) => Promise<T>): Promise<T> {
  // Not even locked (the lock would create DATA_DIR): a store that does not exist has nothing to verify.
  if (config.eventStore === 'embedded' && !embeddedStoreExists(config)) return storeNeverWritten().then(work);
  return holdingDataDir(config, 'verify', async () => {
    const masterKey = await existingMasterKey(config.encryptionKey, config.dataDir);
    if (!masterKey) {
      throw new Error(`verify: no ENCRYPTION_KEY is configured and ${config.dataDir} holds no generated key: verify needs the key the store was written with`);
    }
    const closers: (() => Promise<void>)[] = [];
    try {
      return await work(await openForVerify(config, masterKey, closers));
    } finally {
      for (const close of closers.reverse()) await close();
    }
  });
}

async function openForVerify(config: Config, masterKey: Buffer, closers: (() => Promise<void>)[]): Promise<VerifyStores> {
  const clients = new Map<'embedded' | 'postgres', SqlClient>();
  const sql = async (kind: 'embedded' | 'postgres'): Promise<SqlClient> => {
    const open = clients.get(kind) ?? (await openSql(config, kind));
    if (!clients.has(kind)) closers.push(() => open.close());
    clients.set(kind, open);
    return open;
  };

  const readModelCheckpoints = await readModelCheckpointReader(config, sql, closers);
  if (config.eventStore === 'eventstoredb') {
    const { EventStoreDbEventStore } = await import('../../infra/eventstore/eventstoredb');
    const events = await EventStoreDbEventStore.connect(config.eventStoreUrl!, eventMacKey(masterKey));
    closers.push(() => events.close());
    return { events, chain: null, readModelCheckpoints };
  }
  const client = await sql(config.eventStore);
  const chain = { key: checkpointKey(masterKey), macKey: eventMacKey(masterKey) };
  const { PostgresEventStore } = await import('../../infra/eventstore/postgres');
  if (!(await PostgresEventStore.eventTablesExist(client))) {
    // Nothing was ever written (or the log was dropped): read as empty, with whatever checkpoints remain.
    const events = new (await import('../../infra/eventstore/absent')).AbsentEventLog();
    const audit = new (await import('../../infra/eventstore/postgres-chain-audit')).PostgresChainAudit(client);
    const macMarker = await (await import('../../infra/eventstore/postgres-mac-marker')).readMacMarker(client);
    return { events, chain: { ...chain, audit, macMarker }, readModelCheckpoints };
  }
  const events = await PostgresEventStore.create(client, { checkpointKey: chain.key, macKey: chain.macKey, readOnly: true });
  closers.push(() => events.close());
  return { events, chain: { ...chain, audit: events.audit, macMarker: events.macMarker }, readModelCheckpoints };
}

const embeddedDirectory = (config: Config) => join(config.dataDir, 'pglite');

/** Opening a directory that holds no embedded store would create one: verify reads it as never written instead. */
const embeddedStoreExists = (config: Config) => existsSync(join(embeddedDirectory(config), 'PG_VERSION'));

async function storeNeverWritten(): Promise<VerifyStores> {
  return { events: new (await import('../../infra/eventstore/absent')).AbsentEventLog(), chain: null, readModelCheckpoints: async () => [] };
}

async function openSql(config: Config, kind: 'embedded' | 'postgres'): Promise<SqlClient> {
  if (kind === 'postgres') return (await import('../../infra/sql/pg-client')).PgSqlClient.open(config.databaseUrl!, { readStatementTimeoutMs: config.readStatementTimeoutMs });
  return (await import('../../infra/sql/pglite-client')).PgliteSqlClient.open(embeddedDirectory(config), { checkpointWalMb: config.embeddedCheckpointWalMb });
}

async function readModelCheckpointReader(
  config: Config,
  sql: (kind: 'embedded' | 'postgres') => Promise<SqlClient>,
  closers: (() => Promise<void>)[],
): Promise<() => Promise<Checkpoint[]>> {
  if (config.readStore === 'mongodb') {
    const { MongoReadStore } = await import('../../infra/readstore/mongodb');
    const mongo = await MongoReadStore.connect(config.mongoUrl!, undefined, { readTimeoutMs: config.readStatementTimeoutMs });
    closers.push(() => mongo.close());
    return () => mongo.listCheckpoints();
  }
  if (config.readStore === 'embedded' && !embeddedStoreExists(config)) return async () => [];
  const { PostgresReadStore } = await import('../../infra/readstore/postgres');
  const reader = PostgresReadStore.readOnly(await sql(config.readStore));
  return async () => {
    try {
      return await reader.listCheckpoints();
    } catch (error) {
      // undefined_table: no read model was ever written.
      if ((error as { code?: string }).code === '42P01') return [];
      throw error;
    }
  };
}
