import { PostgresItemKeyStore } from '../../infra/keys/item-postgres';
import { PgSqlClient } from '../../infra/sql/pg-client';
import { createTestDatabase } from '../support/postgres';
import { describeItemKeyStoreConformance } from './itemkeys.suite';

describeItemKeyStoreConformance('PostgreSQL', async () => {
  const database = await createTestDatabase();
  const client = await PgSqlClient.open(database.url);
  return {
    store: await PostgresItemKeyStore.create(client),
    close: async () => {
      await client.close();
      await database.drop();
    },
  };
});
