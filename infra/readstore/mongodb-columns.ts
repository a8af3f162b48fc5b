import type { ColumnDefinition } from './port';
import { pathSegments } from './conditions';

/** Where a typed collection keeps its typed values: one top-level sub-document, stripped on read. */
export const TYPED_FIELD = '_typed';

/** The typed columns of one collection, by the document path they hold: path -> field path of the typed value. */
export type MongoColumns = ReadonlyMap<string, string>;
export const NO_MONGO_COLUMNS: MongoColumns = new Map();

const JSON_TYPES = { text: 'string', datetime: 'string', number: 'number', boolean: 'boolean' } as const;

/** `fields.price` -> `_typed.fields:price`: a dot would nest, a colon is a plain character in a MongoDB field name. */
export function typedPath(path: string): string {
  return `${TYPED_FIELD}.${pathSegments(path).join(':')}`;
}

export function mongoColumns(columns: readonly ColumnDefinition[]): MongoColumns {
  return new Map(columns.map((column) => [column.path, typedPath(column.path)]));
}

/**
 * The typed values of a document: the value at each column's path when its JSON type is the
 * column's, else null, as PostgreSQL's generated columns hold them, so that every operator
 * means the same on both engines.
 */
export function typedValues(document: Record<string, unknown>, columns: readonly ColumnDefinition[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const column of columns) {
    let value: unknown = document;
    for (const segment of pathSegments(column.path)) value = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>)[segment] : undefined;
    values[pathSegments(column.path).join(':')] = typeof value === JSON_TYPES[column.type] ? value : null;
  }
  return values;
}
