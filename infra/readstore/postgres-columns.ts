import { createHash } from 'node:crypto';
import type { ColumnDefinition, ColumnType } from './port';
import { pathSegments } from './conditions';

/** The SQL type a typed column is stored as; datetimes are fixed-format ISO strings, so text. */
export type SqlColumnType = 'text' | 'double precision' | 'boolean';

/** A typed column: its name, SQL type and whether indexes key on a prefix of its values (ColumnDefinition.long). */
export interface TypedColumn {
  readonly name: string;
  readonly type: SqlColumnType;
  readonly long: boolean;
}

/** The typed columns of one table, by the document path they hold. */
export type Columns = ReadonlyMap<string, TypedColumn>;

/**
 * Characters of a long column's value that its index entries hold. Three such keys (a declared
 * query index's most) of four-byte characters, with the stage and the id, stay under a B-tree
 * entry's 2,704 bytes; and a `start` filter (200 characters at most) is answered by the key alone.
 */
export const INDEX_KEY_CHARS = 200;

export const NO_COLUMNS: Columns = new Map();

const SQL_TYPES: Record<ColumnType, SqlColumnType> = { text: 'text', datetime: 'text', number: 'double precision', boolean: 'boolean' };
const JSON_TYPES: Record<SqlColumnType, string> = { text: 'string', 'double precision': 'number', boolean: 'boolean' };
const PREFIX = 'c_';
const MAX_IDENTIFIER = 63;

/**
 * The column of a path: `c_` and the path when it fits PostgreSQL's 63-byte identifiers,
 * else a cut path and a hash. Derived from the path alone, so a reader finds the column of a
 * path from the table's catalog without knowing how the table was declared.
 */
export function columnName(path: string): string {
  pathSegments(path);
  const name = `${PREFIX}${path}`;
  if (name.length <= MAX_IDENTIFIER) return name;
  return `${name.slice(0, MAX_IDENTIFIER - 9)}_${createHash('sha256').update(path).digest('hex').slice(0, 8)}`;
}

/** Longer strings are not date-times (an old value of a field retyped to DateTime): they count as missing, as other JSON types do. */
const MAX_DATETIME_CHARS = 64;

/** `c_price double precision generated always as (...) stored`: the store extracts the value on every write. */
export function columnDeclaration(column: ColumnDefinition): string {
  return `"${columnName(column.path)}" ${SQL_TYPES[column.type]} generated always as (${columnValueSql(column, 'doc')}) stored`;
}

/** `c_price double precision`: a column of a table without the documents, given its value by each write (columnValueSql). */
export function plainColumnDeclaration(column: ColumnDefinition): string {
  return `"${columnName(column.path)}" ${SQL_TYPES[column.type]}`;
}

/** The column's value in the JSONB document `document` (an SQL expression): the value when its JSON type is the column's, else null. */
export function columnValueSql(column: ColumnDefinition, document: string): string {
  const segments = pathSegments(column.path).join(',');
  const type = SQL_TYPES[column.type];
  const value = type === 'text' ? `${document} #>> '{${segments}}'` : `(${document} #> '{${segments}}')::${type === 'boolean' ? 'boolean' : 'float8'}`;
  const bounded = column.type === 'datetime' ? ` and length(${document} #>> '{${segments}}') <= ${MAX_DATETIME_CHARS}` : '';
  return `case when jsonb_typeof(${document} #> '{${segments}}') = '${JSON_TYPES[type]}'${bounded} then ${value} end`;
}

