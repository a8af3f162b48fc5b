import type { Document } from './port';
import type { AggregateGroup, AggregateGroupQuery, AggregateOperation, AggregateQuery, Condition, Filter, FindQuery, FindResult, Scalar, SortKey } from './query';
import { listValue, scalarValue, stringList } from './conditions';
import { add, average, type Decimal, float8Numeric, jsonNumeric, toNumber, ZERO } from './memory-decimal';
import { columnValue, compareJson, compareScalars, compareText, foldCase, jsonAt, jsonType, type JsonValue, type MemoryColumns, NO_MEMORY_COLUMNS } from './memory-values';

/**
 * The read store's query language (query.ts) evaluated over documents in memory, answering what
 * the PostgreSQL read store answers for the same documents in a collection with the same typed
 * columns (test/conformance/memory-query.suite.ts compares them on both engines): a filter,
 * an order with its final id tie-break, totals, aggregates and groups. It serves a release's
 * preview (queries/release-preview-reads.ts), which holds at most a release's items.
 *
 * Conditions are two-valued here: every negation in the SQL turns "unknown" into false first,
 * so "unknown" and false select the same rows.
 */

type Value = JsonValue | undefined;

export function matches(document: Document, filter: Filter | undefined, columns: MemoryColumns = NO_MEMORY_COLUMNS): boolean {
  if (!filter) return true;
  switch (filter.type) {
    case 'and':
      return filter.conditions.every((inner) => matches(document, inner, columns));
    case 'or':
      return filter.conditions.some((inner) => matches(document, inner, columns));
    case 'not':
      return !matches(document, filter.condition, columns);
    case 'condition': {
      const type = columns.get(filter.field);
      const value = jsonAt(document, filter.field);
      return type ? typedCondition(columnValue(value, type), type === 'text' || type === 'datetime' ? 'string' : type, filter) : jsonCondition(value, filter);
    }
  }
}

function jsonCondition(value: Value, condition: Condition): boolean {
  switch (condition.operator) {
    case 'e':
      return jsonEquals(value, scalarValue(condition));
    case 'ne':
      return !jsonEquals(value, scalarValue(condition));
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const expected = orderedValue(condition);
      return value !== undefined && jsonType(value) === typeof expected && COMPARED[condition.operator](compareJson(value, expected));
    }
    case 'in':
      return listValue(condition).some((expected) => jsonEquals(value, expected));
    case 'nin':
      return !listValue(condition).some((expected) => jsonEquals(value, expected));
    case 'start':
    case 'end':
    case 'contains':
      return typeof value === 'string' && textMatches(value, condition);
    case 'includes': {
      const wanted = stringList(condition);
      return Array.isArray(value) && value.some((element) => typeof element === 'string' && wanted.includes(element));
    }
    case 'noe':
      return isEmpty(value);
    case 'nnoe':
      return !isEmpty(value);
  }
}

/** Equality to null also matches a missing field. */
function jsonEquals(value: Value, expected: Scalar): boolean {
  if (expected === null) return value === undefined || value === null;
  return value !== undefined && jsonType(value) === typeof expected && compareJson(value, expected) === 0;
}

const isEmpty = (value: Value) => value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** A typed column's conditions (postgres-typed-filter.ts): null where the value is missing, null or of another type. */
function typedCondition(value: string | number | boolean | null, kind: 'string' | 'number' | 'boolean', condition: Condition): boolean {
  const fits = (expected: Scalar) => typeof expected === kind;
  switch (condition.operator) {
    case 'e':
    case 'ne': {
      const expected = scalarValue(condition);
      const equal = expected === null ? value === null : fits(expected) && value === expected;
      return condition.operator === 'e' ? equal : !equal;
    }
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const expected = orderedValue(condition);
      return fits(expected) && value !== null && COMPARED[condition.operator](compareScalars(value, expected));
    }
    case 'in':
    case 'nin': {
      const found = listValue(condition).some((expected) => (expected === null ? value === null : fits(expected) && value === expected));
      return condition.operator === 'in' ? found : !found;
    }
    case 'start':
    case 'end':
    case 'contains':
      if (typeof condition.value !== 'string') throw new Error(`operator ${condition.operator} on ${condition.field} needs a string value`);
      return kind === 'string' && typeof value === 'string' && textMatches(value, condition);
    case 'includes':
      return false;
    case 'noe':
      return value === null || value === '';
    case 'nnoe':
      return !(value === null || value === '');
  }
}

