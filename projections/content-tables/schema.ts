import { createHash } from 'node:crypto';
import type { FieldDefinition, FieldType } from '../../src/domain/content-type/definition';
import type { QueryIndex } from '../../src/domain/content-type/query-indexes';
import type { ColumnDefinition, ColumnType, Document, IndexDefinition } from '../../infra/readstore/port';

/**
 * The shape of a typed content table: which fields of a content type get a typed column,
 * and the columns and indexes a table for a given field set has. A table's name carries a
 * hash of its field set, so a table never changes shape: a new field set is a new table.
 */

/** Field types kept as typed columns; Json and Encrypted stay in the document. */
const COLUMN_TYPES: Partial<Record<FieldType, ColumnType>> = {
  Text: 'text',
  RichText: 'text',
  Number: 'number',
  Boolean: 'boolean',
  DateTime: 'datetime',
  Relation: 'text',
  Media: 'text',
};
/** Field types whose column holds strings of any length (older values of a retyped field included): indexes key on a prefix. */
export const LONG_TYPES: ReadonlySet<FieldType> = new Set(['Text', 'RichText', 'Relation', 'Media']);
/**
 * Typed columns a table gives a type's fields at most, in the type's field order; further fields
 * are read from the document. A row must fit a page (8,160 bytes): each column takes up to 24
 * bytes once its value is stored out of line, so 500 text columns (the most a type may have) would not.
 */
export const MAX_TYPED_FIELDS = 300;
/**
 * Bumped when the columns or indexes derived from a field set, or the read store's layout of
 * a table with typed columns, change, so that every table is built anew (the builder moves a
 * registry entry whose wanted table has an earlier version's name to this version's: relaid).
 * 2: a statistics target of 1,000 on substring-searched text columns (postgres.ts, searchedStatistics).
 * 3: a typed table of the type's published versions beside each content table (versions-schema.ts).
 * 4: text indexes key on a prefix of each value (long columns), at most MAX_TYPED_FIELDS columns.
 * 5: lean indexes: only what the service's own queries need; the rest follow the workload (query indexes).
 * 6: the documents apart from the typed columns (builder.ts, CONTENT_TABLE_LAYOUT).
 * 7: the versions table's documents inline again (builder.ts, VERSIONS_TABLE_LAYOUT): two rows per publish fewer.
 * 8: the content table's documents are content_items' (builder.ts, CONTENT_TABLE_LAYOUT): two rows per save + publish fewer.
 */
const LAYOUT_VERSION = 8;

export interface TypedField {
  readonly key: string;
  readonly type: FieldType;
}

/** The generation of a type's tables: its content table, its versions table and the field set they were built for. */
export interface TableGeneration {
  readonly collection: string;
  /** The type's published versions, typed alike (as-of queries); absent in entries of layout 2 and earlier. */
  readonly versions?: string;
  readonly fields: readonly TypedField[];
}

/** Registry entry, id `${workspaceId}:${contentType}` (as content_types). */
export interface ContentTableDocument extends Document {
  readonly workspaceId: string;
  readonly contentType: string;
  /** The table the type's current fields need; null once the type is deleted. */
  readonly wanted: TableGeneration | null;
  /** The table queries may use, when its fields are the type's current ones; null until one is built. */
  readonly serving: TableGeneration | null;
  /** The type's query indexes, declared, pinned and advised (./query-indexes.ts); absent in entries written before they existed. */
  readonly queryIndexes?: readonly QueryIndex[];
  /** Indexes the advisor may not declare; absent in entries written before the advisor. */
  readonly forbiddenIndexes?: readonly QueryIndex[];
  /** The type's unique fields, each indexed for the check of a save (./query-indexes.ts); absent in entries written before unique fields. */
  readonly uniqueFields?: readonly string[];
}

export const contentTableId = (workspaceId: string, contentType: string) => `${workspaceId}:${contentType}`;

