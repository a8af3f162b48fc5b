import { describeChainAuditCheckpoints } from './chain-audit.suite';
import { openMemoryPglite } from '../support/pglite-template';

describeChainAuditCheckpoints('PGlite', async () => {
  const client = await openMemoryPglite();
  return { client, close: () => client.close() };
});
