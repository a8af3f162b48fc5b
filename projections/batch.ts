import type { RecordedEvent } from '../infra/eventstore/port';
import type { Change, Document, ReadStore } from '../infra/readstore/port';
import { type DocumentKey, handles, type Projector, type ReadView } from './projector';
import { ThreadSlices } from '../infra/thread-slices';
import { WrittenDocuments } from './written-documents';

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
  /** The projectors of a list that take an event type, worked out once per list and type. */
  private readonly handling = new WeakMap<readonly Projector[], Map<string, readonly Projector[]>>();
  /** The documents the last drain changed (null: deleted): they may not be written yet. */
  private carried = new Map<string, Document | null>();
  /** In fresh mode: what this batch has written, so that it rarely reads it back. */
  private readonly written: WrittenDocuments | null;

  /**
   * The caller may drain again before the previous drain's changes are applied (the daemon and
   * a rebuild write one batch while they project the next): the next drain reads those
   * documents from this batch, not from the store. Only the last drain's changes are carried
   * so: the caller applies a drain's changes before it starts applying the next one's, so by
   * the drain after next they are in the store.
   *
   * `fresh`: the collections started empty and only this batch writes them (a rebuild).
   * Documents written earlier are then looked up in WrittenDocuments before the store.
   */
  constructor(
    private readonly store: ReadStore,
    private readonly storageName: (collection: string) => string,
    private readonly fresh = false,
  ) {
    this.written = fresh ? new WrittenDocuments() : null;
  }

  get size(): number {
    return this.pending.length;
  }

  /** Buffers `event` for the projectors among `projectors` that handle its type. */
  add(projectors: readonly Projector[], event: RecordedEvent): void {
    let byType = this.handling.get(projectors);
    if (!byType) this.handling.set(projectors, (byType = new Map()));
    let handling = byType.get(event.type);
    if (!handling) byType.set(event.type, (handling = projectors.filter((projector) => handles(projector, event.type))));
    this.pending.push({ projectors: handling, event });
  }

  /** Projects everything buffered, in order; returns the changes and starts afresh. */
  async drain(): Promise<Change[]> {
    const pending = this.pending;
    this.pending = [];
    const known = await this.prefetch(pending);
    const changed = new Map<string, Document | null>();
    const changes: Change[] = [];
    const view: ReadView = {
      get: async <T extends Document>(collection: string, id: string) => {
        const key = keyOf(this.storageName(collection), id);
        if (known.has(key) || this.fromMemory(known, key)) return (known.get(key) ?? null) as T | null;
        const loaded = await this.store.get<T>(this.storageName(collection), id);
        known.set(key, loaded);
        return loaded;
      },
    };
    // Projectors rarely wait for anything: a big batch (a rebuild, or a few events of 100,000 characters) would hold the event loop.
    const slices = new ThreadSlices();
    for (const { projectors, event } of pending) {
      await slices.next();
      for (const projector of projectors) {
        for (const change of await projector.project(event, view)) {
          const collection = this.storageName(change.collection);
          changes.push(collection === change.collection ? change : { ...change, collection });
          const key = keyOf(collection, change.kind === 'upsert' ? change.document.id : change.id);
          const document = change.kind === 'upsert' ? change.document : null;
          known.set(key, document);
          changed.set(key, document);
          this.written?.remember(key, document);
        }
      }
    }
    this.carried = changed;
    return changes;
  }

  /**
   * Documents (or their absence, as null) by storage key: those the projectors declare from the
   * events, then those they declare from what the first load found (prefetchFollowing).
   */
  private async prefetch(pending: readonly Pending[]): Promise<Map<string, Document | null>> {
    const known = new Map(this.carried);
    await this.load(known, await this.wanted(pending, (projector, event) => projector.prefetch?.(event) ?? []));
    const found = (collection: string, id: string) => known.get(keyOf(this.storageName(collection), id));
    await this.load(known, await this.wanted(pending, (projector, event) => projector.prefetchFollowing?.(event, found) ?? []));
    return known;
  }

  private async wanted(pending: readonly Pending[], keys: (projector: Projector, event: RecordedEvent) => readonly DocumentKey[]): Promise<Map<string, Set<string>>> {
    const wanted = new Map<string, Set<string>>();
    const slices = new ThreadSlices();
    for (const { projectors, event } of pending) {
      await slices.next();
      for (const projector of projectors) {
        for (const key of keys(projector, event)) {
          const collection = this.storageName(key.collection);
          wanted.set(collection, (wanted.get(collection) ?? new Set()).add(key.id));
        }
      }
    }
    return wanted;
  }

  /** The wanted documents not known yet, every collection in one read (getManyAcross). */
  private async load(known: Map<string, Document | null>, wanted: ReadonlyMap<string, ReadonlySet<string>>): Promise<void> {
    const unknown = new Map<string, string[]>();
    for (const [collection, wantedIds] of wanted) {
      const ids = [...wantedIds].filter((id) => !known.has(keyOf(collection, id)) && !this.fromMemory(known, keyOf(collection, id)));
      if (ids.length === 0) continue;
      for (const id of ids) known.set(keyOf(collection, id), null);
      unknown.set(collection, ids);
    }
    if (unknown.size === 0) return;
    for (const [collection, documents] of await this.store.getManyAcross(unknown)) {
      for (const document of documents) known.set(keyOf(collection, document.id), document);
    }
  }

  /** In fresh mode, puts what WrittenDocuments knows of `key` into `known`; true when it knew. */
  private fromMemory(known: Map<string, Document | null>, key: string): boolean {
    const document = this.written?.lookup(key);
    if (document === undefined) return false;
    known.set(key, document);
    return true;
  }
}

const keyOf = (collection: string, id: string) => `${collection}\u0000${id}`;
