import { PgSqlClient } from '../../infra/sql/pg-client';
import { createTestDatabase } from '../support/postgres';
import { describeChainAuditCheckpoints, describeCheckpointChain, describeMacCheckedCheckpoints } from './chain-audit.suite';

async function open() {
  const database = await createTestDatabase();
  const client = await PgSqlClient.open(database.url);
  return {
    client,
    close: async () => {
      await client.close();
      await database.drop();
    },
  };
}

describeChainAuditCheckpoints('PostgreSQL', open);
describeCheckpointChain('PostgreSQL', open);
describeMacCheckedCheckpoints('PostgreSQL', open);
