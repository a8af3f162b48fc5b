import { PostgresEventStore } from '../../infra/eventstore/postgres';
import { describeEventStoreConformance } from './eventstore.suite';
import { openMemoryPglite } from '../support/pglite-template';

describeEventStoreConformance('PostgreSQL adapter on PGlite', async () => {
  const sql = await openMemoryPglite();
  const store = await PostgresEventStore.create(sql);
  return {
    store,
    close: async () => {
      await store.close();
      await sql.close();
    },
  };
});
