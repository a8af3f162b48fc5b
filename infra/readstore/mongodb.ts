import { createHash } from 'node:crypto';
import { MongoClient, MongoServerError } from 'mongodb';
import type { AnyBulkWriteOperation, ClientSession, Collection, Db } from 'mongodb';
import type { Position } from '../eventstore/port';
import { groupStage, mongoFilter, mongoPath, mongoSort } from './mongodb-filter';
import type { StoredDocument } from './mongodb-filter';
import type { Change, Checkpoint, Document, IndexDefinition, ReadStore } from './port';
import type { AggregateGroup, AggregateGroupQuery, AggregateOperation, AggregateQuery, FindQuery, FindResult, Scalar } from './query';

const COLLECTION_NAME = /^[a-z][a-z0-9_]*$/i;
const NAMESPACE_EXISTS = 48;

interface StoredCheckpoint {
  _id: string;
  /** Decimal strings: positions are unsigned 64-bit, beyond MongoDB's signed long. */
  commit: string;
  prepare: string;
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
 * (idempotent) projector replay the batch.
 */
export class MongoReadStore implements ReadStore {
  private readonly checkpoints: Collection<StoredCheckpoint>;

  private constructor(
    private readonly client: MongoClient,
    /** The database holding the collections, for adapters that keep their own data beside them. */
    readonly database: Db,
    private readonly transactions: boolean,
  ) {
    this.checkpoints = database.collection<StoredCheckpoint>('checkpoints');
  }

