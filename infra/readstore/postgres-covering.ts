import type { SqlQueryable } from '../sql/client';
import type { IndexDefinition } from './port';
import { type Columns, INDEX_KEY_CHARS, type TypedColumn } from './postgres-columns';

/**
 * Covering indexes (IndexDefinition.covering) on PostgreSQL. An ordinary index keys a long column
 * on a prefix of each value (keySql), and the planner reads an index alone only when the index
 * holds every column a query names, so an aggregate grouped by a long column always read the
 * rows. A covering index holds its long columns whole, and to keep each entry within a b-tree's
 * 2,704 bytes it is partial: it indexes the rows whose values there are all shorter than
 * INDEX_KEY_CHARS. A companion index, partial on the other rows (ordinarily none), finds those:
 * an aggregate reads the union of the two parts (coveredSourceSql), the first from the covering
 * index alone. The companion's comment names the columns held whole, so any process finds from
 * the catalog which queries can be split so.
 */

/** The companion of covering index `name`: its name (within the index group's prefix, so ensureIndexes keeps and drops it with the group). */
export const companionName = (name: string) => `${name}l`;

/** The long columns a covering index holds whole: each long typed column it names. */
export function wholeColumns(index: IndexDefinition, columns: Columns): TypedColumn[] {
  if (!index.covering) return [];
  return index.fields.flatMap((field) => {
    const column = columns.get(field);
    return column?.long ? [column] : [];
  });
}

/** True for a row whose values in `whole` (column names) are each null or shorter than an index key. */
export function shortValuesSql(whole: readonly string[]): string {
  return whole.map((name) => `coalesce(length("${name}"), 0) < ${INDEX_KEY_CHARS}`).join(' and ');
}

/**
 * The companion of a covering index that holds the columns `whole` whole: `keys`, the covering
 * index's keys on its other columns (never a long value: an entry of the rows it holds could not
 * take one), over the rows the covering index leaves out, with the columns held whole as its comment.
 */
export function companionStatements(table: string, keys: readonly string[], whole: readonly string[], name: string, concurrently: boolean): string[] {
  return [
    `create index${concurrently ? ' concurrently' : ''} if not exists "${name}" on "${table}" (${keys.join(', ')}) where not (${shortValuesSql(whole)})`,
    // Column names are c_ and a checked path (letters, digits, _, -, .): nothing to escape.
    `comment on index "${name}" is '${JSON.stringify({ covering: whole })}'`,
  ];
}

/** The column sets held whole by the table's covering indexes whose companion is built. */
export async function coveredColumnSets(sql: SqlQueryable, table: string): Promise<string[][]> {
  const rows = await sql.query<{ comment: string | null }>(
    `select obj_description(i.indexrelid, 'pg_class') as comment from pg_index i where i.indrelid = to_regclass($1) and i.indisvalid and i.indpred is not null`,
    [`"${table}"`],
  );
  return rows.flatMap(({ comment }) => {
    if (!comment) return [];
    try {
      const covering = (JSON.parse(comment) as { covering?: unknown }).covering;
      return Array.isArray(covering) && covering.every((name) => typeof name === 'string') ? [covering as string[]] : [];
    } catch {
      return [];
    }
  });
}

/**
 * The table as the union of the rows a covering index holds and those its companion holds: the
 * same rows, each once, so any query over it answers as over the table. The planner pushes a
 * query's conditions into both parts and reads the first from the covering index alone.
 */
export function coveredSourceSql(table: string, whole: readonly string[]): string {
  const short = shortValuesSql(whole);
  return `(select * from "${table}" where ${short} union all select * from "${table}" where not (${short})) as "${table}"`;
}
