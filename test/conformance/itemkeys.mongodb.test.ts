import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { MongoItemKeyStore } from '../../infra/keys/item-mongodb';
import { describeItemKeyStoreConformance } from './itemkeys.suite';

describeItemKeyStoreConformance('MongoDB', async () => {
  const client = await MongoClient.connect(process.env.MONGODB_URL!);
  const db = client.db(`cms_test_item_keys_${randomBytes(4).toString('hex')}`);
  return {
    store: new MongoItemKeyStore(db),
    close: async () => {
      await db.dropDatabase();
      await client.close();
    },
  };
});
