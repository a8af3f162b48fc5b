import { Lru } from '../lru';
import type { Position } from '../eventstore/port';
import type { Change, Checkpoint, CollectionLayout, ColumnDefinition, Document, IndexChanges, IndexDefinition, ReadStore } from './port';
import type { AggregateGroup, AggregateGroupQuery, AggregateQuery, Filter, FindQuery, FindResult } from './query';

export interface CachingOptions {
  /** Collections whose documents are served by id from memory. */
  readonly cacheGets: (collection: string) => boolean;
  /** Collections whose query results (find, ids, counts, aggregates) are served from memory. */
  readonly cacheQueries: (collection: string) => boolean;
  /**
   * The field whose value splits a collection's cached query results into partitions (e.g.
   * `workspaceId`): a query that pins it by equality is retired only by writes of documents with
   * that value, so one tenant's writes leave the others' cached results alone. The field's value
   * must never change for a document; a delete, or a document without the field, retires every
   * partition of the collection.
   */
  readonly partitionField?: (collection: string) => string | undefined;
  readonly maxDocuments?: number;
  /** Bound on cached query results, counted in documents or ids they hold (one for a count). */
  readonly maxQueryItems?: number;
}

/**
 * Serves reads of chosen collections from memory. Every write of this process goes through
 * `apply`, `swapCollections` or `dropCollection` here: a write evicts the documents it
 * touches and retires every cached query result of the collection, so nothing cached is
 * older than this process's own projections. Both caches are bounded, least recently used
 * first. Results are shared between callers, who must not change them.
 */
export class CachingReadStore implements ReadStore {
  private readonly documents: Lru<Document | null>;
  private readonly queries: Lru<unknown>;
  /**
   * Bumped by writes; a result cached under an older generation is never served. Keyed by
   * collection (every write to it), by `partitionKey(collection, value)` (writes of documents with
   * that partition value) and by `everyPartition(collection)` (writes that may touch any partition).
   */
  private readonly generations = new Map<string, number>();
  /**
   * Bumped by every swap and drop, which may replace any collection (one this process never wrote
   * included): a load begun before is neither kept nor joined by a read after.
   */
  private epoch = 0;
  /** Loads under way, so that concurrent identical misses share one query instead of stampeding the store. */
  private readonly loading = new Map<string, Promise<unknown>>();
  /** Asked before anything is served from memory; see awaitBeforeServing. */
  private beforeServing: () => Promise<void> | null = () => null;
  /** Told of every write of this process to a collection, for memory kept outside this wrapper. */
  private readonly writeListeners = new Map<string, (() => void)[]>();

  constructor(
    private readonly inner: ReadStore,
    private readonly options: CachingOptions,
  ) {
    this.documents = new Lru(options.maxDocuments ?? 10_000);
    this.queries = new Lru(options.maxQueryItems ?? 50_000);
  }

  async get<T extends Document>(collection: string, id: string): Promise<T | null> {
    if (!this.options.cacheGets(collection)) return this.inner.get<T>(collection, id);
    return this.cached(this.documents as Lru<T | null>, () => this.generation(collection), () => key(collection, id), () => this.inner.get<T>(collection, id), () => 1);
  }

  find<T extends Document>(collection: string, query: FindQuery): Promise<FindResult<T>> {
    return this.cachedQuery(collection, 'find', query, () => this.inner.find<T>(collection, query), (result) => result.items.length + 1);
  }
  list<T extends Document>(collection: string, query: FindQuery): Promise<T[]> {
    return this.cachedQuery(collection, 'list', query, () => this.inner.list<T>(collection, query), (items) => items.length + 1);
  }
  findIds(collection: string, query: FindQuery): Promise<FindResult<string>> {
    return this.cachedQuery(collection, 'ids', query, () => this.inner.findIds(collection, query), (result) => result.items.length + 1);
  }
  listIds(collection: string, query: FindQuery): Promise<string[]> {
    return this.cachedQuery(collection, 'listIds', query, () => this.inner.listIds(collection, query), (ids) => ids.length + 1);
  }
  count(collection: string, query: Pick<FindQuery, 'filter'>): Promise<number> {
    return this.cachedQuery(collection, 'count', query, () => this.inner.count(collection, query), () => 1);
  }
  aggregate(collection: string, query: AggregateQuery): Promise<number | null> {
    return this.cachedQuery(collection, 'aggregate', query, () => this.inner.aggregate(collection, query), () => 1);
  }
  aggregateGroups(collection: string, query: AggregateGroupQuery): Promise<AggregateGroup[]> {
    return this.cachedQuery(collection, 'groups', query, () => this.inner.aggregateGroups(collection, query), (groups) => groups.length + 1);
  }

