import { PgliteSqlClient } from '../../infra/sql/pglite-client';
import { describeRebuildStatistics } from './rebuild-statistics.suite';

describeRebuildStatistics('pglite', async () => {
  const sql = await PgliteSqlClient.open();
  return { sql, close: () => sql.close() };
});
