import { randomBytes } from 'node:crypto';
import { MongoReadStore } from '../../infra/readstore/mongodb';
import { describeReadStoreConformance } from './readstore.suite';

// The queries in causally consistent sessions on the secondaries MONGODB_URL's replica set has (on
// a single-member set, as docker-compose.yml starts, the same sessions on the primary): the answers
// of the primary, each read after the writes before it. Not run on this project's machines (no MongoDB).
describeReadStoreConformance('MongoDB, queries on secondaries', async () => {
  const url = process.env.MONGODB_URL!;
  const databaseName = `readstore_test_${randomBytes(6).toString('hex')}`;
  const store = await MongoReadStore.connect(url, databaseName, { reads: { preference: 'secondaryPreferred', maxLagMs: 5000 } });
  return {
    store,
    close: async () => {
      await store.database.dropDatabase();
      await store.close();
    },
  };
});
