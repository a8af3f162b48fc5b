import { createHash } from 'node:crypto';
import type { SqlQueryable } from '../sql/client';
import { fitsColumn, parameterCast, type Columns } from './postgres-columns';
import type { SqlParams } from './postgres-filter';
import type { Filter, Scalar } from './query';

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
    return `"${column.name}"`;
  });
  const name = `${PREFIX}${createHash('sha256').update(`${table}\u0000${group}\u0000${fields.join('\u0000')}`).digest('hex').slice(0, 24)}`;
  const key = (row: 'old' | 'new') => `jsonb_build_array(${counted.map((column) => `${row}.${column}`).join(', ')})`;
  const changed = counted.map((column) => `old.${column} is distinct from new.${column}`).join(' or ');
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
  await tx.query(`insert into "${name}" (key, n) select jsonb_build_array(${counted.join(', ')}), count(*) from "${table}" group by 1`);
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
 * fields with values their columns can hold; null otherwise (the caller counts). An absent key
 * counts 0, as does a key whose documents were all deleted.
 */
export function countedTotalSql(counters: readonly Counter[], filter: Filter | undefined, columns: Columns, params: SqlParams): string | null {
  const equal = filter ? equalities(filter) : null;
  if (!equal) return null;
  const counter = counters.find((candidate) => candidate.fields.length === equal.size && candidate.fields.every((field) => equal.has(field)));
  if (!counter) return null;
  const values = counter.fields.map((field) => ({ value: equal.get(field)!, column: columns.get(field) }));
  if (values.some(({ value, column }) => !column || !fitsColumn(value, column.type))) return null;
  const key = values.map(({ value, column }) => `${params.add(value)}::${parameterCast(column!.type)}`).join(', ');
  return `coalesce((select n from "${counter.name}" where key = jsonb_build_array(${key})), 0)::int`;
}

/** The field → value of a filter made only of `and` and case-sensitive `e` with non-null scalars, each field once; null for any other filter. */
function equalities(filter: Filter): Map<string, Exclude<Scalar, null>> | null {
  const found = new Map<string, Exclude<Scalar, null>>();
  const visit = (node: Filter): boolean => {
    if (node.type === 'and') return node.conditions.every(visit);
    if (node.type !== 'condition' || node.operator !== 'e' || node.caseInsensitive) return false;
    const value = node.value;
    if (value === null || value === undefined || Array.isArray(value) || found.has(node.field)) return false;
    found.set(node.field, value as Exclude<Scalar, null>);
    return true;
  };
  return visit(filter) && found.size > 0 ? found : null;
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
