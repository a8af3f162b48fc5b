import { randomBytes } from 'node:crypto';
import { MongoReadStore } from '../../infra/readstore/mongodb';
import { describeReadStoreConformance } from './readstore.suite';

// A database of its own, dropped afterwards, so runs against a shared server never meet.
describeReadStoreConformance('MongoDB', async () => {
  const url = process.env.MONGODB_URL!;
  const databaseName = `readstore_test_${randomBytes(6).toString('hex')}`;
  const store = await MongoReadStore.connect(url, databaseName);
  return {
    store,
    close: async () => {
      await store.database.dropDatabase();
      await store.close();
    },
  };
});
