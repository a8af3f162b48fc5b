import { PgliteSqlClient } from '../../infra/sql/pglite-client';
import { describeTailSharing } from './eventstore-tail.suite';

describeTailSharing('PGlite', async () => {
  const sql = await PgliteSqlClient.open();
  return { sql, close: () => sql.close() };
});
