import { PostgresReadStore } from '../../infra/readstore/postgres';
import { PgSqlClient } from '../../infra/sql/pg-client';
import { createTestDatabase } from '../support/postgres';
import { describePostgresReadStoreSpecifics, describeReadStoreConformance } from './readstore.suite';

async function openClient() {
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

describeReadStoreConformance('PostgreSQL', async () => {
  const { client, close } = await openClient();
  return { store: await PostgresReadStore.open(client), close };
});

describePostgresReadStoreSpecifics('PostgreSQL', openClient);
