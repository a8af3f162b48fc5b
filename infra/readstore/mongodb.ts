import { createHash } from 'node:crypto';
import { Decimal128, MongoClient, MongoServerError } from 'mongodb';
import type { AnyBulkWriteOperation, ClientSession, Collection, Db } from 'mongodb';
import type { Position } from '../eventstore/port';
import { groupStage, mongoFilter, mongoPath, mongoSort } from './mongodb-filter';
import type { StoredDocument } from './mongodb-filter';
import type { Change, Checkpoint, ColumnDefinition, Document, IndexChanges, IndexDefinition, ReadStore } from './port';
import { indexIdentity } from './index-identity';
import { type MongoColumns, mongoColumns, TYPED_FIELD, typedValues } from './mongodb-columns';
import { timedRead } from './mongodb-read-timeout';
import { PRIMARY_READS, type MongoReadPreference, type ReadRouting, SecondaryReads } from './mongodb-secondary-reads';
import { REPLICA_PROBE_MS } from './replicas';
import type { AggregateGroup, AggregateGroupQuery, AggregateOperation, AggregateQuery, FindQuery, FindResult, Scalar } from './query';

const COLLECTION_NAME = /^[a-z][a-z0-9_]*$/i;
const NAMESPACE_EXISTS = 48;
const INDEX_GROUP = /^[a-z][a-z0-9]{0,7}$/;

interface StoredCheckpoint {
  _id: string;
  /** Decimal strings: positions are unsigned 64-bit, beyond MongoDB's signed long. */
  commit: string;
  prepare: string;
}

/** The typed columns a collection was created with, so that any process finds them. */
interface StoredColumns {
  _id: string;
  columns: ColumnDefinition[];
}

interface GroupRow {
  _id: Scalar;
  value: unknown;
  numbers: number;
}

/**
 * The read store on MongoDB: one collection `rm_<collection>` per collection with the
 * document id as `_id`, and the projector checkpoints in `checkpoints`. `apply` runs in a
 * transaction on a replica set or sharded cluster; on a standalone server it writes the
 * changes in order and the checkpoint last, so a crash in between only makes the
 * (idempotent) projector replay the batch. Queries (find, list, ids, counts, aggregates) go where
 * `reads` says: the primary, or secondaries in causally consistent sessions (SecondaryReads);
 * reads by id, checkpoints and everything else stay on the primary.
 */
export class MongoReadStore implements ReadStore {
  private readonly checkpoints: Collection<StoredCheckpoint>;
  private readonly columnSets: Collection<StoredColumns>;
  /** Each collection's typed columns; they never change while the collection exists. */
  private readonly columns = new Map<string, Promise<ColumnDefinition[]>>();

  private constructor(
    private readonly client: MongoClient,
    /** The database holding the collections, for adapters that keep their own data beside them. */
    readonly database: Db,
    private readonly transactions: boolean,
    /** maxTimeMS of the reads of the request path; 0 for none. */
    private readonly readTimeoutMs: number,
    private readonly reads: ReadRouting,
    /** The secondaries the queries may go to, with their lag; null when they all go to the primary. */
    readonly secondaries: SecondaryReads | null,
  ) {
    this.checkpoints = database.collection<StoredCheckpoint>('checkpoints');
    this.columnSets = database.collection<StoredColumns>('readstore_columns');
  }

