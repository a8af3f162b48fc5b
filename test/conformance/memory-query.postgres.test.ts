import { PostgresReadStore } from '../../infra/readstore/postgres';
import { PgSqlClient } from '../../infra/sql/pg-client';
import { createTestDatabase } from '../support/postgres';
import { describeMemoryQueryConformance } from './memory-query.suite';

describeMemoryQueryConformance('PostgreSQL', async () => {
  const database = await createTestDatabase();
  const client = await PgSqlClient.open(database.url);
  return {
    store: await PostgresReadStore.open(client),
    close: async () => {
      await client.close();
      await database.drop();
    },
  };
});
