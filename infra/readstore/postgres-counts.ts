import { createHash } from 'node:crypto';
import type { SqlQueryable } from '../sql/client';
import { fitsColumn, fitsKey, INDEX_KEY_CHARS, parameterCast, type Columns, type TypedColumn } from './postgres-columns';
import type { SqlParams } from './postgres-filter';
import type { Condition, Filter, Scalar } from './query';

/**
 * Kept counts (ReadStore.ensureCounts): a table `rm_n_<hash>` of (key, n), the key being the
 * JSON array of the counted columns' values, kept by row triggers on the collection's table: one
 * after insert or delete, one after an update that changes a counted column. Triggers, not the
 * write statement, keep them, so they stay exact when two instances apply the same batch at
 * once (the second upsert fires an update whose old and new values are equal: nothing counted).
 * The counter's group and fields are the comment of its insert/delete trigger, so any process
 * finds a table's counters in the catalog; its function and table share the trigger's name.
 */
export interface Counter {
  /** The name of the counts table, of its function and of its insert/delete trigger. */
  readonly name: string;
  readonly group: string;
  readonly fields: readonly string[];
}

const PREFIX = 'rm_n_';
const UPDATE_TRIGGER_SUFFIX = '_u';

/** The counters kept on `table`, from the catalog. */
export async function countersOf(sql: SqlQueryable, table: string): Promise<Counter[]> {
  const rows = await sql.query<{ name: string; comment: string | null }>(
    `select tgname as name, obj_description(oid, 'pg_trigger') as comment from pg_trigger where tgrelid = to_regclass($1) and left(tgname, ${PREFIX.length}) = $2`,
    [`"${table}"`, PREFIX],
  );
  return rows.flatMap(({ name, comment }) => {
    const described = parseDescription(comment);
    return described ? [{ name, ...described }] : [];
  });
}

/**
 * Creates the counter in one transaction that holds off writes (reads go on) while the counts
 * are filled from the table, so no write falls between the fill and the triggers.
 */
export async function createCounter(tx: SqlQueryable, table: string, group: string, fields: readonly string[], columns: Columns): Promise<void> {
  const counted = fields.map((field) => {
    const column = columns.get(field);
    if (!column) throw new Error(`a kept count needs a typed column: ${field}`);
    return column;
  });
  const name = `${PREFIX}${createHash('sha256').update(`${table}\u0000${group}\u0000${fields.join('\u0000')}`).digest('hex').slice(0, 24)}`;
  // A long column is counted by its index key, which a count's primary key can hold whatever the value's length.
  const value = (column: TypedColumn, row: string) => (column.long ? `left(${row}."${column.name}", ${INDEX_KEY_CHARS})` : `${row}."${column.name}"`);
  const key = (row: 'old' | 'new') => `jsonb_build_array(${counted.map((column) => value(column, row)).join(', ')})`;
  const changed = counted.map((column) => `old."${column.name}" is distinct from new."${column.name}"`).join(' or ');
  await tx.query(`lock table "${table}" in share row exclusive mode`);
  await tx.query(`create table "${name}" (key jsonb constraint "${name}_pkey" primary key, n bigint not null)`);
  await tx.query(`create function "${name}"() returns trigger language plpgsql as $$
    begin
      if tg_op <> 'INSERT' then update "${name}" set n = n - 1 where key = ${key('old')}; end if;
      if tg_op <> 'DELETE' then
        insert into "${name}" as counts (key, n) values (${key('new')}, 1) on conflict (key) do update set n = counts.n + 1;
      end if;
      return null;
    end $$`);
  await tx.query(`create trigger "${name}" after insert or delete on "${table}" for each row execute function "${name}"()`);
  await tx.query(`create trigger "${name}${UPDATE_TRIGGER_SUFFIX}" after update on "${table}" for each row when (${changed}) execute function "${name}"()`);
  // Group and field paths are checked characters (no quote), as in the columns comment.
  await tx.query(`comment on trigger "${name}" on "${table}" is '${JSON.stringify({ group, fields })}'`);
  await tx.query(`insert into "${name}" (key, n) select jsonb_build_array(${counted.map((column) => value(column, `"${table}"`)).join(', ')}), count(*) from "${table}" group by 1`);
}

/** Drops the counter; its triggers go first, so no write fires a function whose table is gone. */
export async function dropCounter(tx: SqlQueryable, table: string, counter: Counter): Promise<void> {
  await tx.query(`drop trigger if exists "${counter.name}" on "${table}"`);
  await tx.query(`drop trigger if exists "${counter.name}${UPDATE_TRIGGER_SUFFIX}" on "${table}"`);
  await tx.query(`drop table if exists "${counter.name}"`);
  await tx.query(`drop function if exists "${counter.name}"()`);
}

/** Drops every counter of `table` (before the table itself goes). */
export async function dropCountersOf(tx: SqlQueryable, table: string): Promise<void> {
  for (const counter of await countersOf(tx, table)) await dropCounter(tx, table, counter);
}

