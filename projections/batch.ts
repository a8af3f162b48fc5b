import type { RecordedEvent } from '../infra/eventstore/port';
import type { Change, Document, ReadStore } from '../infra/readstore/port';
import type { Projector, ReadView } from './projector';

/**
 * Accumulates the changes of several events for one write. Collection names are mapped
 * to their storage names (live or rebuild), and reads see the pending changes first, so a
 * projector reading a document it changed earlier in the batch sees that change.
 */
export class ProjectionBatch {
  private readonly changes: Change[] = [];
  private readonly pending = new Map<string, Document | null>();
  private eventCount = 0;

  constructor(
    private readonly store: ReadStore,
    private readonly storageName: (collection: string) => string,
  ) {}

  get size(): number {
    return this.eventCount;
  }

  async add(projector: Projector, event: RecordedEvent): Promise<void> {
    this.eventCount++;
    if (!projector.eventTypes.has(event.type)) return;
    for (const change of await projector.project(event, this.view)) {
      const collection = this.storageName(change.collection);
      if (change.kind === 'upsert') {
        this.changes.push({ ...change, collection });
        this.pending.set(`${collection}\u0000${change.document.id}`, change.document);
      } else {
        this.changes.push({ ...change, collection });
        this.pending.set(`${collection}\u0000${change.id}`, null);
      }
    }
  }

  /** The accumulated changes, and a fresh start. */
  drain(): Change[] {
    const drained = this.changes.splice(0);
    this.pending.clear();
    this.eventCount = 0;
    return drained;
  }

  private readonly view: ReadView = {
    get: async <T extends Document>(collection: string, id: string) => {
      const name = this.storageName(collection);
      const key = `${name}\u0000${id}`;
      if (this.pending.has(key)) return (this.pending.get(key) ?? null) as T | null;
      return this.store.get<T>(name, id);
    },
  };
}
