import type { Position } from '../eventstore/port';
import type { AggregateGroup, AggregateGroupQuery, AggregateQuery, FindQuery, FindResult } from './query';

/** A stored document. `id` is its key within the collection. */
export interface Document {
  readonly id: string;
  readonly [field: string]: unknown;
}

/**
 * An index a read model declares on its collection: one or more field paths. `text` makes
 * it serve a text operator on its last field (a typed text column): `prefix` for start,
 * `prefix-folded` for start with caseInsensitive, `substring` (one field only) for end and
 * contains in both cases. A b-tree holds each field in the order an ascending sort reads it,
 * those in `descending` in the order a descending sort does.
 */
export interface IndexDefinition {
  readonly fields: readonly string[];
  readonly unique?: boolean;
  readonly text?: 'prefix' | 'prefix-folded' | 'substring';
  readonly descending?: readonly string[];
  /**
   * Read alone by aggregates: the engine holds the long columns' values whole (not a key of
   * each), for every document it can; one whose long value is too long for an entry is found
   * another way (PostgreSQL: a partial index of those alone). A b-tree only.
   */
  readonly covering?: true;
}

/** The indexes `ensureIndexes` created and dropped, by their names in the engine. */
export interface IndexChanges {
  readonly created: readonly string[];
  readonly dropped: readonly string[];
}

