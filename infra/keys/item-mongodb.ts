import type { Collection, Db } from 'mongodb';
import type { ItemKeyStore } from './item-port';

interface ItemKeyDocument {
  /** `${workspaceId}:${itemId}` */
  _id: string;
  workspaceId: string;
  itemId: string;
  wrapped: string | null;
  createdAt: Date;
  shreddedAt: Date | null;
}

export class MongoItemKeyStore implements ItemKeyStore {
  private readonly keys: Collection<ItemKeyDocument>;

  constructor(db: Db) {
    this.keys = db.collection<ItemKeyDocument>('kms_item_keys');
  }

  async get(workspaceId: string, itemIds: readonly string[]): Promise<Map<string, string>> {
    if (itemIds.length === 0) return new Map();
    const documents = await this.keys.find({ _id: { $in: itemIds.map((itemId) => `${workspaceId}:${itemId}`) }, wrapped: { $ne: null } }).toArray();
    return new Map(documents.map((document) => [document.itemId, document.wrapped!]));
  }

  async putIfAbsent(workspaceId: string, itemId: string, wrapped: string): Promise<string | null> {
    const _id = `${workspaceId}:${itemId}`;
    await this.keys.updateOne({ _id }, { $setOnInsert: { workspaceId, itemId, wrapped, createdAt: new Date(), shreddedAt: null } }, { upsert: true });
    return (await this.keys.findOne({ _id }))?.wrapped ?? null;
  }

  async shred(workspaceId: string, itemId: string): Promise<void> {
    const _id = `${workspaceId}:${itemId}`;
    await this.keys.updateOne({ _id }, { $setOnInsert: { workspaceId, itemId, createdAt: new Date() }, $set: { wrapped: null } }, { upsert: true });
    await this.keys.updateOne({ _id, shreddedAt: null }, { $set: { shreddedAt: new Date() } });
  }

  async list(workspaceId: string): Promise<{ itemId: string; wrapped: string }[]> {
    const documents = await this.keys.find({ workspaceId, wrapped: { $ne: null } }).sort({ itemId: 1 }).toArray();
    return documents.map((document) => ({ itemId: document.itemId, wrapped: document.wrapped! }));
  }
}
