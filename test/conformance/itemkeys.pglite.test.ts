import { PostgresItemKeyStore } from '../../infra/keys/item-postgres';
import { PgliteSqlClient } from '../../infra/sql/pglite-client';
import { describeItemKeyStoreConformance } from './itemkeys.suite';

describeItemKeyStoreConformance('PGlite', async () => {
  const client = await PgliteSqlClient.open();
  return { store: await PostgresItemKeyStore.create(client), close: () => client.close() };
});
