import { PostgresDataKeyStore } from '../../infra/keys/postgres';
import { PgSqlClient } from '../../infra/sql/pg-client';
import { createTestDatabase } from '../support/postgres';
import { describeDataKeyStoreConformance } from './datakeys.suite';

describeDataKeyStoreConformance('PostgreSQL', async () => {
  const database = await createTestDatabase();
  const client = await PgSqlClient.open(database.url);
  return {
    store: await PostgresDataKeyStore.create(client),
    close: async () => {
      await client.close();
      await database.drop();
    },
  };
});
