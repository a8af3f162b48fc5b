import type { RecordedEvent } from '../infra/eventstore/port';
import type { Change, Document, ReadStore } from '../infra/readstore/port';
import { handles, type Projector, type ReadView } from './projector';

interface Pending {
  readonly projectors: readonly Projector[];
  readonly event: RecordedEvent;
}

/**
 * Buffers events and projects them together when drained: the documents the projectors
 * declare they will read are loaded first, one query per collection, and reads during the
 * batch see the batch's own changes before the store. Collection names are mapped to their
 * storage names (live or rebuild).
 */
export class ProjectionBatch {
  private pending: Pending[] = [];

  constructor(
    private readonly store: ReadStore,
    private readonly storageName: (collection: string) => string,
  ) {}

  get size(): number {
    return this.pending.length;
  }

  /** Buffers `event` for the projectors among `projectors` that handle its type. */
  add(projectors: readonly Projector[], event: RecordedEvent): void {
    this.pending.push({ projectors: projectors.filter((projector) => handles(projector, event.type)), event });
  }

  /** Projects everything buffered, in order; returns the changes and starts afresh. */
  async drain(): Promise<Change[]> {
    const pending = this.pending;
    this.pending = [];
    const known = await this.prefetch(pending);
    const changes: Change[] = [];
    const view: ReadView = {
      get: async <T extends Document>(collection: string, id: string) => {
        const key = keyOf(this.storageName(collection), id);
        if (known.has(key)) return (known.get(key) ?? null) as T | null;
        const loaded = await this.store.get<T>(this.storageName(collection), id);
        known.set(key, loaded);
        return loaded;
      },
    };
    for (const { projectors, event } of pending) {
      for (const projector of projectors) {
        for (const change of await projector.project(event, view)) {
          const collection = this.storageName(change.collection);
          changes.push({ ...change, collection });
          known.set(keyOf(collection, change.kind === 'upsert' ? change.document.id : change.id), change.kind === 'upsert' ? change.document : null);
        }
      }
    }
    return changes;
  }

  /** Documents (or their absence, as null) by storage key. */
  private async prefetch(pending: readonly Pending[]): Promise<Map<string, Document | null>> {
    const wanted = new Map<string, Set<string>>();
    for (const { projectors, event } of pending) {
      for (const projector of projectors) {
        for (const key of projector.prefetch?.(event) ?? []) {
          const collection = this.storageName(key.collection);
          wanted.set(collection, (wanted.get(collection) ?? new Set()).add(key.id));
        }
      }
    }
    const known = new Map<string, Document | null>();
    await Promise.all(
      [...wanted].map(async ([collection, ids]) => {
        for (const id of ids) known.set(keyOf(collection, id), null);
        for (const document of await this.store.getMany(collection, [...ids])) known.set(keyOf(collection, document.id), document);
      }),
    );
    return known;
  }
}

const keyOf = (collection: string, id: string) => `${collection}\u0000${id}`;