const COMPARED = { gt: (order: number) => order > 0, gte: (order: number) => order >= 0, lt: (order: number) => order < 0, lte: (order: number) => order <= 0 } as const;

function orderedValue(condition: Condition): string | number | boolean {
  const expected = scalarValue(condition);
  if (expected === null) throw new Error(`operator ${condition.operator} on ${condition.field} needs a non-null value`);
  return expected;
}

/** like / ilike with the value's wildcards escaped: ilike compares both sides through lower(). */
function textMatches(value: string, condition: Condition): boolean {
  const text = condition.value;
  if (typeof text !== 'string') throw new Error(`operator ${condition.operator} on ${condition.field} needs a string value`);
  const [subject, part] = condition.caseInsensitive ? [foldCase(value), foldCase(text)] : [value, text];
  if (condition.operator === 'start') return subject.startsWith(part);
  if (condition.operator === 'end') return subject.endsWith(part);
  return subject.includes(part);
}

/**
 * The store's order: each key ascending with missing and null first (descending: last), then
 * the id ascending unless the sort is unique. A typed column orders its values and holds null
 * for the rest; a JSONB path orders by jsonb's rules, a missing field first.
 */
export function documentOrder(sort: readonly SortKey[] | undefined, columns: MemoryColumns = NO_MEMORY_COLUMNS, sortIsUnique = false): (a: Document, b: Document) => number {
  const keys = (sort ?? []).map((key) => {
    if (key.direction !== 'asc' && key.direction !== 'desc') throw new Error(`invalid sort direction: ${String(key.direction)}`);
    const type = columns.get(key.field);
    const sign = key.direction === 'asc' ? 1 : -1;
    const compare = type
      ? (a: Document, b: Document) => missingFirst(columnValue(jsonAt(a, key.field), type) ?? undefined, columnValue(jsonAt(b, key.field), type) ?? undefined, compareScalars)
      : (a: Document, b: Document) => missingFirst(jsonAt(a, key.field), jsonAt(b, key.field), compareJson);
    return (a: Document, b: Document) => sign * compare(a, b);
  });
  if (!(sortIsUnique && keys.length > 0)) keys.push((a, b) => compareText(a.id, b.id));
  return (a, b) => {
    for (const key of keys) {
      const order = key(a, b);
      if (order !== 0) return order;
    }
    return 0;
  };
}

/** SQL null (a missing path, a typed column's null) before any value; a JSONB null is a value, the least. */
function missingFirst<T>(a: T | undefined, b: T | undefined, compare: (x: T, y: T) => number): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  return compare(a, b);
}

/** The documents a query selects, in its order, and the page of them it asks for. */
export function findInMemory<T extends Document>(documents: readonly T[], query: FindQuery, columns: MemoryColumns = NO_MEMORY_COLUMNS): FindResult<T> {
  const selected = documents.filter((document) => matches(document, query.filter, columns)).sort(documentOrder(query.sort, columns, query.sortIsUnique));
  const offset = query.offset ?? 0;
  return { items: selected.slice(offset, query.limit === undefined ? undefined : offset + query.limit), total: selected.length };
}

/** What every aggregate operation needs of a set of documents: the parts two sets add up from (a preview's store part and its own). */
export interface AggregateParts {
  /** Documents whose value is not null (Count). */
  readonly present: number;
  /** Numeric values: how many, their exact sum, the least and the greatest. */
  readonly numbers: number;
  readonly sum: Decimal;
  readonly min: number | null;
  readonly max: number | null;
}

