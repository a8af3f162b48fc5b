import { PgSqlClient } from '../../infra/sql/pg-client';
import { createTestDatabase } from '../support/postgres';
import { describeTailSharing } from './eventstore-tail.suite';

describeTailSharing('a PostgreSQL server', async () => {
  const database = await createTestDatabase();
  const sql = await PgSqlClient.open(database.url);
  return {
    sql,
    close: async () => {
      await sql.close();
      await database.drop();
    },
  };
});
