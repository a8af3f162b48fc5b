import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoLeaseStore } from '../../infra/lease/mongodb';
import { describeLeaseStoreConformance } from './lease.suite';

describeLeaseStoreConformance('MongoDB', async () => {
  const client = await MongoClient.connect(process.env.MONGODB_URL!);
  const db = client.db(`cms_test_leases_${randomBytes(4).toString('hex')}`);
  return {
    open: async () => new MongoLeaseStore(db),
    tearDown: async () => {
      await db.dropDatabase();
      await client.close();
    },
  };
});
