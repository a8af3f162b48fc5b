import type { AggregateOperation, Condition, Scalar } from './query';
import { listValue, scalarValue } from './conditions';
import { characters, fitsColumn, fitsKey, INDEX_KEY_CHARS, keySql, parameterCast, type TypedColumn } from './postgres-columns';
import type { SqlParams } from './postgres-filter';

/**
 * Conditions on a typed column, with the meaning they have on the JSONB document (see
 * query.ts): the column is null where the value is missing, null or of another JSON type,
 * which is exactly where the JSON operators answer "unknown" or false. Each form is one an
 * index on the column serves: `col = $1`, `col > $1`, `col like 'ab%'` (text_pattern_ops),
 * `lower(col) like ...`, `col like '%ab%'` (pg_trgm).
 *
 * A long column (ColumnDefinition.long) is indexed on the first INDEX_KEY_CHARS characters of
 * its values, and its order is (key, whole value). A value shorter than the key is compared on
 * the key alone, which is then exact: a key equal to a shorter value is the whole value. A
 * longer value compares the key with the value's key (what the index serves) and rechecks
 * the whole value in that order.
 */

export function typedConditionSql(column: TypedColumn, condition: Condition, params: SqlParams, negate: (sql: string) => string): string {
  const col = `"${column.name}"`;
  switch (condition.operator) {
    case 'e':
      return typedEquals(column, scalarValue(condition), params);
    case 'ne':
      return negate(typedEquals(column, scalarValue(condition), params));
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const expected = scalarValue(condition);
      if (expected === null) throw new Error(`operator ${condition.operator} on ${condition.field} needs a non-null value`);
      if (!fitsColumn(expected, column.type)) return 'false';
      const operator = COMPARISON_SQL[condition.operator];
      if (!column.long || fitsKey(expected)) return `${keySql(column)} ${operator} ${params.add(expected)}::${parameterCast(column.type)}`;
      const value = params.add(expected);
      const key = `left(${value}::text, ${INDEX_KEY_CHARS})`;
      const keyOperator = operator.startsWith('>') ? '>=' : '<=';
      return `(${keySql(column)} ${keyOperator} ${key} and (${keySql(column)}, ${col}) ${operator} (${key}, ${value}::text))`;
    }
    case 'in':
      return typedIn(column, listValue(condition), params);
    case 'nin':
      return negate(typedIn(column, listValue(condition), params));
    case 'start':
    case 'end':
    case 'contains':
      return typedText(column, condition, params);
    case 'includes':
      // A typed column holds one scalar per row, never an array.
      return 'false';
    case 'noe':
      return typedEmpty(column);
    case 'nnoe':
      return negate(typedEmpty(column));
    default:
      throw new Error(`unknown filter operator: ${String(condition.operator)}`);
  }
}

const COMPARISON_SQL = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function typedEquals(column: TypedColumn, expected: Scalar, params: SqlParams): string {
  if (expected === null) return `"${column.name}" is null`;
  if (!fitsColumn(expected, column.type)) return 'false';
  const value = params.add(expected);
  if (!column.long || fitsKey(expected)) return `${keySql(column)} = ${value}::${parameterCast(column.type)}`;
  return `(${keySql(column)} = left(${value}::text, ${INDEX_KEY_CHARS}) and "${column.name}" = ${value}::text)`;
}

function typedIn(column: TypedColumn, list: readonly Scalar[], params: SqlParams): string {
  const values = list.filter((item) => item !== null && fitsColumn(item, column.type));
  const short = column.long ? values.filter(fitsKey) : values;
  const tests = short.length > 0 ? [`${keySql(column)} = any(${params.add(short)}::${parameterCast(column.type)}[])`] : [];
  for (const value of values.filter((item) => !short.includes(item))) tests.push(typedEquals(column, value, params));
  if (list.includes(null)) tests.push(`"${column.name}" is null`);
  return tests.length > 0 ? `(${tests.join(' or ')})` : 'false';
}

/**
 * `start` is `col like 'ab%'`, which a text_pattern_ops index serves as a range once the
 * planner sees the pattern (plans are custom: pg's unnamed statements, PGlite's
 * plan_cache_mode); folded, `lower(col) like lower(...)` against an index on lower(col).
 * `end` and `contains` use like/ilike, which a pg_trgm index serves.
 */
function typedText(column: TypedColumn, condition: Condition, params: SqlParams): string {
  const text = condition.value;
  if (typeof text !== 'string') throw new Error(`operator ${condition.operator} on ${condition.field} needs a string value`);
  if (column.type !== 'text') return 'false';
  const escaped = text.replace(/[\\%_]/g, (character) => `\\${character}`);
  const col = `"${column.name}"`;
  if (condition.operator === 'start') {
    // Filters' text values are at most a key long (docs/field-types.md, "Limits"), so the key alone answers `start`.
    const key = column.long && characters(text) <= INDEX_KEY_CHARS ? keySql(column) : col;
    const pattern = params.add(`${escaped}%`);
    return condition.caseInsensitive ? `lower(${key}) like lower(${pattern})` : `${key} like ${pattern}`;
  }
  const pattern = params.add(condition.operator === 'end' ? `%${escaped}` : `%${escaped}%`);
  return `${col} ${condition.caseInsensitive ? 'ilike' : 'like'} ${pattern}`;
}

function typedEmpty(column: TypedColumn): string {
  return column.type === 'text' ? `("${column.name}" is null or ${keySql(column)} = '')` : `"${column.name}" is null`;
}

/**
 * Sums and averages add decimals (numeric), not binary fractions: 0.1 + 0.2 is 0.3, as the API's
 * decimal answers say, where float8 addition gives 0.30000000000000004. A float8 becomes numeric
 * with its 15 significant digits, as MongoDB's $toDecimal and .NET's decimal conversion do.
 */
export function typedAggregateSql(column: TypedColumn, operation: AggregateOperation): string {
  if (operation === 'count') return `count("${column.name}")::float8`;
  if (column.type !== 'double precision') return 'null::float8';
  if (operation === 'min' || operation === 'max') return `${operation}("${column.name}")`;
  if (operation === 'sum') return exactSumSql(`"${column.name}"`);
  return `${operation}("${column.name}"::numeric)::float8`;
}

/**
 * The sum of `value::numeric` without converting most values: float8 to numeric prints the value
 * (`%.15g`) and parses the text, two thirds of a grouped sum's time. A value v with |v| < 1e9
 * that is the float8 nearest to n / 10^6 for the integer n = round(v * 10^6) is within half a unit
 * in its last place of n / 10^6, which is less than half a unit of its 15th significant digit, and
 * n / 10^6 lies on that digit's grid (6 decimals, under 10^9): so its 15 digits are n / 10^6, and
 * n is summed as an integer. Any other value (more decimals, larger, or not the nearest float8 to a
 * short decimal, like 0.1 + 0.2) is converted as before. Both parts are exact: the total is the
 * same numeric, bit for bit the same float8. Averages keep the conversion: numeric's division scale
 * depends on the scales of the values summed.
 */
function exactSumSql(value: string): string {
  const micros = `round(${value} * 1e6::float8)`;
  const short = `(abs(${value}) < 1e9::float8 and ${value} = ${micros} / 1e6::float8)`;
  const fast = `(sum(${micros}::int8) filter (where ${short})::numeric * 0.000001)`;
  const converted = `sum(${value}::numeric) filter (where not ${short})`;
  return `coalesce(${fast} + ${converted}, ${fast}, ${converted})::float8`;
}
