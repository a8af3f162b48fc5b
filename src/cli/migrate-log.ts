import { join } from 'node:path';
import { z } from 'zod';
import { checkpointKey } from '../../infra/eventstore/chain-audit';
import { loadMasterKey } from '../../infra/master-key';
import type { Config } from '../config';
import { parseArguments } from './arguments';
import { holdingDataDir } from './holding-data-dir';
import type { CliOutput } from './output';

const migrateArguments = z.object({ unexpected: z.array(z.string()).max(0, 'takes no arguments') });

/**
 * `migrate`: creates or upgrades the event tables, their chain and their append-only triggers
 * (putting back any that were dropped, disabled or changed), and nothing else. Run it as the role that owns them; the service can then run as a role that
 * may only insert and read events (docs/production.md).
 */
export async function migrateLog(config: Config, input: z.input<typeof migrateArguments>, output: CliOutput): Promise<void> {
  parseArguments('migrate', migrateArguments, input);
  if (config.eventStore === 'eventstoredb') throw new Error('migrate: EventStoreDB has no tables to create; nothing to do');
  await holdingDataDir(config, 'migrate', async () => {
    const { PostgresEventStore } = await import('../../infra/eventstore/postgres');
    const sql =
      config.eventStore === 'postgres'
        ? await (await import('../../infra/sql/pg-client')).PgSqlClient.open(config.databaseUrl!)
        : await (await import('../../infra/sql/pglite-client')).PgliteSqlClient.open(join(config.dataDir, 'pglite'), { checkpointWalMb: config.embeddedCheckpointWalMb });
    try {
      const store = await PostgresEventStore.create(sql, { checkpointKey: checkpointKey(await loadMasterKey(config.encryptionKey, config.dataDir)) });
      const upgrade = (await store.audit.checkpoints()).find((checkpoint) => checkpoint.body.kind === 'upgrade');
      await store.close();
      output.log(
        `migrate: the event tables are current (hash chain, append-only triggers)` +
          (upgrade ? `; the log written before the chain was chained at checkpoint #${upgrade.id} (${upgrade.body.events} events)` : ''),
      );
      if (store.guardsRestored.length > 0) output.log(`migrate: put back append-only guards that were not as created: ${store.guardsRestored.join('; ')}`);
    } finally {
      await sql.close();
    }
  });
}
