import { PostgresDataKeyStore } from '../../infra/keys/postgres';
import { describeDataKeyStoreConformance } from './datakeys.suite';
import { openMemoryPglite } from '../support/pglite-template';

describeDataKeyStoreConformance('PGlite', async () => {
  const client = await openMemoryPglite();
  return { store: await PostgresDataKeyStore.create(client), close: () => client.close() };
});
