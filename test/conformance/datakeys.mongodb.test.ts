import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoDataKeyStore } from '../../infra/keys/mongodb';
import { describeDataKeyStoreConformance } from './datakeys.suite';

describeDataKeyStoreConformance('MongoDB', async () => {
  const client = await MongoClient.connect(process.env.MONGODB_URL!);
  const db = client.db(`cms_test_keys_${randomBytes(4).toString('hex')}`);
  return {
    store: new MongoDataKeyStore(db),
    close: async () => {
      await db.dropDatabase();
      await client.close();
    },
  };
});
