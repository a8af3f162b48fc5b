import { PostgresEventStore } from '../../infra/eventstore/postgres';
import { PgliteSqlClient } from '../../infra/sql/pglite-client';
import { describeEventStoreConformance } from './eventstore.suite';

describeEventStoreConformance('PostgreSQL adapter on PGlite', async () => {
  const sql = await PgliteSqlClient.open();
  const store = await PostgresEventStore.create(sql);
  return {
    store,
    close: async () => {
      await store.close();
      await sql.close();
    },
  };
});
