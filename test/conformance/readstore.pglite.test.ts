import { PostgresReadStore } from '../../infra/readstore/postgres';
import { describePostgresReadStoreSpecifics, describeReadStoreConformance } from './readstore.suite';
import { openMemoryPglite } from '../support/pglite-template';

async function openClient() {
  const client = await openMemoryPglite();
  return { client, close: () => client.close() };
}

describeReadStoreConformance('PGlite', async () => {
  const { client, close } = await openClient();
  return { store: await PostgresReadStore.open(client), close };
});

describePostgresReadStoreSpecifics('PGlite', openClient);
