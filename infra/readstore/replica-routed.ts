import type { Position } from '../eventstore/port';
import type { Change, Checkpoint, CollectionLayout, ColumnDefinition, Document, IndexChanges, IndexDefinition, ReadStore } from './port';
import type { AggregateGroup, AggregateGroupQuery, AggregateQuery, FindQuery, FindResult } from './query';
import type { Replica, ReplicaSet } from './replicas';

/** A replica's read store: it also forgets what it read of tables the primary's store dropped or replaced. */
export interface ReplicaReadStore extends ReadStore {
  forgetTables(names: readonly string[]): void;
}

/** SQLSTATE query_canceled: the read timeout, which the primary would reach as well. */
const QUERY_CANCELED = '57014';
/** Connection exceptions (08), the server shutting down or starting (57P), and the socket's own errors. */
const CONNECTION_LOST = /^(08|57P|E[A-Z]+$)/;

/**
 * Sends the queries of the read store (find, list, ids, counts, aggregates) to a replica in
 * rotation, and everything else to the primary: writes, checkpoints, DDL, and reads by id, which
 * the projections read their documents with and which the read cache serves for the hot
 * collections. A query a replica fails runs again on the primary (a read timeout excepted); one
 * that failed for want of a connection also takes the replica out of rotation.
 */
export class ReplicaRoutedReadStore implements ReadStore {
  constructor(
    private readonly primary: ReadStore,
    private readonly replicas: ReplicaSet,
    private readonly replicaStores: ReadonlyMap<Replica, ReplicaReadStore>,
  ) {}

  find<T extends Document>(collection: string, query: FindQuery): Promise<FindResult<T>> {
    return this.query((store) => store.find<T>(collection, query));
  }
  list<T extends Document>(collection: string, query: FindQuery): Promise<T[]> {
    return this.query((store) => store.list<T>(collection, query));
  }
  findIds(collection: string, query: FindQuery): Promise<FindResult<string>> {
    return this.query((store) => store.findIds(collection, query));
  }
  listIds(collection: string, query: FindQuery): Promise<string[]> {
    return this.query((store) => store.listIds(collection, query));
  }
  count(collection: string, query: Pick<FindQuery, 'filter'>): Promise<number> {
    return this.query((store) => store.count(collection, query));
  }
  aggregate(collection: string, query: AggregateQuery): Promise<number | null> {
    return this.query((store) => store.aggregate(collection, query));
  }
  aggregateGroups(collection: string, query: AggregateGroupQuery): Promise<AggregateGroup[]> {
    return this.query((store) => store.aggregateGroups(collection, query));
  }

  get<T extends Document>(collection: string, id: string): Promise<T | null> {
    return this.primary.get<T>(collection, id);
  }
  getMany<T extends Document>(collection: string, ids: readonly string[]): Promise<T[]> {
    return this.primary.getMany<T>(collection, ids);
  }
  getManyAcross(wanted: ReadonlyMap<string, readonly string[]>): Promise<Map<string, Document[]>> {
    return this.primary.getManyAcross(wanted);
  }

  /** The write commits on the primary; the queries after it wait for the replicas to replay it. */
  async apply(changes: readonly Change[], checkpoints?: readonly Checkpoint[]): Promise<void> {
    try {
      await this.primary.apply(changes, checkpoints);
    } finally {
      this.replicas.fence();
    }
  }
  async swapCollections(renames: readonly { readonly from: string; readonly to: string }[], checkpoint: { readonly from: string; readonly to: string }): Promise<void> {
    try {
      await this.primary.swapCollections(renames, checkpoint);
    } finally {
      this.forgetTables(renames.flatMap((rename) => [rename.from, rename.to]));
      this.replicas.fence();
    }
  }
  async dropCollection(name: string): Promise<void> {
    try {
      await this.primary.dropCollection(name);
    } finally {
      this.forgetTables([name]);
      this.replicas.fence();
    }
  }

  private forgetTables(names: readonly string[]): void {
    for (const store of this.replicaStores.values()) store.forgetTables(names);
  }

  /** Tables, indexes and counts made on the primary: the queries after them wait for the replicas to have them too. */
  async ensureCollection(name: string, indexes: readonly IndexDefinition[], columns?: readonly ColumnDefinition[], layout?: CollectionLayout): Promise<void> {
    await this.primary.ensureCollection(name, indexes, columns, layout);
    this.replicas.fence();
  }
  async ensureIndexes(name: string, group: string, indexes: readonly IndexDefinition[]): Promise<IndexChanges> {
    const changes = await this.primary.ensureIndexes(name, group, indexes);
    this.replicas.fence();
    return changes;
  }
  async ensureCounts(name: string, group: string, fieldSets: readonly (readonly string[])[]): Promise<void> {
    await this.primary.ensureCounts(name, group, fieldSets);
    this.replicas.fence();
  }
  /** Each server counts the scans it ran: the primary's figures and those of the replicas that answer, added up. */
  async indexScans(name: string, group: string, indexes: readonly IndexDefinition[]): Promise<(number | null)[]> {
    const [primary, ...replicas] = await Promise.all([
      this.primary.indexScans(name, group, indexes),
      ...[...this.replicaStores.values()].map((store) => store.indexScans(name, group, indexes).catch(() => indexes.map(() => null))),
    ]);
    return primary!.map((scans, index) => (scans === null ? null : replicas.reduce((sum, counted) => sum + (counted[index] ?? 0), scans)));
  }
  analyzeCollection(name: string): Promise<void> {
    return this.primary.analyzeCollection(name);
  }
  getCheckpoint(name: string): Promise<Position | null> {
    return this.primary.getCheckpoint(name);
  }
  listCheckpoints(): Promise<Checkpoint[]> {
    return this.primary.listCheckpoints();
  }
  deleteCheckpoint(name: string): Promise<void> {
    return this.primary.deleteCheckpoint(name);
  }
  ping(): Promise<boolean> {
    return this.primary.ping();
  }
  close(): Promise<void> {
    return this.primary.close();
  }

  private async query<T>(run: (store: ReadStore) => Promise<T>): Promise<T> {
    const replica = await this.replicas.pick();
    const store = replica && this.replicaStores.get(replica);
    if (!replica || !store) return run(this.primary);
    try {
      return await run(store);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === QUERY_CANCELED) throw error;
      if (typeof code === 'string' && CONNECTION_LOST.test(code)) this.replicas.lost(replica);
      return run(this.primary);
    }
  }
}