  /** `databaseName` defaults to the database named in the URL. */
  static async connect(url: string, databaseName?: string): Promise<MongoReadStore> {
    const client = await MongoClient.connect(url);
    try {
      const hello = await client.db('admin').command({ hello: 1 });
      // A replica set member names its set; a mongos router answers `isdbgrid`.
      const transactions = typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
      return new MongoReadStore(client, client.db(databaseName), transactions);
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  async ensureCollection(name: string, indexes: readonly IndexDefinition[]): Promise<void> {
    const collectionName = mongoCollectionName(name);
    // MongoDB always keeps a unique index on _id.
    const declared = indexes.map((index) => ({ index, paths: indexPaths(index) })).filter(({ paths }) => paths.join() !== '_id');
    const exists = await this.database.listCollections({ name: collectionName }, { nameOnly: true }).hasNext();
    if (!exists) {
      await this.database.createCollection(collectionName).catch((error: unknown) => {
        if (!(error instanceof MongoServerError && error.code === NAMESPACE_EXISTS)) throw error;
      });
    }
    for (const { index, paths } of declared) {
      await this.database.collection(collectionName).createIndex(
        paths.map((path): [string, 1] => [path, 1]),
        {
          name: indexName(index),
          unique: index.unique === true,
          // Like PostgreSQL, a unique index only constrains documents that have all its fields.
          ...(index.unique ? { partialFilterExpression: Object.fromEntries(paths.map((path) => [path, { $exists: true }])) } : {}),
        },
      );
    }
  }

  async dropCollection(name: string): Promise<void> {
    await this.database.dropCollection(mongoCollectionName(name));
  }

  /** MongoDB cannot rename inside a transaction: each rename is atomic, the whole swap is not. */
  async swapCollections(
    renames: readonly { readonly from: string; readonly to: string }[],
    checkpoint: { readonly from: string; readonly to: string },
  ): Promise<void> {
    const names = renames.map((rename) => ({ from: mongoCollectionName(rename.from), to: mongoCollectionName(rename.to) }));
    for (const rename of names) await this.database.renameCollection(rename.from, rename.to, { dropTarget: true });
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
    const stored = await this.collection(collection).find(mongoFilter(query.filter), this.pageOptions(query, false)).toArray();
    return stored.map((document) => toDocument<T>(document));
  }

  async findIds(collection: string, query: FindQuery): Promise<FindResult<string>> {
    const { items, total } = await this.page(collection, query, true);
    return { items: items.map((stored) => stored._id), total };
  }

  async count(collection: string, query: Pick<FindQuery, 'filter'>): Promise<number> {
    return this.collection(collection).countDocuments(mongoFilter(query.filter));
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
    const batches = writeBatches(changes);
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
    await this.client.close();
  }

  private collection(name: string): Collection<StoredDocument> {
    return this.database.collection<StoredDocument>(mongoCollectionName(name));
  }

  private async page(collection: string, query: FindQuery, idsOnly: boolean): Promise<FindResult<StoredDocument>> {
    const filter = mongoFilter(query.filter);
    const options = this.pageOptions(query, idsOnly);
    const target = this.collection(collection);
    // MongoDB reads limit 0 as "no limit".
    const [items, total] = await Promise.all([
      query.limit === 0 ? [] : target.find(filter, options).toArray(),
      target.countDocuments(filter),
    ]);
    return { items, total };
  }

  private pageOptions(query: FindQuery, idsOnly: boolean) {
    return {
      sort: mongoSort(query.sort, query.sortIsUnique),
      skip: pagingNumber('offset', query.offset ?? 0),
      ...(query.limit === undefined ? {} : { limit: pagingNumber('limit', query.limit) }),
      ...(idsOnly ? { projection: { _id: 1 } } : {}),
    };
  }

  private async groups(collection: string, query: AggregateQuery, groupBy: string | undefined): Promise<GroupRow[]> {
    const pipeline = [{ $match: mongoFilter(query.filter) }, groupStage(query.field, query.operation, groupBy), { $sort: { _id: 1 } }];
    return this.collection(collection).aggregate<GroupRow>(pipeline).toArray();
  }
}

function mongoCollectionName(name: string): string {
  if (!COLLECTION_NAME.test(name)) throw new Error(`invalid collection name: ${name}`);
  return `rm_${name}`;
}

function indexPaths(index: IndexDefinition): string[] {
  if (index.fields.length === 0) throw new Error('an index needs at least one field');
  return index.fields.map(mongoPath);
}

/** Deterministic, so that declaring the same index again finds it by name. */
function indexName(index: IndexDefinition): string {
  const hash = createHash('sha256')
    .update(JSON.stringify([index.fields, index.unique === true]))
    .digest('hex')
    .slice(0, 10);
  return `rm_${hash}`;
}

function toDocument<T extends Document>({ _id, ...fields }: StoredDocument): T {
  return { id: _id, ...fields } as unknown as T;
}

function toPosition(stored: StoredCheckpoint): Position {
  return { commit: BigInt(stored.commit), prepare: BigInt(stored.prepare) };
}

function groupValue(row: GroupRow, operation: AggregateOperation): number | null {
  // $sum over no numbers gives 0 where the query language wants null.
  if (operation !== 'count' && row.numbers === 0) return null;
  return typeof row.value === 'number' ? row.value : null;
}

/** Consecutive changes to one collection go to the server as one ordered bulk write. */
function writeBatches(changes: readonly Change[]): { collection: string; operations: AnyBulkWriteOperation<StoredDocument>[] }[] {
  const batches: { collection: string; operations: AnyBulkWriteOperation<StoredDocument>[] }[] = [];
  for (const change of changes) {
    const collection = mongoCollectionName(change.collection);
    let batch = batches[batches.length - 1];
    if (batch?.collection !== collection) {
      batch = { collection, operations: [] };
      batches.push(batch);
    }
    batch.operations.push(writeOperation(change));
  }
  return batches;
}

function writeOperation(change: Change): AnyBulkWriteOperation<StoredDocument> {
  if (change.kind === 'delete') return { deleteOne: { filter: { _id: change.id } } };
  const { id, ...fields } = change.document;
  return { replaceOne: { filter: { _id: id }, replacement: fields, upsert: true } };
}

function pagingNumber(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer: ${value}`);
  return value;
}
