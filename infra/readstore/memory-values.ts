import type { ColumnDefinition, ColumnType } from './port';
import { pathSegments } from './conditions';

/**
 * How the PostgreSQL read store sees a document's values, for the in-memory evaluator
 * (memory-query.ts): the JSONB value at a path, or a typed column's value; and the order and
 * case folding of the database's "C" / "C.UTF-8" collation, the one the service creates its
 * databases with and PGlite has.
 */

/** A JSON value; undefined where the path is missing (SQL null). */
export type JsonValue = null | string | number | boolean | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** The typed columns of a collection by path: what a query on that path reads instead of the document. */
export type MemoryColumns = ReadonlyMap<string, ColumnType>;

export const NO_MEMORY_COLUMNS: MemoryColumns = new Map();

export function memoryColumns(declared: readonly ColumnDefinition[]): MemoryColumns {
  return new Map(declared.map((column) => [column.path, column.type]));
}

/** `doc #> '{a,b}'`: object keys, and array positions for integer segments (negative ones from the end). */
export function jsonAt(document: unknown, path: string): JsonValue | undefined {
  let current: unknown = document;
  for (const segment of pathSegments(path)) {
    if (Array.isArray(current)) {
      if (!/^-?\d+$/.test(segment)) return undefined;
      const index = Number(segment);
      current = current[index < 0 ? current.length + index : index];
    } else if (current !== null && typeof current === 'object') {
      current = Object.hasOwn(current, segment) ? (current as Record<string, unknown>)[segment] : undefined;
    } else {
      return undefined;
    }
    if (current === undefined) return undefined;
  }
  return current as JsonValue;
}

/** Longer strings are not date-times: such a column holds null for them (postgres-columns.ts). */
const MAX_DATETIME_CHARS = 64;

/** A typed column's value: the JSON value when its type is the column's, else null. */
export function columnValue(value: JsonValue | undefined, type: ColumnType): string | number | boolean | null {
  switch (type) {
    case 'text':
      return typeof value === 'string' ? value : null;
    case 'datetime':
      return typeof value === 'string' && codePoints(value) <= MAX_DATETIME_CHARS ? value : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
  }
}

export function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** Code point order, the order of "C" and "C.UTF-8" (UTF-16 units order differently past U+FFFF). */
export function compareText(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codeUnitRank(x) - codeUnitRank(y);
  }
  return a.length - b.length;
}

/** Surrogates (code points past U+FFFF) rank above U+E000–U+FFFF. */
function codeUnitRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/**
 * lower() of PostgreSQL on a UTF-8 database: each character alone mapped to its lowercase (no
 * context, as the final sigma; never to two characters, as JavaScript maps İ).
 */
export function foldCase(text: string): string {
  let folded = '';
  for (const character of text) {
    const lower = character.toLowerCase();
    folded += codePoints(lower) === 1 ? lower : ONE_CHARACTER_LOWER.get(character) ?? character;
  }
  return folded;
}

const ONE_CHARACTER_LOWER = new Map([['\u0130', 'i']]);

/** jsonb's order of types: null < string < number < boolean < array < object. */
const TYPE_RANK = { null: 0, string: 1, number: 2, boolean: 3, array: 4, object: 5 } as const;

export function jsonType(value: JsonValue): keyof typeof TYPE_RANK {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as 'string' | 'number' | 'boolean' | 'object';
}

/**
 * jsonb's btree order: by type, then by value; arrays by length, then element by element;
 * objects by number of pairs, then key and value in jsonb's key order (shorter keys first).
 * An empty array at the top sorts below everything, null included (PostgreSQL keeps it so for
 * historical reasons).
 */
export function compareJson(a: JsonValue, b: JsonValue): number {
  const emptyA = Array.isArray(a) && a.length === 0;
  const emptyB = Array.isArray(b) && b.length === 0;
  if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? -1 : 1;
  return compareNested(a, b);
}

function compareNested(a: JsonValue, b: JsonValue): number {
  const typeA = jsonType(a);
  const typeB = jsonType(b);
  if (typeA !== typeB) return TYPE_RANK[typeA] - TYPE_RANK[typeB];
  switch (typeA) {
    case 'null':
      return 0;
    case 'string':
      return compareText(a as string, b as string);
    case 'number':
    case 'boolean':
      return compareScalars(a as number | boolean, b as number | boolean);
    case 'array': {
      const [x, y] = [a as readonly JsonValue[], b as readonly JsonValue[]];
      if (x.length !== y.length) return x.length - y.length;
      for (let i = 0; i < x.length; i++) {
        const order = compareNested(x[i]!, y[i]!);
        if (order !== 0) return order;
      }
      return 0;
    }
    case 'object': {
      const [x, y] = [a as Record<string, JsonValue>, b as Record<string, JsonValue>];
      const [keysX, keysY] = [Object.keys(x).sort(jsonbKeyOrder), Object.keys(y).sort(jsonbKeyOrder)];
      if (keysX.length !== keysY.length) return keysX.length - keysY.length;
      for (let i = 0; i < keysX.length; i++) {
        const order = compareText(keysX[i]!, keysY[i]!) || compareNested(x[keysX[i]!]!, y[keysY[i]!]!);
        if (order !== 0) return order;
      }
      return 0;
    }
  }
}

const utf8Length = (text: string) => Buffer.byteLength(text, 'utf8');
const jsonbKeyOrder = (a: string, b: string) => utf8Length(a) - utf8Length(b) || compareText(a, b);

/** Two values of one scalar type: numbers, booleans (false < true) or text in code point order. */
export function compareScalars(a: string | number | boolean, b: string | number | boolean): number {
  if (typeof a === 'string') return compareText(a, b as string);
  return a < b ? -1 : a > b ? 1 : 0;
}
