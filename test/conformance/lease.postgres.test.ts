import { PostgresLeaseStore } from '../../infra/lease/postgres';
import { createTestDatabase } from '../support/postgres';
import { describeLeaseStoreConformance } from './lease.suite';

describeLeaseStoreConformance('PostgreSQL advisory locks', async () => {
  const database = await createTestDatabase();
  return { open: async () => new PostgresLeaseStore(database.url), tearDown: () => database.drop() };
});
