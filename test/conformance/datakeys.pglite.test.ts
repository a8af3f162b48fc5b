import { PostgresDataKeyStore } from '../../infra/keys/postgres';
import { PgliteSqlClient } from '../../infra/sql/pglite-client';
import { describeDataKeyStoreConformance } from './datakeys.suite';

describeDataKeyStoreConformance('PGlite', async () => {
  const client = await PgliteSqlClient.open();
  return { store: await PostgresDataKeyStore.create(client), close: () => client.close() };
});
