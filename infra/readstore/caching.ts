import type { Position } from '../eventstore/port';
import type { Change, Checkpoint, Document, IndexDefinition, ReadStore } from './port';
import type { AggregateGroup, AggregateGroupQuery, AggregateQuery, FindQuery, FindResult } from './query';

/**
 * Serves `get` of chosen collections from memory. Every write of this process goes
 * through `apply`, `swapCollections` or `dropCollection` here and evicts what it touches,
 * so a cached document is never older than this process's own projections. Bounded: the
 * least recently used entries go first.
 */
export class CachingReadStore implements ReadStore {
  private readonly entries = new Map<string, Document | null>();

  constructor(
    private readonly inner: ReadStore,
    private readonly isCached: (collection: string) => boolean,
    private readonly maxEntries = 10_000,
  ) {}

  async get<T extends Document>(collection: string, id: string): Promise<T | null> {
    if (!this.isCached(collection)) return this.inner.get<T>(collection, id);
    const key = cacheKey(collection, id);
    if (this.entries.has(key)) {
      const hit = this.entries.get(key) ?? null;
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit as T | null;
    }
    const generation = this.generation;
    const loaded = await this.inner.get<T>(collection, id);
    // A write that landed while loading may have evicted this key already; do not resurrect the old value.
    if (generation === this.generation) this.remember(key, loaded);
    return loaded;
  }

  getMany<T extends Document>(collection: string, ids: readonly string[]): Promise<T[]> {
    return this.inner.getMany<T>(collection, ids);
  }

  async apply(changes: readonly Change[], checkpoints?: readonly Checkpoint[]): Promise<void> {
    this.generation++;
    try {
      await this.inner.apply(changes, checkpoints);
    } finally {
      for (const change of changes) this.entries.delete(cacheKey(change.collection, change.kind === 'upsert' ? change.document.id : change.id));
    }
  }

  async dropCollection(name: string): Promise<void> {
    this.clear();
    await this.inner.dropCollection(name);
  }

  async swapCollections(renames: readonly { from: string; to: string }[], checkpoint: { from: string; to: string }): Promise<void> {
    this.clear();
    try {
      await this.inner.swapCollections(renames, checkpoint);
    } finally {
      this.clear();
    }
  }

  ensureCollection(name: string, indexes: readonly IndexDefinition[]): Promise<void> {
    return this.inner.ensureCollection(name, indexes);
  }
  find<T extends Document>(collection: string, query: FindQuery): Promise<FindResult<T>> {
    return this.inner.find<T>(collection, query);
  }
  findIds(collection: string, query: FindQuery): Promise<FindResult<string>> {
    return this.inner.findIds(collection, query);
  }
  count(collection: string, query: Pick<FindQuery, 'filter'>): Promise<number> {
    return this.inner.count(collection, query);
  }
  aggregate(collection: string, query: AggregateQuery): Promise<number | null> {
    return this.inner.aggregate(collection, query);
  }
  aggregateGroups(collection: string, query: AggregateGroupQuery): Promise<AggregateGroup[]> {
    return this.inner.aggregateGroups(collection, query);
  }
  getCheckpoint(name: string): Promise<Position | null> {
    return this.inner.getCheckpoint(name);
  }
  listCheckpoints(): Promise<Checkpoint[]> {
    return this.inner.listCheckpoints();
  }
  deleteCheckpoint(name: string): Promise<void> {
    return this.inner.deleteCheckpoint(name);
  }
  ping(): Promise<boolean> {
    return this.inner.ping();
  }
  close(): Promise<void> {
    return this.inner.close();
  }

  private generation = 0;

  private remember(key: string, document: Document | null): void {
    this.entries.set(key, document);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  private clear(): void {
    this.generation++;
    this.entries.clear();
  }
}

const cacheKey = (collection: string, id: string) => `${collection}\u0000${id}`;