/**
 * The total of `filter` read from a counter, when the filter is exactly equality on a counter's
 * fields, or equality on all but its last and on the last a list (`in`: the listed keys summed)
 * or a range (gt, gte, lt, lte), with values their columns can hold; null otherwise (the caller
 * counts). A range sums the counts of the keys between two JSON arrays: jsonb orders arrays of
 * one length element by element, and the values of one column (numbers, or strings compared with
 * the database's collation as the column is) after JSON null and before an object, which bound
 * an open end.
 */
export function countedTotalSql(counters: readonly Counter[], filter: Filter | undefined, columns: Columns, params: SqlParams): string | null {
  const conditions = filter ? simpleConditions(filter) : null;
  if (!conditions) return null;
  const byField = new Map<string, Condition[]>();
  for (const condition of conditions) byField.set(condition.field, [...(byField.get(condition.field) ?? []), condition]);
  const counter = counters.find((candidate) => candidate.fields.length === byField.size && candidate.fields.every((field) => byField.has(field)));
  if (!counter) return null;
  const leading = counter.fields.slice(0, -1);
  const last = counter.fields.at(-1)!;
  // Values are checked before any is added to `params`: a filter given up on must leave them as they were.
  const value = (field: string, scalar: Scalar | undefined): Bound | null => {
    const column = columns.get(field);
    if (!column || scalar === null || scalar === undefined || !fitsColumn(scalar, column.type)) return null;
    // A long column's count is by key: exact for a value shorter than the key (see postgres-typed-filter.ts).
    if (column.long && !fitsKey(scalar)) return null;
    return { scalar, cast: parameterCast(column.type) };
  };
  const prefix: Bound[] = [];
  for (const field of leading) {
    const [only, ...more] = byField.get(field)!;
    const equal = more.length === 0 && only!.operator === 'e' ? value(field, only!.value as Scalar) : null;
    if (equal === null) return null;
    prefix.push(equal);
  }
  const key = (end: Bound | string) =>
    `jsonb_build_array(${[...prefix, end].map((bound) => (typeof bound === 'string' ? bound : `${params.add(bound.scalar)}::${bound.cast}`)).join(', ')})`;
  const onLast = byField.get(last)!;
  if (onLast.length === 1 && onLast[0]!.operator === 'e') {
    const equal = value(last, onLast[0]!.value as Scalar);
    return equal === null ? null : `coalesce((select n from "${counter.name}" where key = ${key(equal)}), 0)::int`;
  }
  if (onLast.length === 1 && onLast[0]!.operator === 'in') {
    const listed = [...new Set(onLast[0]!.value as readonly Scalar[])].map((scalar) => value(last, scalar));
    if (listed.length === 0 || listed.some((bound) => bound === null)) return null;
    return `coalesce((select sum(n) from "${counter.name}" where key in (${listed.map((bound) => key(bound!)).join(', ')})), 0)::int`;
  }
  const lower = onLast.filter((condition) => condition.operator === 'gt' || condition.operator === 'gte');
  const upper = onLast.filter((condition) => condition.operator === 'lt' || condition.operator === 'lte');
  // Keys order as jsonb does, by the database's collation, which a long column's (key, value) order need not follow.
  if (lower.length > 1 || upper.length > 1 || lower.length + upper.length !== onLast.length || columns.get(last)?.type === 'boolean' || columns.get(last)?.long) return null;
  const from = lower[0] ? value(last, lower[0].value as Scalar) : 'null::jsonb';
  const to = upper[0] ? value(last, upper[0].value as Scalar) : `'{}'::jsonb`;
  if (from === null || to === null) return null;
  const fromOperator = lower[0]?.operator === 'gte' ? '>=' : '>';
  const toOperator = upper[0]?.operator === 'lte' ? '<=' : '<';
  return `coalesce((select sum(n) from "${counter.name}" where key ${fromOperator} ${key(from)} and key ${toOperator} ${key(to)}), 0)::int`;
}

/** A value of the key and the SQL type its parameter is cast to (the column's). */
interface Bound {
  readonly scalar: Exclude<Scalar, null>;
  readonly cast: string;
}

const COUNTABLE: ReadonlySet<string> = new Set(['e', 'in', 'gt', 'gte', 'lt', 'lte']);

/** The conditions of a filter made only of `and` and case-sensitive e, in (a list), gt, gte, lt, lte (a scalar); null for any other filter. */
function simpleConditions(filter: Filter): Condition[] | null {
  const found: Condition[] = [];
  const visit = (node: Filter): boolean => {
    if (node.type === 'and') return node.conditions.every(visit);
    if (node.type !== 'condition' || !COUNTABLE.has(node.operator) || node.caseInsensitive || Array.isArray(node.value) !== (node.operator === 'in')) return false;
    found.push(node);
    return true;
  };
  return visit(filter) && found.length > 0 ? found : null;
}

function parseDescription(comment: string | null): { group: string; fields: string[] } | null {
  if (!comment) return null;
  try {
    const parsed = JSON.parse(comment) as { group?: unknown; fields?: unknown };
    if (typeof parsed.group !== 'string' || !Array.isArray(parsed.fields) || !parsed.fields.every((field) => typeof field === 'string')) return null;
    return { group: parsed.group, fields: parsed.fields as string[] };
  } catch {
    return null;
  }
}
