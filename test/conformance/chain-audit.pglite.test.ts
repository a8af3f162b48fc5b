import { describeChainAuditCheckpoints, describeCheckpointChain, describeMacCheckedCheckpoints } from './chain-audit.suite';
import { openMemoryPglite } from '../support/pglite-template';

async function open() {
  const client = await openMemoryPglite();
  return { client, close: () => client.close() };
}

describeChainAuditCheckpoints('PGlite', open);
describeCheckpointChain('PGlite', open);
describeMacCheckedCheckpoints('PGlite', open);