  getMany<T extends Document>(collection: string, ids: readonly string[]): Promise<T[]> {
    return this.inner.getMany<T>(collection, ids);
  }
  getManyAcross(wanted: ReadonlyMap<string, readonly string[]>): Promise<Map<string, Document[]>> {
    return this.inner.getManyAcross(wanted);
  }

  async apply(changes: readonly Change[], checkpoints?: readonly Checkpoint[]): Promise<void> {
    const touched = new Set(changes.map((change) => change.collection));
    const partitions = new Set(changes.map((change) => this.partitionTouched(change)));
    // Results of no partition, and those of the partitions written (or of all, see partitionTouched).
    const retireWritten = () => {
      touched.forEach((collection) => this.written(collection));
      partitions.forEach((partition) => this.bump(partition));
    };
    retireWritten();
    try {
      await this.inner.apply(changes, checkpoints);
    } finally {
      retireWritten();
      // Documents are only cached for some collections: a rebuild's writes (a million at a time) touch none of them.
      const cachedDocuments = new Set([...touched].filter((collection) => this.options.cacheGets(collection)));
      for (const change of changes) {
        if (cachedDocuments.has(change.collection)) this.documents.delete(key(change.collection, change.kind === 'upsert' ? change.document.id : change.id));
      }
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

  ensureCollection(name: string, indexes: readonly IndexDefinition[], columns?: readonly ColumnDefinition[], layout?: CollectionLayout): Promise<void> {
    return this.inner.ensureCollection(name, indexes, columns, layout);
  }
  /** An index changes how a query is answered, never what it answers: nothing cached is retired. */
  ensureIndexes(name: string, group: string, indexes: readonly IndexDefinition[]): Promise<IndexChanges> {
    return this.inner.ensureIndexes(name, group, indexes);
  }
  /** Kept counts change how a total is answered, never what it answers. */
  ensureCounts(name: string, group: string, fieldSets: readonly (readonly string[])[]): Promise<void> {
    return this.inner.ensureCounts(name, group, fieldSets);
  }
  indexScans(name: string, group: string, indexes: readonly IndexDefinition[]): Promise<(number | null)[]> {
    return this.inner.indexScans(name, group, indexes);
  }

  analyzeCollection(name: string): Promise<void> {
    return this.inner.analyzeCollection(name);
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

  private cachedQuery<T>(collection: string, kind: string, query: { readonly filter?: Filter }, load: () => Promise<T>, weight: (result: T) => number): Promise<T> {
    if (!this.options.cacheQueries(collection)) return load();
    const partition = this.partitionOf(collection, query.filter);
    // The generation is part of the key: a write that may change the result retires it at once.
    const generation = () => (partition === undefined ? this.generation(collection) : `${this.generation(everyPartition(collection))}.${this.generation(partitionKey(collection, partition))}`);
    return this.cached(this.queries as Lru<T>, generation, (current) => key(collection, `${current}\u0000${JSON.stringify([kind, query])}`), load, weight);
  }

  /** The partition value a filter pins by equality (alone, or as one condition of a top-level `and`). */
  private partitionOf(collection: string, filter: Filter | undefined): string | undefined {
    const field = this.options.partitionField?.(collection);
    if (field === undefined || filter === undefined) return undefined;
    const pins = (candidate: Filter) => candidate.type === 'condition' && candidate.field === field && candidate.operator === 'e' && typeof candidate.value === 'string';
    const pinned = pins(filter) ? filter : filter.type === 'and' ? filter.conditions.find(pins) : undefined;
    return pinned?.type === 'condition' ? (pinned.value as string) : undefined;
  }

  private generation(name: string): string {
    return String(this.generations.get(name) ?? 0);
  }

  /** Serves from `cache`, or loads and remembers unless a write that may change it happened while loading. */
  private async cached<T>(cache: Lru<T>, generationNow: () => string, entryKeyAt: (generation: string) => string, load: () => Promise<T>, weight: (result: T) => number): Promise<T> {
    const waiting = this.beforeServing();
    if (waiting) await waiting;
    const generation = generationNow();
    const entryKey = entryKeyAt(generation);
    const epoch = this.epoch;
    const hit = cache.get(entryKey);
    if (hit !== undefined) return hit.value;
    const flightKey = `${epoch}\u0000${generation}\u0000${entryKey}`;
    const inFlight = this.loading.get(flightKey) as Promise<T> | undefined;
    if (inFlight) return inFlight;
    const loading = load().then((loaded) => {
      if (generationNow() === generation && this.epoch === epoch) cache.set(entryKey, loaded, weight(loaded));
      return loaded;
    });
    this.loading.set(flightKey, loading);
    try {
      return await loading;
    } finally {
      this.loading.delete(flightKey);
    }
  }

  /**
   * Another instance wrote `collections` (and, of those cached by id, `documents`): what is cached
   * of them is retired as after a write of this process. `everything` forgets all, as after a swap.
   */
  forget(collections: readonly string[], documents: readonly { readonly collection: string; readonly id: string }[] | 'everything'): void {
    if (documents === 'everything') return this.clear();
    collections.forEach((collection) => this.retire(collection));
    for (const document of documents) this.documents.delete(key(document.collection, document.id));
  }

  /**
   * `check` runs before each read that may be served from memory and may return a promise to wait
   * for: on an instance that does not write the read models, until it has heard of every write
   * committed before the read began (see forget), so that nothing it serves is older.
   */
  awaitBeforeServing(check: () => Promise<void> | null): void {
    this.beforeServing = check;
  }

  /**
   * Calls `listener` whenever this process writes `collection` (before the write and once it is
   * done, like the retirement of cached results), and on every swap or drop of a collection.
   */
  onWrite(collection: string, listener: () => void): void {
    this.writeListeners.set(collection, [...(this.writeListeners.get(collection) ?? []), listener]);
  }

  /** Every cached result of `collection`, of every partition. */
  private retire(collection: string): void {
    this.bump(everyPartition(collection));
    this.written(collection);
  }

  /** Retires the results of `collection` that no partition holds, and tells the listeners. */
  private written(collection: string): void {
    this.bump(collection);
    this.writeListeners.get(collection)?.forEach((listener) => listener());
  }

  /** The generation a change retires besides its collection's: its document's partition, or every partition. */
  private partitionTouched(change: Change): string {
    const field = this.options.partitionField?.(change.collection);
    const value = field !== undefined && change.kind === 'upsert' ? change.document[field] : undefined;
    return typeof value === 'string' ? partitionKey(change.collection, value) : everyPartition(change.collection);
  }

  private bump(name: string): void {
    this.generations.set(name, (this.generations.get(name) ?? 0) + 1);
  }

  private clear(): void {
    this.epoch += 1;
    for (const name of [...this.generations.keys()]) this.bump(name);
    for (const listeners of this.writeListeners.values()) listeners.forEach((listener) => listener());
    this.documents.clear();
    this.queries.clear();
  }
}

const key = (collection: string, rest: string) => `${collection}\u0000${rest}`;
const partitionKey = (collection: string, value: string) => `${collection}\u0000=${value}`;
const everyPartition = (collection: string) => `${collection}\u0000*`;
