import type { Collection, Db } from 'mongodb';
import type { DataKeyStore } from './port';

/** How long a put waits for the key of a racing put that entered the workspace first. */
const RACE_ATTEMPTS = 5;
const RACE_WAIT_MS = 20;

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
    const entered = await this.ledger.updateOne({ _id: workspaceId }, { $setOnInsert: { firstCreatedAt: new Date() } }, { upsert: true });
    if (entered.upsertedCount === 1) {
      await this.keys.updateOne({ _id: workspaceId }, { $setOnInsert: { wrapped, createdAt: new Date() } }, { upsert: true });
      return this.get(workspaceId);
    }
    // Another put entered the workspace: its key follows at once, unless the workspace had a key that is gone.
    for (let attempt = 0; attempt < RACE_ATTEMPTS; attempt++) {
      const raced = await this.get(workspaceId);
      if (raced !== null) return raced;
      await new Promise((resolve) => setTimeout(resolve, RACE_WAIT_MS));
    }
    return null;
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
