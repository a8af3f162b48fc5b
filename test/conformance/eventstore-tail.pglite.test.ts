import { describeTailSharing } from './eventstore-tail.suite';
import { openMemoryPglite } from '../support/pglite-template';

describeTailSharing('PGlite', async () => {
  const sql = await openMemoryPglite();
  return { sql, close: () => sql.close() };
});
