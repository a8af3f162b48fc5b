import { PgSqlClient } from '../../infra/sql/pg-client';
import { createTestDatabase } from '../support/postgres';
import { describeChainAuditCheckpoints } from './chain-audit.suite';

describeChainAuditCheckpoints('PostgreSQL', async () => {
  const database = await createTestDatabase();
  const client = await PgSqlClient.open(database.url);
  return {
    client,
    close: async () => {
      await client.close();
      await database.drop();
    },
  };
});
