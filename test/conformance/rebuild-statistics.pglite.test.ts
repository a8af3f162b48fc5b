import { describeRebuildStatistics } from './rebuild-statistics.suite';
import { openMemoryPglite } from '../support/pglite-template';

describeRebuildStatistics('pglite', async () => {
  const sql = await openMemoryPglite();
  return { sql, close: () => sql.close() };
});
