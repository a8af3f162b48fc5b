import { randomUUID } from 'node:crypto';
import { InProcessLeaseStore } from '../../infra/lease/in-process';
import { describeLeaseStoreConformance } from './lease.suite';

describeLeaseStoreConformance('in-process (embedded store)', async () => {
  const scope = `/tmp/lease-scope-${randomUUID()}`;
  return { open: async () => new InProcessLeaseStore(scope), tearDown: async () => undefined };
});