  /**
   * `databaseName` defaults to the database named in the URL; `readTimeoutMs` bounds every find,
   * count and aggregate (READ_STATEMENT_TIMEOUT_MS); `reads` sends the queries to secondaries
   * (MONGODB_READ_PREFERENCE, a replica set required), out of rotation past `maxLagMs`.
   */
  static async connect(
    url: string,
    databaseName?: string,
    options: { readTimeoutMs?: number; reads?: { readonly preference: MongoReadPreference; readonly maxLagMs: number } } = {},
  ): Promise<MongoReadStore> {
    const secondary = options.reads && options.reads.preference !== 'primary' ? { preference: options.reads.preference, maxLagMs: options.reads.maxLagMs } : null;
    // With reads on secondaries, every write is majority-committed before it is acknowledged (a
    // query's session waits for the majority point, see SecondaryReads), and each member's lag is
    // heard once a second, as PostgreSQL replicas are probed.
    const client = new MongoClient(url, secondary ? { writeConcern: { w: 'majority' }, heartbeatFrequencyMS: REPLICA_PROBE_MS } : {});
    const database = client.db(databaseName);
    const readTimeoutMs = options.readTimeoutMs ?? 0;
    const secondaries = secondary
      ? new SecondaryReads(client, url, database, database.collection('checkpoints'), secondary.preference, secondary.maxLagMs, readTimeoutMs)
      : null;
    try {
      await client.connect();
      const hello = await client.db('admin').command({ hello: 1 });
      // A replica set member names its set; a mongos router answers `isdbgrid`.
      const replicaSet = typeof hello.setName === 'string';
      if (secondaries && !replicaSet) throw new Error('MONGODB_READ_PREFERENCE: reads on secondaries need a replica set (MONGODB_URL names one that does not answer as a member)');
      const transactions = replicaSet || hello.msg === 'isdbgrid';
      return new MongoReadStore(client, database, transactions, readTimeoutMs, secondaries ?? PRIMARY_READS, secondaries);
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  async ensureCollection(name: string, indexes: readonly IndexDefinition[], columns: readonly ColumnDefinition[] = []): Promise<void> {
    const collectionName = mongoCollectionName(name);
    const typed = mongoColumns(columns);
    // MongoDB always keeps a unique index on _id. A prefix regex uses a plain index; folded and substring matching have no index here.
    const declared = indexes
      .filter((index) => index.text === undefined || index.text === 'prefix')
      .map((index) => ({ index, paths: indexPaths(index, typed) }))
      .filter(({ paths }) => paths.join() !== '_id');
    this.columns.delete(collectionName);
    if (columns.length > 0) await this.columnSets.replaceOne({ _id: collectionName }, { columns: [...columns] }, { upsert: true });
    const exists = await this.database.listCollections({ name: collectionName }, { nameOnly: true }).hasNext();
    if (!exists) {
      await this.database.createCollection(collectionName).catch((error: unknown) => {
        if (!(error instanceof MongoServerError && error.code === NAMESPACE_EXISTS)) throw error;
      });
    }
    for (const { index, paths } of declared) {
      await this.database.collection(collectionName).createIndex(
        indexKeys(index, paths),
        indexOptions(indexName(index), index, paths),
      );
    }
  }

  /** Group indexes are named `<group>_<hash of the definition>`; MongoDB builds them without blocking writes. */
  async ensureIndexes(name: string, group: string, indexes: readonly IndexDefinition[]): Promise<IndexChanges> {
    if (!INDEX_GROUP.test(group)) throw new Error(`invalid index group: ${group}`);
    const collectionName = mongoCollectionName(name);
    if (!(await this.database.listCollections({ name: collectionName }, { nameOnly: true }).hasNext())) throw new Error(`no collection ${name}`);
    const columns = await this.typedColumns(name);
    // As in ensureCollection: folded and substring matching have no index here.
    const buildable = indexes.filter((index) => index.text === undefined || index.text === 'prefix');
    const wanted = new Map(buildable.map((index) => [`${group}_${indexHash(index)}`, index]));
    const collection = this.database.collection(collectionName);
    const present = (await collection.indexes()).map((index) => index.name).filter((id): id is string => id?.startsWith(`${group}_`) === true);
    const dropped = present.filter((id) => !wanted.has(id));
    for (const id of dropped) await collection.dropIndex(id);
    const created = [...wanted.keys()].filter((id) => !present.includes(id));
    for (const id of created) {
      const index = wanted.get(id)!;
      const paths = indexPaths(index, columns);
      await collection.createIndex(indexKeys(index, paths), indexOptions(id, index, paths));
    }
    return { created, dropped };
  }

  /**
   * Keeps nothing: a count of equal values is a COUNT_SCAN of the index whose fields they lead
   * (the declared query indexes), and keeping counts exactly under concurrent writers would need
   * a transaction per write. Only checks that the collection exists.
   */
  async ensureCounts(name: string, group: string): Promise<void> {
    if (!INDEX_GROUP.test(group)) throw new Error(`invalid index group: ${group}`);
    if (!(await this.database.listCollections({ name: mongoCollectionName(name) }, { nameOnly: true }).hasNext())) throw new Error(`no collection ${name}`);
  }

  async indexScans(name: string, group: string, indexes: readonly IndexDefinition[]): Promise<(number | null)[]> {
    if (!INDEX_GROUP.test(group)) throw new Error(`invalid index group: ${group}`);
    const collectionName = mongoCollectionName(name);
    if (!(await this.database.listCollections({ name: collectionName }, { nameOnly: true }).hasNext())) return indexes.map(() => null);
    const names = indexes.map((index) => `${group}_${indexHash(index)}`);
    // Each member counts the scans it ran: with queries on secondaries, every member is asked and the figures added up.
    const members = this.secondaries ? await this.secondaries.onEveryMember((database) => indexScansOn(database, collectionName)) : [await indexScansOn(this.database, collectionName)];
    if (!members) return indexes.map(() => null);
    const [primary, ...secondaries] = members;
    return names.map((name) => {
      const scans = primary?.get(name);
      return scans === undefined ? null : secondaries.reduce((sum, counted) => sum + (counted?.get(name) ?? 0), scans);
    });
  }

  async dropCollection(name: string): Promise<void> {
    const collectionName = mongoCollectionName(name);
    this.columns.delete(collectionName);
    await this.database.dropCollection(collectionName);
    await this.columnSets.deleteOne({ _id: collectionName });
  }

  /** MongoDB plans from its indexes as it runs: nothing to refresh. */
  async analyzeCollection(): Promise<void> {}

  /** MongoDB cannot rename inside a transaction: each rename is atomic, the whole swap is not. */
  async swapCollections(
    renames: readonly { readonly from: string; readonly to: string }[],
    checkpoint: { readonly from: string; readonly to: string },
  ): Promise<void> {
    const names = renames.map((rename) => ({ from: mongoCollectionName(rename.from), to: mongoCollectionName(rename.to) }));
    for (const rename of names) {
      this.columns.delete(rename.from);
      this.columns.delete(rename.to);
      await this.database.renameCollection(rename.from, rename.to, { dropTarget: true });
      const columns = await this.columnSets.findOne({ _id: rename.from });
      await this.columnSets.deleteOne({ _id: rename.to });
      if (columns) await this.columnSets.insertOne({ _id: rename.to, columns: columns.columns });
      await this.columnSets.deleteOne({ _id: rename.from });
    }
    const moved = await this.checkpoints.findOne({ _id: checkpoint.from });
    if (moved) {
      await this.checkpoints.replaceOne({ _id: checkpoint.to }, { commit: moved.commit, prepare: moved.prepare }, { upsert: true });
    } else {
      await this.checkpoints.deleteOne({ _id: checkpoint.to });
    }
    await this.checkpoints.deleteOne({ _id: checkpoint.from });
  }

  async getMany<T extends Document>(collection: string, ids: readonly string[]): Promise<T[]> {
    if (ids.length === 0) return [];
    const stored = await this.collection(collection).find({ _id: { $in: [...ids] } }).toArray();
    return stored.map((document) => toDocument<T>(document));
  }

  /** One find per collection, sent together: MongoDB has no cheaper way to read several collections by id. */
  async getManyAcross(wanted: ReadonlyMap<string, readonly string[]>): Promise<Map<string, Document[]>> {
    return new Map(await Promise.all([...wanted].map(async ([collection, ids]) => [collection, await this.getMany(collection, ids)] as const)));
  }

  async get<T extends Document>(collection: string, id: string): Promise<T | null> {
    const stored = await this.collection(collection).findOne({ _id: id });
    return stored ? toDocument<T>(stored) : null;
  }

  async find<T extends Document>(collection: string, query: FindQuery): Promise<FindResult<T>> {
    const { items, total } = await this.page(collection, query, false);
    return { items: items.map((stored) => toDocument<T>(stored)), total };
  }

  async list<T extends Document>(collection: string, query: FindQuery): Promise<T[]> {
    if (query.limit === 0) return [];
    const columns = await this.typedColumns(collection);
    const stored = await timedRead(() =>
      this.reads.run((route) => this.collection(collection).find(mongoFilter(query.filter, columns), { ...this.pageOptions(query, false, columns), ...route() }).toArray()),
    );
    return stored.map((document) => toDocument<T>(document));
  }

  async findIds(collection: string, query: FindQuery): Promise<FindResult<string>> {
    const { items, total } = await this.page(collection, query, true);
    return { items: items.map((stored) => stored._id), total };
  }

  async listIds(collection: string, query: FindQuery): Promise<string[]> {
    if (query.limit === 0) return [];
    const columns = await this.typedColumns(collection);
    const stored = await timedRead(() =>
      this.reads.run((route) => this.collection(collection).find(mongoFilter(query.filter, columns), { ...this.pageOptions(query, true, columns), ...route() }).toArray()),
    );
    return stored.map((document) => document._id);
  }

  async count(collection: string, query: Pick<FindQuery, 'filter'>): Promise<number> {
    const filter = mongoFilter(query.filter, await this.typedColumns(collection));
    return timedRead(() => this.reads.run((route) => this.collection(collection).countDocuments(filter, { ...this.timeLimit(), ...route() })));
  }

  async aggregate(collection: string, query: AggregateQuery): Promise<number | null> {
    const [row] = await this.groups(collection, query, undefined);
    if (!row) return query.operation === 'count' ? 0 : null;
    return groupValue(row, query.operation);
  }

  async aggregateGroups(collection: string, query: AggregateGroupQuery): Promise<AggregateGroup[]> {
    const rows = await this.groups(collection, query, query.groupBy);
    return rows.map((row) => ({ group: row._id, value: groupValue(row, query.operation) }));
  }

  async apply(changes: readonly Change[], checkpoints: readonly Checkpoint[] = []): Promise<void> {
    const collections = [...new Set(changes.map((change) => change.collection))];
    const columns = new Map(await Promise.all(collections.map(async (name) => [mongoCollectionName(name), await this.columnsOf(name)] as const)));
    const batches = writeBatches(changes, columns);
    const write = async (session?: ClientSession) => {
      for (const { collection, operations } of batches) {
        await this.database.collection<StoredDocument>(collection).bulkWrite(operations, { ordered: true, session });
      }
      for (const checkpoint of checkpoints) {
        const { commit, prepare } = checkpoint.position;
        await this.checkpoints.replaceOne(
          { _id: checkpoint.name },
          { commit: commit.toString(), prepare: prepare.toString() },
          { upsert: true, session },
        );
      }
    };
    if (this.transactions) {
      await this.client.withSession((session) => session.withTransaction(() => write(session)));
    } else {
      await write();
    }
  }

  async getCheckpoint(name: string): Promise<Position | null> {
    const stored = await this.checkpoints.findOne({ _id: name });
    return stored ? toPosition(stored) : null;
  }

  async listCheckpoints(): Promise<Checkpoint[]> {
    const stored = await this.checkpoints.find().sort({ _id: 1 }).toArray();
    return stored.map((checkpoint) => ({ name: checkpoint._id, position: toPosition(checkpoint) }));
  }

  async deleteCheckpoint(name: string): Promise<void> {
    await this.checkpoints.deleteOne({ _id: name });
  }

  async ping(): Promise<boolean> {
    try {
      await this.database.command({ ping: 1 });
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.secondaries?.close();
    await this.client.close();
  }

  private collection(name: string): Collection<StoredDocument> {
    return this.database.collection<StoredDocument>(mongoCollectionName(name));
  }

  private columnsOf(collection: string): Promise<ColumnDefinition[]> {
    const collectionName = mongoCollectionName(collection);
    const known = this.columns.get(collectionName);
    if (known) return known;
    const loading = this.columnSets.findOne({ _id: collectionName }).then((stored) => stored?.columns ?? []);
    loading.catch(() => this.columns.delete(collectionName));
    this.columns.set(collectionName, loading);
    return loading;
  }

  private async typedColumns(collection: string): Promise<MongoColumns> {
    return mongoColumns(await this.columnsOf(collection));
  }

  private async page(collection: string, query: FindQuery, idsOnly: boolean): Promise<FindResult<StoredDocument>> {
    const columns = await this.typedColumns(collection);
    const filter = mongoFilter(query.filter, columns);
    const options = this.pageOptions(query, idsOnly, columns);
    const target = this.collection(collection);
    // MongoDB reads limit 0 as "no limit".
    const [items, total] = await timedRead(() =>
      this.reads.run((route) =>
        Promise.all([query.limit === 0 ? [] : target.find(filter, { ...options, ...route() }).toArray(), target.countDocuments(filter, { ...this.timeLimit(), ...route() })]),
      ),
    );
    return { items, total };
  }

  private pageOptions(query: FindQuery, idsOnly: boolean, columns: MongoColumns) {
    return {
      sort: mongoSort(query.sort, columns, query.sortIsUnique),
      skip: pagingNumber('offset', query.offset ?? 0),
      ...(query.limit === undefined ? {} : { limit: pagingNumber('limit', query.limit) }),
      ...(idsOnly ? { projection: { _id: 1 } } : { projection: { [TYPED_FIELD]: 0 } }),
      ...this.timeLimit(),
    };
  }

  private async groups(collection: string, query: AggregateQuery, groupBy: string | undefined): Promise<GroupRow[]> {
    const columns = await this.typedColumns(collection);
    const pipeline = [{ $match: mongoFilter(query.filter, columns) }, groupStage(query.field, query.operation, groupBy, columns), { $sort: { _id: 1 } }];
    return timedRead(() => this.reads.run((route) => this.collection(collection).aggregate<GroupRow>(pipeline, { ...this.timeLimit(), ...route() }).toArray()));
  }

  private timeLimit(): { maxTimeMS?: number } {
    return this.readTimeoutMs > 0 ? { maxTimeMS: this.readTimeoutMs } : {};
  }
}

/**
 * The scans each index of the collection served, by index name, on the member that answers: the
 * primary for the store's own client, the one member for a direct connection (which the driver
 * lets read on a secondary).
 */
async function indexScansOn(database: Db, collectionName: string): Promise<Map<string, number>> {
  const stats = await database.collection(collectionName).aggregate<{ name: string; accesses: { ops: unknown } }>([{ $indexStats: {} }]).toArray();
  return new Map(stats.map((entry) => [entry.name, Number(entry.accesses.ops)]));
}

function mongoCollectionName(name: string): string {
  if (!COLLECTION_NAME.test(name)) throw new Error(`invalid collection name: ${name}`);
  return `rm_${name}`;
}

function indexPaths(index: IndexDefinition, columns: MongoColumns): string[] {
  if (index.fields.length === 0) throw new Error('an index needs at least one field');
  return index.fields.map((field) => mongoPath(field, columns));
}

/** Deterministic, so that declaring the same index again finds it by name. */
function indexName(index: IndexDefinition): string {
  return `rm_${indexHash(index)}`;
}

/** A covering index is an ordinary one here (an entry holds whole values), so both share a name, and one index is built for the two. */
function indexHash({ covering: _covering, ...index }: IndexDefinition): string {
  return createHash('sha256').update(indexIdentity(index)).digest('hex').slice(0, 10);
}

function indexOptions(name: string, index: IndexDefinition, paths: readonly string[]) {
  return {
    name,
    unique: index.unique === true,
    // Like PostgreSQL, a unique index only constrains documents that have all its fields.
    ...(index.unique ? { partialFilterExpression: Object.fromEntries(paths.map((path) => [path, { $exists: true }])) } : {}),
  };
}

/** The key pattern: 1 per field, -1 for a descending one (MongoDB sorts null and missing first ascending, as the query language does). */
function indexKeys(index: IndexDefinition, paths: readonly string[]): [string, 1 | -1][] {
  return paths.map((path, position) => [path, index.descending?.includes(index.fields[position]!) === true ? -1 : 1]);
}

function toDocument<T extends Document>({ _id, [TYPED_FIELD]: _typed, ...fields }: StoredDocument): T {
  return { id: _id, ...fields } as unknown as T;
}

function toPosition(stored: StoredCheckpoint): Position {
  return { commit: BigInt(stored.commit), prepare: BigInt(stored.prepare) };
}

function groupValue(row: GroupRow, operation: AggregateOperation): number | null {
  // $sum over no numbers gives 0 where the query language wants null.
  if (operation !== 'count' && row.numbers === 0) return null;
  if (row.value instanceof Decimal128) return Number(row.value.toString());
  return typeof row.value === 'number' ? row.value : null;
}

/** Consecutive changes to one collection go to the server as one ordered bulk write. */
function writeBatches(changes: readonly Change[], columns: ReadonlyMap<string, readonly ColumnDefinition[]>): { collection: string; operations: AnyBulkWriteOperation<StoredDocument>[] }[] {
  const batches: { collection: string; operations: AnyBulkWriteOperation<StoredDocument>[] }[] = [];
  for (const change of changes) {
    const collection = mongoCollectionName(change.collection);
    let batch = batches[batches.length - 1];
    if (batch?.collection !== collection) {
      batch = { collection, operations: [] };
      batches.push(batch);
    }
    batch.operations.push(writeOperation(change, columns.get(collection) ?? []));
  }
  return batches;
}

function writeOperation(change: Change, columns: readonly ColumnDefinition[]): AnyBulkWriteOperation<StoredDocument> {
  if (change.kind === 'delete') return { deleteOne: { filter: { _id: change.id } } };
  const { id, ...fields } = change.document;
  const replacement = columns.length === 0 ? fields : { ...fields, [TYPED_FIELD]: typedValues(change.document, columns) };
  return { replaceOne: { filter: { _id: id }, replacement, upsert: true } };
}

function pagingNumber(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer: ${value}`);
  return value;
}
