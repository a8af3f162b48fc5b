import { PostgresReadStore } from '../../infra/readstore/postgres';
import { PgliteSqlClient } from '../../infra/sql/pglite-client';
import { describePostgresReadStoreSpecifics, describeReadStoreConformance } from './readstore.suite';

async function openClient() {
  const client = await PgliteSqlClient.open();
  return { client, close: () => client.close() };
}

describeReadStoreConformance('PGlite', async () => {
  const { client, close } = await openClient();
  return { store: await PostgresReadStore.open(client), close };
});

describePostgresReadStoreSpecifics('PGlite', openClient);
