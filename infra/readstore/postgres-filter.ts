import type { AggregateOperation, Condition, Filter, Scalar, SortKey } from './query';
import { listValue, pathSegments, scalarValue, stringList } from './conditions';
import { type Columns, keySql, NO_COLUMNS } from './postgres-columns';
import { typedAggregateSql, typedConditionSql } from './postgres-typed-filter';


/** Bind parameters collected while a statement is built; `add` returns the placeholder. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The JSONB value at a dot path, e.g. `(doc #> '{fields,price}')`. Index definitions use
 * this same text: the planner uses an expression index only for an identical expression.
 * The path is inlined rather than bound for that reason, which is safe because every
 * segment is checked against a character set that needs no quoting.
 */
export function jsonValue(path: string): string {
  return `(doc #> '{${pathSegments(path).join(',')}}')`;
}

function jsonText(path: string): string {
  return `(doc #>> '{${pathSegments(path).join(',')}}')`;
}

/** The value of a path as an index keys it: its typed column's key when it has one. */
export function valueSql(path: string, columns: Columns = NO_COLUMNS): string {
  const column = columns.get(path);
  return column ? keySql(column) : jsonValue(path);
}

/** A boolean SQL expression for the filter; `true` when there is none. Paths with a typed column compare the column. */
export function whereSql(filter: Filter | undefined, params: SqlParams, columns: Columns = NO_COLUMNS): string {
  return filter ? filterSql(filter, params, columns) : 'true';
}

function filterSql(filter: Filter, params: SqlParams, columns: Columns): string {
  switch (filter.type) {
    case 'and':
    case 'or': {
      if (filter.conditions.length === 0) return filter.type === 'and' ? 'true' : 'false';
      return `(${filter.conditions.map((inner) => filterSql(inner, params, columns)).join(` ${filter.type} `)})`;
    }
    case 'not':
      return negate(filterSql(filter.condition, params, columns));
    case 'condition': {
      const column = columns.get(filter.field);
      return column ? typedConditionSql(column, filter, params, negate) : conditionSql(filter, params);
    }
    default:
      throw new Error(`unknown filter type: ${String((filter as { type: unknown }).type)}`);
  }
}

/**
 * A condition on a missing field yields SQL null rather than false; `not null` would stay
 * null and drop the row, so negations first turn null into false.
 */
function negate(sql: string): string {
  return `not coalesce(${sql}, false)`;
}

function conditionSql(condition: Condition, params: SqlParams): string {
  const value = jsonValue(condition.field);
  switch (condition.operator) {
    case 'e':
      return equalsSql(value, scalarValue(condition), params);
    case 'ne':
      return negate(equalsSql(value, scalarValue(condition), params));
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return comparisonSql(value, condition, params);
    case 'in':
      return inSql(value, listValue(condition), params);
    case 'nin':
      return negate(inSql(value, listValue(condition), params));
    case 'start':
    case 'end':
    case 'contains':
      return textSql(condition, params);
    case 'includes':
      return `(jsonb_typeof(${value}) = 'array' and ${value} ?| ${params.add(stringList(condition))}::text[])`;
    case 'noe':
      return emptySql(value);
    case 'nnoe':
      return negate(emptySql(value));
    default:
      throw new Error(`unknown filter operator: ${String(condition.operator)}`);
  }
}

const COMPARISON_SQL = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

// Equality to null also matches a missing field, as in MongoDB.
function equalsSql(value: string, expected: Scalar, params: SqlParams): string {
  if (expected === null) return `(${value} is null or ${value} = 'null'::jsonb)`;
  return `${value} = ${params.add(JSON.stringify(expected))}::jsonb`;
}

// jsonb orders values of different types by type first, so the type check keeps `gt 5` from matching strings or booleans.
function comparisonSql(value: string, condition: Condition, params: SqlParams): string {
  const expected = scalarValue(condition);
  if (expected === null) throw new Error(`operator ${condition.operator} on ${condition.field} needs a non-null value`);
  const operator = COMPARISON_SQL[condition.operator as keyof typeof COMPARISON_SQL];
  const type = params.add(typeof expected);
  return `(jsonb_typeof(${value}) = ${type} and ${value} ${operator} ${params.add(JSON.stringify(expected))}::jsonb)`;
}

function inSql(value: string, list: readonly Scalar[], params: SqlParams): string {
  const values = list.filter((item) => item !== null);
  const tests = values.length > 0 ? [`${value} in (${values.map((item) => `${params.add(JSON.stringify(item))}::jsonb`).join(', ')})`] : [];
  if (values.length < list.length) tests.push(equalsSql(value, null, params));
  return tests.length > 0 ? `(${tests.join(' or ')})` : 'false';
}

function textSql(condition: Condition, params: SqlParams): string {
  const text = condition.value;
  if (typeof text !== 'string') throw new Error(`operator ${condition.operator} on ${condition.field} needs a string value`);
  const escaped = text.replace(/[\\%_]/g, (character) => `\\${character}`);
  const pattern = condition.operator === 'start' ? `${escaped}%` : condition.operator === 'end' ? `%${escaped}` : `%${escaped}%`;
  const like = condition.caseInsensitive ? 'ilike' : 'like';
  return `(jsonb_typeof(${jsonValue(condition.field)}) = 'string' and ${jsonText(condition.field)} ${like} ${params.add(pattern)})`;
}

function emptySql(value: string): string {
  return `(${value} is null or ${value} in ('null'::jsonb, '""'::jsonb, '[]'::jsonb))`;
}

/**
 * Missing and null sort lowest, as in MongoDB; matching indexes are created `nulls first`
 * so both directions can be read from them. Ties end in id order, unless the sort is unique.
 */
export function orderBySql(sort: readonly SortKey[] | undefined, columns: Columns = NO_COLUMNS, sortIsUnique = false): string {
  const keys = (sort ?? []).flatMap((key) => {
    if (key.direction !== 'asc' && key.direction !== 'desc') throw new Error(`invalid sort direction: ${String(key.direction)}`);
    const direction = key.direction === 'asc' ? 'asc nulls first' : 'desc nulls last';
    const column = columns.get(key.field);
    // A long column's index holds a key of each value: the order is the key's, then the whole value's.
    if (column?.long) return [`${keySql(column)} ${direction}`, `"${column.name}" ${direction}`];
    return [`${valueSql(key.field, columns)} ${direction}`];
  });
  return (sortIsUnique && keys.length > 0 ? keys : [...keys, 'id asc']).join(', ');
}

/** An aggregate expression over the field, returned as float8 so it arrives as a JS number; sums and averages add decimals (numeric). */
export function aggregateSql(field: string, operation: AggregateOperation, columns: Columns = NO_COLUMNS): string {
  const value = jsonValue(field);
  const column = columns.get(field);
  switch (operation) {
    case 'count':
      if (column) return typedAggregateSql(column, operation);
      // count skips SQL nulls: missing fields, and JSON nulls once nullif has turned them into SQL nulls.
      return `count(nullif(${value}, 'null'::jsonb))::float8`;
    case 'sum':
    case 'avg':
    case 'min':
    case 'max':
      if (column) return typedAggregateSql(column, operation);
      return `${operation}(case when jsonb_typeof(${value}) = 'number' then ${value}::numeric end)::float8`;
    default:
      throw new Error(`unknown aggregate operation: ${String(operation)}`);
  }
}

/** The group key: missing and JSON null fall into one group, returned as null. */
export function groupSql(field: string, columns: Columns = NO_COLUMNS): string {
  const column = columns.get(field);
  if (column) return `"${column.name}"`;
  return `nullif(${jsonValue(field)}, 'null'::jsonb)`;
}
