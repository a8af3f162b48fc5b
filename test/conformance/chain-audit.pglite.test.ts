import { PgliteSqlClient } from '../../infra/sql/pglite-client';
import { describeChainAuditCheckpoints } from './chain-audit.suite';

describeChainAuditCheckpoints('PGlite', async () => {
  const client = await PgliteSqlClient.open();
  return { client, close: () => client.close() };
});