/** Datetimes are ISO 8601 UTC strings of one fixed format, so they compare as text. */
export const COLUMN_TYPES = ['text', 'number', 'boolean', 'datetime'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

/**
 * A typed column of a collection: the scalar at `path` of each document, kept beside the
 * document by the store when it is written. It holds the value when its JSON type is the
 * column's (a string for text and datetime) and null otherwise, and filters, sorts and
 * aggregates on `path` read the column: a value of another JSON type counts as missing.
 */
export interface ColumnDefinition {
  readonly path: string;
  readonly type: ColumnType;
  /**
   * Its values may be longer than an index entry holds (content text: B-tree entries stop near
   * 2.7 KB). Indexes then key on the first characters of a value and every comparison rechecks
   * the whole value, so text sorts by those first characters, then by the whole value.
   */
  readonly long?: boolean;
}

/**
 * How the store lays out a collection with typed columns. `documentsApart` keeps the documents
 * apart from the typed columns, so that a query that reads typed columns only (filters, orders,
 * totals and aggregates on fields that have one) reads no document: on PostgreSQL the typed
 * columns are a table of their own, whose scan reads their bytes only (a content row's typed
 * columns are a third of it with its document), and the documents another, read by id for the
 * documents a read returns. Each write then writes a row of each, a query on a path without a
 * typed column joins the documents, and only typed columns can be indexed. An engine that stores
 * documents whole (MongoDB) keeps them so: the layout changes what a query reads, not its answer.
 */
export interface CollectionLayout {
  readonly documentsApart?: boolean;
  /**
   * With `documentsApart`: the documents are those another collection holds under the same ids
   * (kept by its own writes in the same batch), so a write of this collection writes its typed
   * columns only (computed from the document it is given), and a read joins that collection's
   * documents to this collection's rows. No second copy of each document, one row per write less.
   */
  readonly documentsIn?: string;
}

/** A read of the request path ran longer than the read timeout and was stopped by the engine (answered 503). */
export class ReadTimeoutError extends Error {
  override readonly name = 'ReadTimeoutError';
}

export type Change =
  | { readonly kind: 'upsert'; readonly collection: string; readonly document: Document }
  | { readonly kind: 'delete'; readonly collection: string; readonly id: string };

export interface Checkpoint {
  readonly name: string;
  readonly position: Position;
}

/**
 * Named collections of JSON documents that projectors write and queries read. Projector
 * checkpoints live beside the documents: `apply` writes a batch of changes and the
 * checkpoints of the projectors that made them together, atomically where the engine allows.
 */
export interface ReadStore {
  /**
   * Creates the collection, its typed columns and its indexes when missing; idempotent.
   * The columns and layout of a collection never change once it exists: a new column set is a new collection.
   */
  ensureCollection(name: string, indexes: readonly IndexDefinition[], columns?: readonly ColumnDefinition[], layout?: CollectionLayout): Promise<void>;
  /**
   * Brings the indexes of `group` (a short name: lowercase letters and digits, at most 8) on an
   * existing collection in line with `indexes`: creates the missing ones and drops the group's
   * others, leaving every index outside the group alone. Meant for a collection in use: the
   * engine builds each index without blocking writes where it can (PostgreSQL: concurrently).
   */
  ensureIndexes(name: string, group: string, indexes: readonly IndexDefinition[]): Promise<IndexChanges>;
  /**
   * Keeps, for each field set of `group` (the group's other field sets are dropped), the number
   * of documents per combination of values of those fields, maintained by every write, so that
   * the total of a `find`, `findIds` or `count` whose filter is an `and` of equality on those
   * fields (non-null values), or of equality on all but the last and an `in` list or a range
   * (gt, gte, lt, lte) on the last, is read from the kept numbers instead of counted. Every
   * field must have a typed column. Totals are exact either way: an engine without it keeps
   * nothing and counts (MongoDB). Safe on a collection in use: writes wait while it is filled.
   */
  ensureCounts(name: string, group: string, fieldSets: readonly (readonly string[])[]): Promise<void>;
  /**
   * How many times the engine has read each of `indexes`, indexes of `group` on the collection,
   * since it began counting (an engine's restart or a reset of its statistics starts again from
   * 0; the figure may trail the reads by seconds): null for one the group does not have. Every
   * reader of the store counts, other instances included.
   */
  indexScans(name: string, group: string, indexes: readonly IndexDefinition[]): Promise<(number | null)[]>;
  dropCollection(name: string): Promise<void>;
  /**
   * Does what autovacuum would: refreshes the statistics the engine plans queries with and
   * reclaims dead rows (an engine without autovacuum, PGlite, has no other way to get them).
   */
  analyzeCollection(name: string): Promise<void>;
  /**
   * Replaces each `to` collection by its `from` collection (dropping the old `to`) and
   * moves checkpoint `checkpointFrom` to `checkpointTo`: the swap at the end of a rebuild.
   * Atomic where the engine allows.
   */
  swapCollections(
    renames: readonly { readonly from: string; readonly to: string }[],
    checkpoint: { readonly from: string; readonly to: string },
  ): Promise<void>;

  get<T extends Document>(collection: string, id: string): Promise<T | null>;
  /** The documents among `ids` that exist, in no particular order: one round trip for many ids. */
  getMany<T extends Document>(collection: string, ids: readonly string[]): Promise<T[]>;
  /**
   * `getMany` for several collections at once, by collection (every collection asked is a key):
   * one round trip where the engine can, for a projection batch that reads a few documents of
   * each of its read models.
   */
  getManyAcross(wanted: ReadonlyMap<string, readonly string[]>): Promise<Map<string, Document[]>>;
  find<T extends Document>(collection: string, query: FindQuery): Promise<FindResult<T>>;
  /** The documents of `find` without their total: a page or a poll that must not count every match. */
  list<T extends Document>(collection: string, query: FindQuery): Promise<T[]>;
  /** Ids only, in the query's order: cheaper than `find` for id listings. */
  findIds(collection: string, query: FindQuery): Promise<FindResult<string>>;
  /** The ids of `findIds` without their total. */
  listIds(collection: string, query: FindQuery): Promise<string[]>;
  count(collection: string, query: Pick<FindQuery, 'filter'>): Promise<number>;
  aggregate(collection: string, query: AggregateQuery): Promise<number | null>;
  aggregateGroups(collection: string, query: AggregateGroupQuery): Promise<AggregateGroup[]>;

  /** Applies the changes in order and records the checkpoints, in one transaction where possible. */
  apply(changes: readonly Change[], checkpoints?: readonly Checkpoint[]): Promise<void>;
  getCheckpoint(name: string): Promise<Position | null>;
  /** Every stored checkpoint, for status reports. */
  listCheckpoints(): Promise<Checkpoint[]>;
  deleteCheckpoint(name: string): Promise<void>;

  /** True when the store answers a trivial query. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