export const NO_PARTS: AggregateParts = { present: 0, numbers: 0, sum: ZERO, min: null, max: null };

/** Sums read numbers as the store's numeric does: a JSONB number exactly, a float8 column with 15 significant digits. */
export function aggregateParts(documents: readonly Document[], field: string, columns: MemoryColumns = NO_MEMORY_COLUMNS): AggregateParts {
  const type = columns.get(field);
  let parts = NO_PARTS;
  for (const document of documents) {
    const json = jsonAt(document, field);
    const value = type ? columnValue(json, type) : json;
    if (value === null || value === undefined) continue;
    const number = typeof value === 'number' && (!type || type === 'number') ? value : null;
    parts = combineParts(parts, {
      present: 1,
      numbers: number === null ? 0 : 1,
      sum: number === null ? ZERO : type ? float8Numeric(number) : jsonNumeric(number),
      min: number,
      max: number,
    });
  }
  return parts;
}

export function combineParts(a: AggregateParts, b: AggregateParts): AggregateParts {
  const pick = (x: number | null, y: number | null, choose: (x: number, y: number) => number) => (x === null ? y : y === null ? x : choose(x, y));
  return { present: a.present + b.present, numbers: a.numbers + b.numbers, sum: add(a.sum, b.sum), min: pick(a.min, b.min, Math.min), max: pick(a.max, b.max, Math.max) };
}

export function aggregateValue(parts: AggregateParts, operation: AggregateOperation): number | null {
  switch (operation) {
    case 'count':
      return parts.present;
    case 'sum':
      return parts.numbers === 0 ? null : toNumber(parts.sum);
    case 'avg':
      return parts.numbers === 0 ? null : average(parts.sum, parts.numbers);
    case 'min':
      return parts.min;
    case 'max':
      return parts.max;
  }
}

export function aggregateInMemory(documents: readonly Document[], query: AggregateQuery, columns: MemoryColumns = NO_MEMORY_COLUMNS): number | null {
  return aggregateValue(aggregateParts(documents.filter((document) => matches(document, query.filter, columns)), query.field, columns), query.operation);
}

/** The documents of each group in the store's group order: missing and null together first, then by value. */
export function groupsInMemory(documents: readonly Document[], query: Pick<AggregateGroupQuery, 'filter' | 'groupBy'>, columns: MemoryColumns = NO_MEMORY_COLUMNS): { group: JsonValue; documents: Document[] }[] {
  const type = columns.get(query.groupBy);
  const groups = new Map<string, { group: JsonValue; documents: Document[] }>();
  for (const document of documents) {
    if (!matches(document, query.filter, columns)) continue;
    const json = jsonAt(document, query.groupBy);
    // nullif(value, 'null'): a missing path and a JSONB null are one group, SQL's null, ordered first.
    const group = (type ? columnValue(json, type) : json) ?? null;
    const key = groupKey(group);
    const found = groups.get(key) ?? { group, documents: [] };
    found.documents.push(document);
    groups.set(key, found);
  }
  return [...groups.values()].sort((a, b) => groupOrder(a.group, b.group));
}

/** The store's order of groups: SQL's null first, then jsonb's order (a typed column's values are of one type). */
export const groupOrder = (a: JsonValue, b: JsonValue): number => missingFirst(a ?? undefined, b ?? undefined, compareJson);

export function aggregateGroupsInMemory(documents: readonly Document[], query: AggregateGroupQuery, columns: MemoryColumns = NO_MEMORY_COLUMNS): AggregateGroup[] {
  return groupsInMemory(documents, query, columns).map(({ group, documents: members }) => ({
    group: group as Scalar,
    value: aggregateValue(aggregateParts(members, query.field, columns), query.operation),
  }));
}

/** jsonb equality: numbers by value, objects whatever their keys' order. */
export function groupKey(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(groupKey).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${groupKey((value as Record<string, JsonValue>)[key]!)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}
