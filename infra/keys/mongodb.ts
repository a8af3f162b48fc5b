import type { Collection, Db } from 'mongodb';
import type { DataKeyStore } from './port';

interface DataKeyDocument {
  _id: string;
  wrapped: string;
  createdAt: Date;
}

interface LedgerDocument {
  _id: string;
  firstCreatedAt: Date;
}

export class MongoDataKeyStore implements DataKeyStore {
  private readonly keys: Collection<DataKeyDocument>;
  private readonly ledger: Collection<LedgerDocument>;

  constructor(db: Db) {
    this.keys = db.collection<DataKeyDocument>('kms_data_keys');
    this.ledger = db.collection<LedgerDocument>('kms_data_key_ledger');
  }

  async get(workspaceId: string): Promise<string | null> {
    return (await this.keys.findOne({ _id: workspaceId }))?.wrapped ?? null;
  }

  async putIfAbsent(workspaceId: string, wrapped: string): Promise<string | null> {
    const stored = await this.get(workspaceId);
    if (stored !== null) return stored;
    if ((await this.ledger.findOne({ _id: workspaceId })) !== null) return null;
    await this.enter(workspaceId);
    await this.keys.updateOne({ _id: workspaceId }, { $setOnInsert: { wrapped, createdAt: new Date() } }, { upsert: true });
    const kept = await this.get(workspaceId);
    if (kept === null) throw new Error(`data key of workspace ${workspaceId} vanished while being stored`);
    return kept;
  }

  async delete(workspaceId: string): Promise<void> {
    // Keys stored before the ledger existed are entered when shredded.
    await this.enter(workspaceId);
    await this.keys.deleteOne({ _id: workspaceId });
  }

  async isGone(workspaceId: string): Promise<boolean> {
    return (await this.ledger.findOne({ _id: workspaceId })) !== null && (await this.get(workspaceId)) === null;
  }

  async replaceGone(workspaceId: string, wrapped: string): Promise<boolean> {
    await this.enter(workspaceId);
    await this.keys.updateOne({ _id: workspaceId }, { $setOnInsert: { wrapped, createdAt: new Date() } }, { upsert: true });
    return (await this.get(workspaceId)) === wrapped;
  }

  private async enter(workspaceId: string): Promise<void> {
    await this.ledger.updateOne({ _id: workspaceId }, { $setOnInsert: { firstCreatedAt: new Date() } }, { upsert: true });
  }
}
