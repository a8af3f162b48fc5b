import { randomUUID } from 'node:crypto';
import type { Collection, Db } from 'mongodb';
import type { LeaseStore } from './port';

interface LeaseDocument {
  _id: string;
  holder: string;
  expiresAt: Date;
}

/** How long a lease lasts without being confirmed; a crashed holder's lease is taken over after this. */
export const MONGO_LEASE_TTL_MS = 15_000;

/** Leases as documents with an expiry, renewed by `confirm`; taken over once expired. */
export class MongoLeaseStore implements LeaseStore {
  private readonly holder = randomUUID();
  private readonly leases: Collection<LeaseDocument>;
  private readonly held = new Set<string>();

  constructor(database: Db) {
    this.leases = database.collection<LeaseDocument>('leases');
  }

  async tryAcquire(name: string): Promise<boolean> {
    const now = new Date();
    try {
      const taken = await this.leases.findOneAndUpdate(
        { _id: name, $or: [{ holder: this.holder }, { expiresAt: { $lt: now } }] },
        { $set: { holder: this.holder, expiresAt: new Date(now.getTime() + MONGO_LEASE_TTL_MS) } },
        { upsert: true, returnDocument: 'after' },
      );
      if (taken?.holder !== this.holder) return false;
      this.held.add(name);
      return true;
    } catch (error) {
      // The upsert of a lease someone else holds collides with their document.
      if ((error as { code?: number }).code === 11000) return false;
      throw error;
    }
  }

  async confirm(name: string): Promise<boolean> {
    if (!this.held.has(name)) return false;
    const renewed = await this.tryAcquire(name);
    if (!renewed) this.held.delete(name);
    return renewed;
  }

  async release(name: string): Promise<void> {
    if (!this.held.delete(name)) return;
    await this.leases.deleteOne({ _id: name, holder: this.holder });
  }

  async close(): Promise<void> {
    for (const name of [...this.held]) await this.release(name);
  }
}
