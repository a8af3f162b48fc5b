import { PgSqlClient } from '../../infra/sql/pg-client';
import { createTestDatabase } from '../support/postgres';
import { describeRebuildStatistics } from './rebuild-statistics.suite';

describeRebuildStatistics('postgres', async () => {
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
