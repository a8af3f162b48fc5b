import { PgliteSqlClient } from '../../infra/sql/pglite-client';
import { describeChainAuditCheckpoints, describeCheckpointChain } from './chain-audit.suite';

async function open() {
  const client = await PgliteSqlClient.open();
  return { client, close: () => client.close() };
}

describeChainAuditCheckpoints('PGlite', open);
describeCheckpointChain('PGlite', open);