/** The fields with a typed column: the first MAX_TYPED_FIELDS that can have one, in the type's field order. */
export function typedFields(fields: readonly Pick<FieldDefinition, 'key' | 'type'>[]): TypedField[] {
  return fields
    .filter((field) => COLUMN_TYPES[field.type] !== undefined)
    .slice(0, MAX_TYPED_FIELDS)
    .map((field) => ({ key: field.key, type: field.type }));
}

const byKey = (a: TypedField, b: TypedField) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/**
 * Whether a table built for `tableFields` answers queries on the type's `currentFields` as
 * content_items would: each of its columns must still hold a field of the same type (or one
 * the type no longer has). A field added since has no column and is read from the document,
 * so a table keeps serving while the table for the new field set is built; a retyped field's
 * old column would compare values as the old type, so it makes the table unusable.
 */
export function answersAlike(tableFields: readonly TypedField[], currentFields: readonly Pick<FieldDefinition, 'key' | 'type'>[]): boolean {
  const currentTypes = new Map(currentFields.map((field) => [field.key, field.type]));
  return tableFields.every((field) => (currentTypes.get(field.key) ?? field.type) === field.type);
}

const hash = (text: string, length: number) => createHash('sha256').update(text).digest('hex').slice(0, length);

/** Every typed content table's collection name starts so. */
export const CONTENT_TABLE_PREFIX = 'ct_';
/** Every typed versions table's collection name starts so (and the build's scratch collection's). */
export const VERSIONS_TABLE_PREFIX = 'pv_';

export function tableGeneration(workspaceId: string, contentType: string, fields: readonly TypedField[]): TableGeneration {
  const typed = typedFields(fields);
  // Named by the field set, whatever the fields' order.
  const name = `${hash(`${workspaceId}:${contentType}`, 12)}_${hash(JSON.stringify([LAYOUT_VERSION, [...typed].sort(byKey)]), 8)}`;
  return { collection: `${CONTENT_TABLE_PREFIX}${name}`, versions: `${VERSIONS_TABLE_PREFIX}${name}`, fields: typed };
}

/** The typed column of each field of the generation, at the path content_items keeps it. */
export function fieldColumns(generation: TableGeneration): ColumnDefinition[] {
  return generation.fields.map((field) => ({ path: `fields.${field.key}`, type: COLUMN_TYPES[field.type]!, ...(LONG_TYPES.has(field.type) ? { long: true } : {}) }));
}

const SYSTEM_COLUMNS: readonly ColumnDefinition[] = [
  { path: 'stage', type: 'text' },
  { path: 'itemId', type: 'text' },
  { path: 'createdAt', type: 'datetime' },
  { path: 'updatedAt', type: 'datetime' },
  { path: 'publishedAt', type: 'datetime' },
];

export function tableColumns(generation: TableGeneration): ColumnDefinition[] {
  return [...SYSTEM_COLUMNS, ...fieldColumns(generation)];
}

/**
 * What the service's own queries need, nothing per field: every query is within one stage and its
 * order ends with id, so `(stage, id)` serves a page in the default order (id) and reads it in
 * index order after any filter; the prefix index on itemId serves the `id` system field's
 * equality and `start`. Every other filter, sort and aggregate is served by the type's query
 * indexes (./query-indexes.ts): declared by an operator or by the advisor as the workload shows
 * them, since an index per field costs each write of the type an entry whether queried or not.
 */
export function tableIndexes(): IndexDefinition[] {
  return [{ fields: ['stage', 'id'] }, { fields: ['stage', 'itemId'], text: 'prefix' }];
}

/** The entry with its wanted table named for this version's layout; the entry itself when it already is. */
export function relaid(entry: ContentTableDocument): ContentTableDocument {
  if (entry.wanted === null) return entry;
  const wanted = tableGeneration(entry.workspaceId, entry.contentType, entry.wanted.fields);
  return wanted.collection === entry.wanted.collection ? entry : { ...entry, wanted };
}
