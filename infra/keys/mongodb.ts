import type { Collection, Db } from 'mongodb';
import type { DataKeyStore } from './port';

interface DataKeyDocument {
  _id: string;
  wrapped: string;
  createdAt: Date;
}

export class MongoDataKeyStore implements DataKeyStore {
  private readonly keys: Collection<DataKeyDocument>;

  constructor(db: Db) {
    this.keys = db.collection<DataKeyDocument>('kms_data_keys');
  }

  async get(workspaceId: string): Promise<string | null> {
    return (await this.keys.findOne({ _id: workspaceId }))?.wrapped ?? null;
  }

  async putIfAbsent(workspaceId: string, wrapped: string): Promise<string> {
    await this.keys.updateOne({ _id: workspaceId }, { $setOnInsert: { wrapped, createdAt: new Date() } }, { upsert: true });
    const stored = await this.get(workspaceId);
    if (stored === null) throw new Error(`data key of workspace ${workspaceId} vanished while being stored`);
    return stored;
  }

  async delete(workspaceId: string): Promise<void> {
    await this.keys.deleteOne({ _id: workspaceId });
  }
}
