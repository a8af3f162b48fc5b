import { PostgresItemKeyStore } from '../../infra/keys/item-postgres';
import { describeItemKeyStoreConformance } from './itemkeys.suite';
import { openMemoryPglite } from '../support/pglite-template';

describeItemKeyStoreConformance('PGlite', async () => {
  const client = await openMemoryPglite();
  return { store: await PostgresItemKeyStore.create(client), close: () => client.close() };
});
