import { PostgresReadStore } from '../../infra/readstore/postgres';
import { openMemoryPglite } from '../support/pglite-template';
import { describeMemoryQueryConformance } from './memory-query.suite';

describeMemoryQueryConformance('PGlite', async () => {
  const client = await openMemoryPglite();
  return { store: await PostgresReadStore.open(client), close: () => client.close() };
});