/** Length in code points, as PostgreSQL's left() counts. */
export function characters(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** Whether a long column's key alone compares exactly with `value`: a key equal to a shorter value is the whole value. */
export function fitsKey(value: unknown): boolean {
  return typeof value !== 'string' || characters(value) < INDEX_KEY_CHARS;
}

/** The expression an index keys a column on: a long column's first INDEX_KEY_CHARS characters, else the column. */
export function keySql(column: TypedColumn): string {
  return column.long ? `left("${column.name}", ${INDEX_KEY_CHARS})` : `"${column.name}"`;
}

/** The typed columns of a table declared with `declared` (empty for a plain JSONB table); `id` is always its own column. */
export function columnsOf(declared: readonly ColumnDefinition[]): Columns {
  if (declared.length === 0) return NO_COLUMNS;
  const columns = new Map<string, TypedColumn>([['id', { name: 'id', type: 'text', long: false }]]);
  for (const column of declared) columns.set(column.path, { name: columnName(column.path), type: SQL_TYPES[column.type], long: column.long === true });
  return columns;
}

/** A table's typed columns as declared, and whether its documents are kept apart (CollectionLayout). */
export interface TableLayout {
  readonly declared: readonly ColumnDefinition[];
  readonly columns: Columns;
  /** The documents are in another table (`documents`), the typed columns plain columns of this one. */
  readonly documentsApart: boolean;
  /** With `documentsApart`, the table holding the documents: its own (documentsTable), or another collection's (`shared`). */
  readonly documents: string | null;
  /** The documents are another collection's, which writes them: this table neither writes nor owns them. */
  readonly shared: boolean;
}

export const NO_LAYOUT: TableLayout = { declared: [], columns: NO_COLUMNS, documentsApart: false, documents: null, shared: false };

/** `sharedDocuments`: the table of the collection holding the documents (CollectionLayout.documentsIn), else they have a table of their own. */
export function tableLayout(table: string, declared: readonly ColumnDefinition[], documentsApart: boolean, sharedDocuments?: string): TableLayout {
  const apart = documentsApart && declared.length > 0;
  const shared = apart && sharedDocuments !== undefined;
  return { declared, columns: columnsOf(declared), documentsApart: apart, documents: apart ? (shared ? sharedDocuments : documentsTable(table)) : null, shared };
}

/** A read-model table's name as a table's comment may name it (rm_ and a collection name): nothing SQL would need quoted or escaped. */
const SHARED_DOCUMENTS_TABLE = /^rm_[a-z][a-z0-9_]*$/i;

/**
 * The declaration kept as the table's comment, so that any process finds the layout of a table
 * from the catalog: the columns (a JSON array), or `{ columns, documentsApart }` when the
 * documents are kept apart. Paths are checked (letters, digits, `_`, `-`, `.`) and types are
 * from a fixed list, so the JSON holds no quote that SQL would need escaped.
 */
export function layoutComment(layout: TableLayout): string {
  const checked = layout.declared.map((column) => {
    pathSegments(column.path);
    if (!(column.type in SQL_TYPES)) throw new Error(`invalid column type: ${String(column.type)}`);
    return column.long ? { path: column.path, type: column.type, long: true } : { path: column.path, type: column.type };
  });
  if (!layout.documentsApart) return `'${JSON.stringify(checked)}'`;
  return `'${JSON.stringify(layout.shared ? { columns: checked, documentsApart: true, documentsIn: layout.documents } : { columns: checked, documentsApart: true })}'`;
}

export function parseLayoutComment(table: string, comment: string | null | undefined): TableLayout {
  if (!comment) return NO_LAYOUT;
  try {
    const parsed = JSON.parse(comment) as unknown;
    const apart = parsed !== null && typeof parsed === 'object' && (parsed as { documentsApart?: unknown }).documentsApart === true;
    const declared = apart ? (parsed as { columns?: unknown }).columns : parsed;
    const documentsIn = apart ? (parsed as { documentsIn?: unknown }).documentsIn : undefined;
    const shared = typeof documentsIn === 'string' && SHARED_DOCUMENTS_TABLE.test(documentsIn) ? documentsIn : undefined;
    return Array.isArray(declared) ? tableLayout(table, (declared as ColumnDefinition[]).filter((column) => column.type in SQL_TYPES), apart, shared) : NO_LAYOUT;
  } catch {
    return NO_LAYOUT;
  }
}

/** The table of the documents of a table whose documents are kept apart: a name no collection's table can have (collection names have no `-`). */
export function documentsTable(table: string): string {
  return `${table}-docs`;
}

/** The SQL type a parameter compared with a column is cast to. */
export function parameterCast(type: SqlColumnType): string {
  return type === 'double precision' ? 'float8' : type;
}

/** Whether a filter value can equal a value of the column (other JSON types never do). */
export function fitsColumn(value: unknown, type: SqlColumnType): boolean {
  return typeof value === JSON_TYPES[type] || (type === 'double precision' && typeof value === 'number');
}
