import { createHash } from 'node:crypto';
import type { Position } from '../eventstore/port';
import type { SqlClient, SqlQueryable } from '../sql/client';
import { apartColumns, type ValuesSource, withValuesApart } from '../sql/json-apart';
import { jsonParam } from '../sql/json-param';
import type { Change, Checkpoint, CollectionLayout, ColumnDefinition, Document, IndexChanges, IndexDefinition, ReadStore } from './port';
import { aggregateSql, groupSql, jsonValue, orderBySql, SqlParams, valueSql, whereSql } from './postgres-filter';
import { indexIdentity } from './index-identity';
import { companionName, companionStatements, coveredColumnSets, coveredSourceSql, shortValuesSql, wholeColumns } from './postgres-covering';
import type { PostgresReadModelFence } from './fence-postgres';
import { type Counter, countedTotalSql, countersOf, createCounter, dropCounter, dropCountersOf } from './postgres-counts';
import {
  type Columns,
  columnDeclaration,
  columnName,
  columnValueSql,
  documentsTable,
  layoutComment,
  NO_LAYOUT,
  parseLayoutComment,
  plainColumnDeclaration,
  tableLayout,
  type TableLayout,
} from './postgres-columns';
import { type AggregateGroup, type AggregateGroupQuery, type AggregateQuery, type Condition, type Filter, type FindQuery, type FindResult, type Scalar, type SortKey, TEXT_OPERATORS } from './query';

const COLLECTION_NAME = /^[a-z][a-z0-9_]*$/i;
// Index names are `<table>_<suffix>` with a 10-character suffix; PostgreSQL cuts identifiers at 63 bytes.
const MAX_COLLECTION_NAME = 49;
const CHECKPOINTS = 'readstore_checkpoints';
const INDEX_GROUP = /^[a-z][a-z0-9]{0,7}$/;
const MAX_IDENTIFIER = 63;
const COUNTERS_TTL_MS = 5000;
/** PostgreSQL's undefined_table: a counts table dropped after this process read its counters. */
const UNDEFINED_TABLE = '42P01';
/**
 * Documents a batch statement may list and still be kept prepared with a generic plan (a live
 * batch under load lists about 50). Its plan is the same at any size (each collection's places
 * hashed, the listed documents probed against them), so the bound is not for the plan: it keeps
 * a rebuild's batches, whose statements name collections that are gone once it switches them in,
 * out of the process's few generic texts (pg-client.ts), and planning is a small part of them.
 */
const GENERIC_PLAN_DOCUMENTS = 512;

/**
 * The read store on PostgreSQL or PGlite: one table `rm_<collection>(id, doc jsonb)` per
 * collection, with declared indexes as expression indexes on the JSONB paths, and the
 * projector checkpoints in `readstore_checkpoints`, written in the same transaction as
 * the documents. Typed columns are generated columns of that table; a collection whose
 * documents are kept apart (CollectionLayout) is `rm_<collection>(id, typed columns)` and
 * `rm_<collection>-docs(id, doc jsonb)`, both written by each write.
 */
export class PostgresReadStore implements ReadStore {
  /**
   * The layout of each table (its typed columns, its documents apart or not), read once from its
   * comment. A table's layout never changes while it exists (a new column set is a new
   * collection), so this only forgets tables this process drops or swaps.
   */
  private readonly layouts = new Map<string, Promise<TableLayout>>();
  /**
   * The kept counts of each table, read again after COUNTERS_TTL_MS: another instance (the
   * builder's) may add or drop them. A total read from a counter dropped meanwhile fails on its
   * missing table, and is counted instead.
   */
  private readonly counters: CatalogReads<Counter[]> = new Map();
  /** The column sets each table's covering indexes hold whole (postgres-covering.ts), read again after COUNTERS_TTL_MS as the counters are. */
  private readonly covered: CatalogReads<string[][]> = new Map();
  /** The reads' connections (a replica's, where one serves), for statements that take a SqlQueryable. */
  private readonly reader: SqlQueryable = { query: (statement, params, options) => this.sql.read(statement, params, options) };

  private constructor(
    private readonly sql: SqlClient,
    private readonly fence: PostgresReadModelFence | null = null,
  ) {}

  /**
   * Writes on the read store's own connections (SqlClient.forReadModels), which readers of the event log do not wait for.
   * With a `fence`, every write that moves a checkpoint (apply with checkpoints, swapCollections) first checks it in the same
   * transaction: only the projecting instance moves checkpoints, and one that lost its lease must not.
   */
  static async open(client: SqlClient, options: { readonly fence?: PostgresReadModelFence } = {}): Promise<PostgresReadStore> {
    const sql = client.forReadModels();
    // numeric(20) holds any unsigned 64-bit position; bigint stops at 2^63.
    await sql.query(
      `create table if not exists ${CHECKPOINTS} (name text primary key, commit numeric(20) not null, prepare numeric(20) not null)`,
    );
    return new PostgresReadStore(sql, options.fence ?? null);
  }

  /** Queries only, creating and writing nothing: on a read-only standby (streaming replication) of the primary's store, or for `cms verify`. */
  static readOnly(client: SqlClient): PostgresReadStore {
    return new PostgresReadStore(client);
  }

  async ensureCollection(name: string, indexes: readonly IndexDefinition[], columns: readonly ColumnDefinition[] = [], options: CollectionLayout = {}): Promise<void> {
    const table = tableName(name);
    const layout = tableLayout(table, columns, options.documentsApart === true, options.documentsIn === undefined ? undefined : tableName(options.documentsIn));
    const createIndexes = indexes.flatMap((index) => [...indexStatements(table, index, layout).values()].flat());
    const needsTrigrams = indexes.some((index) => index.text === 'substring');
    const createStatistics = (await this.expressionStatistics()) ? typeStatistics(table, indexes, layout.columns) : [];
    this.layouts.delete(table);
    await this.sql.transaction(async (tx) => {
      if (needsTrigrams) await tx.query('create extension if not exists pg_trgm');
      if (layout.documentsApart) {
        const typedColumns = columns.map((column) => `, ${plainColumnDeclaration(column)}`).join('');
        await tx.query(`create table if not exists "${table}" (id text constraint "${table}_pkey" primary key${typedColumns})`);
        if (!layout.shared) await tx.query(`create table if not exists "${layout.documents}" (id text constraint "${layout.documents}_pkey" primary key, doc jsonb not null)`);
      } else {
        const typedColumns = columns.map((column) => `, ${columnDeclaration(column)}`).join('');
        await tx.query(`create table if not exists "${table}" (id text constraint "${table}_pkey" primary key, doc jsonb not null${typedColumns})`);
      }
      if (columns.length > 0) await tx.query(`comment on table "${table}" is ${layoutComment(layout)}`);
    });
    // One statement each, not one transaction: PGlite has one connection, which a transaction holds
    // to its end, so the live projections' writes would wait for every index of a wide table built
    // after a load (seconds); each statement is idempotent, so a call cut short is completed by the next.
    for (const statement of [...createIndexes, ...createStatistics]) await this.sql.query(statement);
    for (const statement of await this.searchedStatistics(table, indexes, indexes, layout.columns)) await this.sql.query(statement);
  }

  private statisticsOnExpressions: Promise<boolean> | undefined;

  /** PostgreSQL 14 and later (PGlite included) keep statistics on expressions. */
  private expressionStatistics(): Promise<boolean> {
    this.statisticsOnExpressions ??= this.sql
      .query<{ version: number }>(`select current_setting('server_version_num')::int as version`)
      .then((rows) => (rows[0]?.version ?? 0) >= 140000);
    return this.statisticsOnExpressions;
  }

  /**
   * Group indexes are named `<table>_<group>_<hash of the definition>`, so the catalog tells
   * which exist. On PostgreSQL they are built and dropped concurrently (writes go on; a build
   * that fails leaves an invalid index, dropped and built again by the next call); PGlite has
   * one connection and no concurrent builds, so there a plain build runs.
   */
  async ensureIndexes(name: string, group: string, indexes: readonly IndexDefinition[]): Promise<IndexChanges> {
    if (!INDEX_GROUP.test(group)) throw new Error(`invalid index group: ${group}`);
    const table = tableName(name);
    const prefix = `${table}_${group}_`;
    if (prefix.length + 10 > MAX_IDENTIFIER) throw new Error(`collection name too long for index group ${group}: ${name}`);
    await this.requireCollection(name);
    const layout = await this.layoutOf(name);
    const concurrently = this.sql.engine === 'postgres';
    // A covering index's companion is a name of its own: one missing (a build cut short) is built alone.
    const wanted = new Map(
      indexes.flatMap((index) => [...indexStatements(table, index, layout, { name: `${prefix}${indexSuffix(index)}`, concurrently })].map(([name, statements]) => [name, { index, statements }] as const)),
    );
    const present = await this.sql.query<{ name: string; valid: boolean }>(
      `select c.relname as name, i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid where i.indrelid = $1::regclass and left(c.relname, $2) = $3`,
      [`"${table}"`, prefix.length, prefix],
    );
    const dropped = present.filter((index) => !wanted.has(index.name) || !index.valid).map((index) => index.name);
    for (const index of dropped) await this.sql.query(`drop index${concurrently ? ' concurrently' : ''} if exists "${index}"`);
    const kept = new Set(present.filter((index) => !dropped.includes(index.name)).map((index) => index.name));
    const created = [...wanted.keys()].filter((index) => !kept.has(index));
    const createdIndexes = created.map((name) => wanted.get(name)!.index);
    if (createdIndexes.some((index) => index.text === 'substring')) await this.sql.query('create extension if not exists pg_trgm');
    this.covered.delete(table);
    for (const name of created) for (const statement of wanted.get(name)!.statements) await this.sql.query(statement);
    for (const statement of await this.searchedStatistics(table, createdIndexes, indexes, layout.columns)) await this.sql.query(statement);
    return { created, dropped: dropped.filter((index) => !wanted.has(index)) };
  }

  async ensureCounts(name: string, group: string, fieldSets: readonly (readonly string[])[]): Promise<void> {
    if (!INDEX_GROUP.test(group)) throw new Error(`invalid index group: ${group}`);
    const table = tableName(name);
    await this.requireCollection(name);
    const { columns } = await this.layoutOf(name);
    const same = (fields: readonly string[], other: readonly string[]) => fields.length === other.length && fields.every((field, index) => field === other[index]);
    this.counters.delete(table);
    await this.sql.transaction(async (tx) => {
      const present = (await countersOf(tx, table)).filter((counter) => counter.group === group);
      for (const counter of present) if (!fieldSets.some((fields) => same(fields, counter.fields))) await dropCounter(tx, table, counter);
      for (const fields of fieldSets) {
        if (!present.some((counter) => same(fields, counter.fields))) await createCounter(tx, table, group, fields, columns);
      }
    });
    this.counters.delete(table);
  }

  async indexScans(name: string, group: string, indexes: readonly IndexDefinition[]): Promise<(number | null)[]> {
    if (!INDEX_GROUP.test(group)) throw new Error(`invalid index group: ${group}`);
    const table = tableName(name);
    const rows = await this.sql.query<{ name: string; scans: string | number }>(
      `select indexrelname as name, idx_scan as scans from pg_stat_user_indexes where relid = to_regclass($1) and left(indexrelname, $2) = $3`,
      [`"${table}"`, table.length + group.length + 2, `${table}_${group}_`],
    );
    const scans = new Map(rows.map((row) => [row.name, Number(row.scans)]));
    return indexes.map((index) => scans.get(`${table}_${group}_${indexSuffix(index)}`) ?? null);
  }

  private async requireCollection(name: string): Promise<void> {
    const [exists] = await this.sql.query<{ exists: boolean }>(`select to_regclass($1) is not null as exists`, [`"${tableName(name)}"`]);
    if (!exists?.exists) throw new Error(`no collection ${name}`);
  }

  /** Forgets what it read of the collections' tables (layout, kept counts, covering indexes): another store dropped or replaced them (a replica's, after the primary's swap). */
  forgetTables(names: readonly string[]): void {
    for (const name of names) {
      this.layouts.delete(tableName(name));
      this.counters.delete(tableName(name));
      this.covered.delete(tableName(name));
    }
  }

  async dropCollection(name: string): Promise<void> {
    const table = tableName(name);
    this.forgetTables([name]);
    await this.sql.transaction(async (tx) => {
      await dropCountersOf(tx, table);
      await tx.query(`drop table if exists "${table}"`);
      await tx.query(`drop table if exists "${documentsTable(table)}"`);
    });
  }

  /**
   * VACUUM as well as ANALYZE: PGlite has no autovacuum, and without a vacuum no page is ever
   * marked all-visible, so every count and every index-only scan fetches each matching row from
   * the heap, and the dead rows updates leave behind are never reclaimed.
   */
  async analyzeCollection(name: string): Promise<void> {
    const table = tableName(name);
    await this.sql.query(`vacuum analyze "${table}"`);
    const layout = await this.layoutOf(name);
    if (layout.documentsApart && !layout.shared) await this.sql.query(`vacuum analyze "${layout.documents}"`);
  }

  async swapCollections(
    renames: readonly { readonly from: string; readonly to: string }[],
    checkpoint: { readonly from: string; readonly to: string },
  ): Promise<void> {
    this.forgetTables(renames.flatMap((rename) => [rename.from, rename.to]));
    await this.sql.transaction(async (tx) => {
      await this.fence?.check(tx);
      for (const rename of renames) {
        const [from, to] = [tableName(rename.from), tableName(rename.to)];
        await renameTable(tx, from, to);
        const [apart] = await tx.query<{ exists: boolean }>(`select to_regclass($1) is not null as exists`, [`"${documentsTable(from)}"`]);
        if (apart?.exists) await renameTable(tx, documentsTable(from), documentsTable(to));
        else await tx.query(`drop table if exists "${documentsTable(to)}"`);
      }
      await tx.query(`delete from ${CHECKPOINTS} where name = $1`, [checkpoint.to]);
      await tx.query(`update ${CHECKPOINTS} set name = $2 where name = $1`, [checkpoint.from, checkpoint.to]);
    });
  }

  /**
   * Documents are read as rows, large ones apart (json-apart.ts): a page of 500 documents of
   * 100,000 characters aggregated into one JSON value was 50 MB that pg gathered, decoded and
   * parsed in one task of 800 ms while every other request waited.
   */
  async getMany<T extends Document>(collection: string, ids: readonly string[]): Promise<T[]> {
    if (ids.length === 0) return [];
    const source = documentsSource(await this.documentsOf(collection));
    const rows = await this.reader.query<{ id: string; doc: T }>(`select id, ${apartColumns(this.sql.engine, 'doc', 'doc')} from ${source.from} where ${source.keyed}`, [[...ids]], { prepare: true });
    return this.withDocumentsApart(source, rows);
  }

  /**
   * One statement for every collection: the reads of a projection batch (one per read model it
   * touches) were as many statements at once, each a round trip and a backend woken.
   */
  async getManyAcross(wanted: ReadonlyMap<string, readonly string[]>): Promise<Map<string, Document[]>> {
    // In name order: one statement text per set of collections, prepared once.
    const asked = [...wanted].filter(([, ids]) => ids.length > 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const found = new Map<string, Document[]>([...wanted.keys()].map((collection) => [collection, []]));
    if (asked.length <= 1) {
      for (const [collection, ids] of asked) found.set(collection, await this.getMany(collection, ids));
      return found;
    }
    const sources = await Promise.all(asked.map(async ([collection]) => documentsSource(await this.documentsOf(collection))));
    const columns = apartColumns(this.sql.engine, 'doc', 'doc');
    const rows = await this.reader.query<{ part: number; id: string; doc: Document }>(
      sources.map((source, index) => `select ${index} as part, id, ${columns} from ${source.from} where id = any($${index + 1}::text[])`).join(' union all '),
      asked.map(([, ids]) => [...ids]),
      { prepare: true },
    );
    const byPart = asked.map((): { id: string; doc: Document }[] => []);
    for (const row of rows) byPart[row.part]!.push(row);
    for (const [index, [collection]] of asked.entries()) found.set(collection, await this.withDocumentsApart(sources[index]!, byPart[index]!));
    return found;
  }

  async get<T extends Document>(collection: string, id: string): Promise<T | null> {
    const [document] = await this.getMany<T>(collection, [id]);
    return document ?? null;
  }

  /** A page's ids and total in one statement, then their documents (getMany). */
  async find<T extends Document>(collection: string, query: FindQuery): Promise<FindResult<T>> {
    const page = await this.page(collection, query);
    const byId = new Map((await this.getMany<T>(collection, page.items)).map((document) => [document.id, document]));
    // One deleted since the ids were read is left out.
    return { items: page.items.flatMap((id) => byId.get(id) ?? []), total: page.total };
  }

  /**
   * The page's documents in one statement, as rows in the page's order: each row's document is
   * read by id with a subquery of its own, which keeps the order (a join can be planned as a hash
   * join, which does not; `offset 0` keeps the subquery from being merged into the select list
   * that tests its size). A document missing from a shared table (its event set aside) is left out.
   */
  async list<T extends Document>(collection: string, query: FindQuery): Promise<T[]> {
    const { sql, params } = pageSql(collection, query, await this.layoutOf(collection));
    const source = documentsSource(await this.documentsOf(collection));
    const rows = await this.reader.query<{ id: string; doc: T }>(
      `select found.id, ${apartColumns(this.sql.engine, 'found.doc', 'doc')}
       from (select page.id, (select doc from ${source.from} where id = page.id) as doc from (${sql}) as page offset 0) as found
       where found.doc is not null`,
      params.values,
    );
    return this.withDocumentsApart(source, rows);
  }

  private async withDocumentsApart<T extends Document>(source: ValuesSource, rows: { id: string; doc: T }[]): Promise<T[]> {
    return (await withValuesApart(this.reader, rows, { source, name: 'doc', keyOf: (row) => row.id, gone: 'leave out' })).map((row) => row.doc);
  }

  findIds(collection: string, query: FindQuery): Promise<FindResult<string>> {
    return this.page(collection, query);
  }

  async listIds(collection: string, query: FindQuery): Promise<string[]> {
    const { sql, params } = pageSql(collection, query, await this.layoutOf(collection));
    return (await this.sql.read<{ id: string }>(sql, params.values)).map((row) => row.id);
  }

  async count(collection: string, query: Pick<FindQuery, 'filter'>): Promise<number> {
    const layout = await this.layoutOf(collection);
    const rows = await this.withCounters(collection, (counters) => {
      const params = new SqlParams();
      const total = totalSql(collection, counters, query.filter, layout, params, () => whereSql(query.filter, params, layout.columns));
      return this.sql.read<{ total: number }>(`select ${total} as total`, params.values);
    });
    return rows[0]?.total ?? 0;
  }

  /** Over the typed columns alone when the field, the group and the filter have one each (documents apart: no document is read). */
  async aggregate(collection: string, query: AggregateQuery): Promise<number | null> {
    const params = new SqlParams();
    const layout = await this.layoutOf(collection);
    const value = aggregateSql(query.field, query.operation, layout.columns);
    const where = whereSql(query.filter, params, layout.columns);
    const from = fromSql(collection, layout, [query.field, ...filterPaths(query.filter)]);
    const rows = await this.sql.read<{ value: number | null }>(`select ${value} as value from ${from} where ${where}`, params.values);
    return rows[0]?.value ?? null;
  }

  async aggregateGroups(collection: string, query: AggregateGroupQuery): Promise<AggregateGroup[]> {
    const params = new SqlParams();
    const layout = await this.layoutOf(collection);
    const { from, columns } = await this.groupedFrom(collection, layout, query.groupBy, [query.field, query.groupBy, ...filterPaths(query.filter)]);
    const group = groupSql(query.groupBy, columns);
    const value = aggregateSql(query.field, query.operation, columns);
    const where = whereSql(query.filter, params, columns);
    return this.sql.read<{ group: Scalar; value: number | null }>(
      `select ${group} as "group", ${value} as value from ${from} where ${where} group by 1 order by 1 nulls first`,
      params.values,
    );
  }

  async apply(changes: readonly Change[], checkpoints: readonly Checkpoint[] = []): Promise<void> {
    const collections = [...new Set(changes.map((change) => change.collection))];
    const layouts = new Map(await Promise.all(collections.map(async (collection) => [collection, await this.layoutOf(collection)] as const)));
    const fence = checkpoints.length > 0 ? this.fence : null;
    const statement = await applyStatement(changes, checkpoints, layouts, this.sql.engine, fence);
    if (!statement) return;
    // A live batch's few shapes (the collections it touches) are kept prepared with a generic plan; a big batch's is planned for it.
    const options = statement.documents <= GENERIC_PLAN_DOCUMENTS ? ({ prepare: 'generic' } as const) : undefined;
    const [answer] = await this.sql.query<{ epoch: string | null }>(statement.sql, statement.params, options);
    // Unfenced (no checkpoint, or a process that never took the fence), verdict accepts anything.
    fence?.verdict(answer?.epoch ?? null);
  }

  async getCheckpoint(name: string): Promise<Position | null> {
    const rows = await this.sql.query<PositionRow>(
      `select commit::text as commit, prepare::text as prepare from ${CHECKPOINTS} where name = $1`,
      [name],
      { prepare: true },
    );
    return rows[0] ? toPosition(rows[0]) : null;
  }

  async listCheckpoints(): Promise<Checkpoint[]> {
    const rows = await this.sql.query<PositionRow & { name: string }>(
      `select name, commit::text as commit, prepare::text as prepare from ${CHECKPOINTS} order by name`,
    );
    return rows.map((row) => ({ name: row.name, position: toPosition(row) }));
  }

  async deleteCheckpoint(name: string): Promise<void> {
    await this.sql.query(`delete from ${CHECKPOINTS} where name = $1`, [name]);
  }

  async ping(): Promise<boolean> {
    try {
      await this.sql.query('select 1');
      return true;
    } catch {
      return false;
    }
  }

  /** The SQL client is shared with the other adapters; whoever opened it closes it. */
  async close(): Promise<void> {}

  /**
   * A page's ids and its total in one statement: one round trip and one statement to parse and
   * plan, not two. The ids arrive as one JSON array (parsed once), in the order of its subquery.
   */
  private async page(collection: string, query: FindQuery): Promise<FindResult<string>> {
    const layout = await this.layoutOf(collection);
    const rows = await this.withCounters(collection, (counters) => {
      const page = pageSql(collection, query, layout);
      const counted = countedTotalSql(counters, query.filter, layout.columns, page.params);
      const statement =
        counted === null && hasTextPattern(query.filter)
          ? pageOfMatchesSql(collection, query, layout, page)
          : `select ${counted ?? `(${countSql(collection, layout, query.filter, page.where)})`} as total, ${idsSql(page.sql)} as items`;
      return this.sql.read<{ total: number; items: string[] }>(statement, page.params.values);
    });
    return { items: rows[0]?.items ?? [], total: rows[0]?.total ?? 0 };
  }

  /** Runs a read that may take a total from the table's counters; when one was dropped meanwhile, again without them. */
  private async withCounters<Row>(collection: string, read: (counters: readonly Counter[]) => Promise<Row[]>): Promise<Row[]> {
    const counters = await this.countersOf(collection);
    if (counters.length === 0) return read(counters);
    try {
      return await read(counters);
    } catch (error) {
      if ((error as { code?: unknown }).code !== UNDEFINED_TABLE) throw error;
      this.counters.delete(tableName(collection));
      return read([]);
    }
  }

  /**
   * A finer histogram for text searched by substring. `col like '%abc%'` is estimated from the
   * histogram's values; with the default 100, one value matching makes it 1% of the rows, and a
   * page ordered by another column may then read that column's index in order expecting 20
   * matches soon, filtering the whole table when there are six (655 ms instead of 0.2 measured,
   * bench/RESULTS.md "Typed table layout"). With 1,000 values one match is 0.1%. It takes effect at
   * the next analyze, and is never lowered again (it only costs that analyze). Not on the embedded
   * engine: there an analyze runs in the engine's one thread, and a target of 1,000 makes it sample
   * 300,000 rows (a whole typed table of 100,000 items: 2.5-3 s, every statement waiting, against
   * 0.5 s at 100); there the searched columns keep the engine's default (EMBEDDED_SETTINGS), and
   * those an earlier version raised to 1,000 are reset. A page with a text pattern is read by
   * pageOfMatchesSql, which counts the matches instead of trusting the estimate.
   */
  private async searchedStatistics(table: string, created: readonly IndexDefinition[], wanted: readonly IndexDefinition[], columns: Columns): Promise<string[]> {
    const alter = (name: string, target: number) => `alter table "${table}" alter column "${name}" set statistics ${target}`;
    if (this.sql.engine === 'postgres') return searchedColumns(created, columns).map((name) => alter(name, 1000));
    const searched = searchedColumns(wanted, columns);
    if (searched.length === 0) return [];
    const raised = await this.sql.query<{ name: string }>(
      `select attname as name from pg_attribute where attrelid = $1::regclass and attname = any($2::text[]) and coalesce(attstattarget::int, -1) <> -1`,
      [`"${table}"`, searched],
    );
    return raised.map(({ name }) => alter(name, -1));
  }

  private countersOf(collection: string): Promise<Counter[]> {
    return readRecently(this.counters, tableName(collection), (table) => countersOf(this.sql, table));
  }

  /**
   * What a grouped aggregate reads, and the columns its conditions compare: the table as the two
   * parts of a covering index that holds its group column whole, when every column it names is
   * typed (an index can then answer it alone), with the columns held whole compared whole (exact
   * in both parts, and what the covering index holds); else the table (fromSql) and its columns.
   */
  private async groupedFrom(collection: string, layout: TableLayout, groupBy: string, paths: readonly string[]): Promise<{ from: string; columns: Columns }> {
    const table = { from: fromSql(collection, layout, paths), columns: layout.columns };
    const column = layout.columns.get(groupBy);
    if (!column?.long || !paths.every((path) => layout.columns.has(path))) return table;
    const sets = await readRecently(this.covered, tableName(collection), (table) => coveredColumnSets(this.reader, table));
    const whole = sets.find((set) => set.includes(column.name));
    if (!whole) return table;
    const columns = new Map([...layout.columns].map(([path, typed]) => [path, whole.includes(typed.name) ? { ...typed, long: false } : typed]));
    return { from: coveredSourceSql(tableName(collection), whole), columns };
  }

  private layoutOf(collection: string): Promise<TableLayout> {
    const table = tableName(collection);
    const known = this.layouts.get(table);
    if (known) return known;
    const loading = this.sql
      .read<{ comment: string | null; exists: boolean }>(`select to_regclass($1) is not null as exists, obj_description(to_regclass($1), 'pg_class') as comment`, [`"${table}"`])
      .then((rows) => {
        // A table not created yet is asked again next time: it may be created with columns.
        if (!rows[0]?.exists) this.layouts.delete(table);
        return rows[0]?.exists ? parseLayoutComment(table, rows[0].comment) : NO_LAYOUT;
      });
    loading.catch(() => this.layouts.delete(table));
    this.layouts.set(table, loading);
    return loading;
  }

  /** What a read of the collection's documents by id selects from: shared documents only where this collection has the row. */
  private async documentsOf(collection: string): Promise<string> {
    const table = tableName(collection);
    const layout = await this.layoutOf(collection);
    if (!layout.documentsApart) return `"${table}"`;
    return layout.shared ? documentsJoined(table, layout.documents!) : `"${layout.documents}"`;
  }
}

/** The total of `filter`: from a kept count when one answers it, else a count of the rows `where` matches (built only then). */
function totalSql(collection: string, counters: readonly Counter[], filter: FindQuery['filter'], layout: TableLayout, params: SqlParams, where: () => string): string {
  const counted = countedTotalSql(counters, filter, layout.columns, params);
  return counted ?? `(${countSql(collection, layout, filter, where())})`;
}

function countSql(collection: string, layout: TableLayout, filter: Filter | undefined, where: string): string {
  return `select count(*)::int as n from ${fromSql(collection, layout, filterPaths(filter))} where ${where}`;
}

/** A page's ids as one JSON array. */
function idsSql(rowsSql: string): string {
  return `coalesce((select json_agg(page.id) from (${rowsSql}) as page), '[]'::json)`;
}

/** Up to this many matching rows a page is always sorted from them. */
const SORTED_FROM_MATCHES_MIN = 100;

/** Whether the filter tests text against a pattern (start, end, contains): conditions the planner estimates by matching its histogram's values. */
function hasTextPattern(filter: Filter | undefined): boolean {
  return conditionsOf(filter).some((condition) => (TEXT_OPERATORS as readonly string[]).includes(condition.operator));
}

/**
 * A page with a text pattern, whose total no counter keeps: the count of the matching rows first,
 * which decides how the page is read (the statement holds both ways and runs one; planning both
 * costs PostgreSQL 1-2 ms more, so only such pages are built so). The planner estimates a text pattern
 * from its histogram: a prefix that happens to match one of its 100 values is taken for 1% of the
 * rows, so a page sorted by another field reads that field's index in order expecting 20 matches
 * soon, and filters the whole table when there are 23 (0.5 s on PGlite, bench/RESULTS.md).
 * Sorting the n matching rows reads about n rows; reading the sort index in order until the page's
 * end e reads about e × rows / n of them. So the page is sorted from the matching rows while
 * n² ≤ rows × e, and read in index order past that (5,000 matching rows of 200,000 for a first page
 * of 20: 800 entries in order, not 5,000 rows fetched).
 */
function pageOfMatchesSql(collection: string, query: FindQuery, layout: TableLayout, page: PageSql): string {
  const table = `"${tableName(collection)}"`;
  const total = `(${countSql(collection, layout, query.filter, page.where)}) as total`;
  const rows = `(select greatest(reltuples, 0) from pg_class where oid = '${table}'::regclass)`;
  const sorted = sortPaths(query.sort);
  // The matching rows carry the typed columns the page is sorted by, from the typed table alone.
  const fromMatches =
    page.rowsToPageEnd !== null && fromSql(collection, layout, [...filterPaths(query.filter), ...sorted]) === table && sorted.every((field) => layout.columns.has(field));
  if (!fromMatches) return `select total.n as total, ${idsSql(page.sql)} as items from ${total}`;
  const carried = [...new Set(['id', ...sorted.map((field) => layout.columns.get(field)!.name)])].map((name) => `"${name}"`);
  const matchingRows = `select id from matching order by ${orderBySql(query.sort, layout.columns, query.sortIsUnique)}${page.limit}${page.offset}`;
  return (
    `with matching as materialized (select ${carried.join(', ')} from ${table} where ${page.where}) ` +
    `select total.n as total, case when total.n <= greatest(${SORTED_FROM_MATCHES_MIN}, sqrt(${rows} * ${page.rowsToPageEnd})) then ${idsSql(matchingRows)} else ${idsSql(page.sql)} end as items from ${total}`
  );
}

/**
 * The table a query reads: with its documents apart, the typed columns' table, joined with the
 * documents' only when one of `paths` (those the query filters, sorts, groups or aggregates) has
 * no typed column and is read from the document.
 */
function fromSql(collection: string, layout: TableLayout, paths: readonly string[]): string {
  const table = tableName(collection);
  if (!layout.documentsApart || paths.every((path) => layout.columns.has(path))) return `"${table}"`;
  return documentsJoined(table, layout.documents!);
}

/**
 * The typed columns' table joined with the table its documents are in. Only the documents' id and
 * doc are joined in: a shared documents table (content_items) has typed columns of its own, whose
 * names (c_stage) would make the query's references to this table's columns ambiguous.
 */
function documentsJoined(table: string, documents: string): string {
  return `"${table}" join (select id, doc from "${documents}") as documents using (id)`;
}

/** Every path a filter's conditions name. */
function filterPaths(filter: Filter | undefined): string[] {
  return conditionsOf(filter).map((condition) => condition.field);
}

function conditionsOf(filter: Filter | undefined): Condition[] {
  if (!filter) return [];
  switch (filter.type) {
    case 'and':
    case 'or':
      return filter.conditions.flatMap(conditionsOf);
    case 'not':
      return conditionsOf(filter.condition);
    default:
      return [filter];
  }
}

const sortPaths = (sort: readonly SortKey[] | undefined) => (sort ?? []).map((key) => key.field);

/**
 * A b-tree over the fields (typed columns where they exist, in the order ORDER BY reads them:
 * `nulls first` ascending, `desc nulls last` descending), or a text index on the last field.
 */
/** The statements that build `index`, by the name of each index they make: the index, and a covering index's companion (postgres-covering.ts). */
function indexStatements(table: string, index: IndexDefinition, layout: TableLayout, options: { name?: string; concurrently?: boolean } = {}): Map<string, string[]> {
  if (index.fields.length === 0) throw new Error('an index needs at least one field');
  const { columns } = layout;
  const untyped = layout.documentsApart ? index.fields.find((field) => !columns.has(field)) : undefined;
  if (untyped !== undefined) throw new Error(`an index of a collection whose documents are kept apart holds typed columns only: ${untyped} has none`);
  if (index.covering && index.text) throw new Error('a text index cannot be covering');
  const whole = wholeColumns(index, columns);
  const held = (field: string) => whole.some((column) => column === columns.get(field));
  const values = index.fields.map((field) => (held(field) ? `"${columns.get(field)!.name}"` : valueSql(field, columns)));
  const name = options.name ?? `${table}_${indexSuffix(index)}`;
  const create = `create ${index.unique ? 'unique ' : ''}index${options.concurrently ? ' concurrently' : ''} if not exists "${name}" on "${table}"`;
  if (index.text === 'substring') {
    if (values.length !== 1) throw new Error('a substring index takes one field');
    // Trigrams of the whole value (a GIN entry is one trigram, whatever the value's length).
    const column = columns.get(index.fields[0]!);
    // Without fastupdate every write adds its trigrams at once: a pending list would be scanned whole by every contains query until vacuum.
    return new Map([[name, [`${create} using gin (${column ? `"${column.name}"` : values[0]} gin_trgm_ops) with (fastupdate = off)`]]]);
  }
  // A long column's index holds a key of each value, which cannot enforce uniqueness of whole values.
  if (index.unique && index.fields.some((field) => columns.get(field)?.long)) throw new Error('a unique index cannot key on a long column');
  const last = values.length - 1;
  const keys = values.map((value, position) => {
    const descending = index.descending?.includes(index.fields[position]!) === true;
    // The id column is never null, and ORDER BY ends in `id asc` (nulls last): declared so, an index on (..., id) gives that order.
    if (value === '"id"') return descending ? `${value} desc` : value;
    if (position !== last || index.text === undefined) return descending ? `${value} desc nulls last` : `${value} nulls first`;
    return index.text === 'prefix' ? `${value} text_pattern_ops` : `lower(${value}) text_pattern_ops`;
  });
  if (whole.length === 0) return new Map([[name, [`${create} (${keys.join(', ')})`]]]);
  if (companionName(name).length > MAX_IDENTIFIER) throw new Error(`index name too long for a covering index: ${name}`);
  const names = whole.map((column) => column.name);
  const partial = `${create} (${keys.join(', ')}) where ${shortValuesSql(names)}`;
  const companionKeys = keys.filter((_, position) => !held(index.fields[position]!));
  return new Map([
    [name, [partial]],
    [companionName(name), companionStatements(table, companionKeys, names, companionName(name), options.concurrently === true)],
  ]);
}

interface PageSql {
  readonly sql: string;
  /** The page's parameters, which a statement around it (its total) may add to. */
  readonly params: SqlParams;
  readonly where: string;
  /** ` limit $n` and ` offset $n`, or empty. */
  readonly limit: string;
  readonly offset: string;
  /** The rows up to the page's end (offset + limit), as SQL; null without a limit. */
  readonly rowsToPageEnd: string | null;
}

/**
 * The page's ids' statement and its where clause (whose parameters come first, so the total can
 * reuse them). With the documents apart, the page's rows are found in the typed columns alone.
 */
function pageSql(collection: string, query: FindQuery, layout: TableLayout = NO_LAYOUT): PageSql {
  const { columns } = layout;
  const params = new SqlParams();
  const where = whereSql(query.filter, params, columns);
  const limitParam = query.limit === undefined ? null : params.add(pagingNumber('limit', query.limit));
  const offsetParam = query.offset === undefined ? null : params.add(pagingNumber('offset', query.offset));
  const limit = limitParam === null ? '' : ` limit ${limitParam}`;
  const offset = offsetParam === null ? '' : ` offset ${offsetParam}`;
  const from = fromSql(collection, layout, [...filterPaths(query.filter), ...sortPaths(query.sort)]);
  return {
    sql: `select id from ${from} where ${where} order by ${orderBySql(query.sort, columns, query.sortIsUnique)}${limit}${offset}`,
    params,
    where,
    limit,
    offset,
    rowsToPageEnd: limitParam === null ? null : `(${limitParam}::float8 + ${offsetParam ?? 0}::float8)`,
  };
}

/** A collection's documents by id, for getMany and its values read apart. */
function documentsSource(from: string): ValuesSource {
  return { from, value: 'doc', key: 'id', keyed: 'id = any($1::text[])' };
}

interface PositionRow {
  readonly commit: string;
  readonly prepare: string;
}

function toPosition(row: PositionRow): Position {
  return { commit: BigInt(row.commit), prepare: BigInt(row.prepare) };
}

function tableName(collection: string): string {
  if (!COLLECTION_NAME.test(collection) || collection.length > MAX_COLLECTION_NAME) {
    throw new Error(`invalid collection name: ${collection}`);
  }
  return `rm_${collection}`;
}

/** Deterministic, so that declaring the same index again finds it by name. */
function indexSuffix(index: IndexDefinition): string {
  return createHash('sha256').update(indexIdentity(index)).digest('hex').slice(0, 10);
}

/**
 * Statistics on the JSON type of each indexed field. A range condition tests the type beside
 * the value (`jsonb_typeof(x) = 'string' and x > ...`); without statistics the planner guesses
 * that test true for 0.5% of rows, believes a page's LIMIT reaches past every match, and sorts
 * every match instead of reading the index in order (a feed page after a cursor: 100 ms, not 1).
 */
function typeStatistics(table: string, indexes: readonly IndexDefinition[], columns: Columns): string[] {
  // Typed columns hold one type each: only JSONB paths need statistics on their JSON type.
  const fields = [...new Set(indexes.flatMap((index) => index.fields))].filter((field) => !columns.has(field));
  return fields.map((field) => {
    const suffix = createHash('sha256').update(JSON.stringify(['typeof', field])).digest('hex').slice(0, 10);
    return `create statistics if not exists "${table}_${suffix}" on (jsonb_typeof(${jsonValue(field)})) from "${table}"`;
  });
}

/** The columns of `indexes` searched by substring. */
function searchedColumns(indexes: readonly IndexDefinition[], columns: Columns): string[] {
  return indexes.filter((index) => index.text === 'substring').flatMap((index) => columns.get(index.fields[0]!)?.name ?? []);
}

/** What was read from the catalog about each table, and when. */
type CatalogReads<T> = Map<string, { readonly at: number; readonly value: Promise<T> }>;

/** `read(table)`, reused for COUNTERS_TTL_MS (another instance may change what it reads meanwhile); a read that failed is made again next time. */
function readRecently<T>(reads: CatalogReads<T>, table: string, read: (table: string) => Promise<T>): Promise<T> {
  const known = reads.get(table);
  if (known && Date.now() - known.at < COUNTERS_TTL_MS) return known.value;
  const loading = read(table);
  loading.catch(() => reads.delete(table));
  reads.set(table, { at: Date.now(), value: loading });
  return loading;
}

/** Replaces table `to` by `from`, renaming its indexes and statistics along so a later ensureCollection finds them. */
async function renameTable(tx: SqlQueryable, from: string, to: string): Promise<void> {
  await dropCountersOf(tx, to);
  await tx.query(`drop table if exists "${to}"`);
  await tx.query(`alter table "${from}" rename to "${to}"`);
  const indexes = await tx.query<{ name: string }>(
    `select indexname as name from pg_indexes where schemaname = current_schema() and tablename = $1`,
    [to],
  );
  for (const { name } of indexes) {
    if (name.startsWith(`${from}_`)) await tx.query(`alter index "${name}" rename to "${to}${name.slice(from.length)}"`);
  }
  const statistics = await tx.query<{ name: string }>(`select stxname as name from pg_statistic_ext where stxrelid = $1::regclass`, [`"${to}"`]);
  for (const { name } of statistics) {
    if (name.startsWith(`${from}_`)) await tx.query(`alter statistics "${name}" rename to "${to}${name.slice(from.length)}"`);
  }
}

/**
 * A batch and its checkpoints as one statement, hence one round trip and one transaction.
 * Every change replaces or removes a whole document, so only the last change to each
 * (collection, id) decides the end state: per collection one delete and one upsert, touching
 * disjoint ids. Each upsert reads its collection's delete, which makes the delete run first: a
 * unique value a deleted document held is free for an upserted one.
 * The documents travel once: one JSON array of every distinct document (a typed content table
 * upserts the very documents content_items does), parsed once by the server, and each upsert
 * names its documents by their places in it. A 1.3 MB item was serialized, bound and parsed
 * twice per stage before. Large documents are written in slices (jsonParam).
 */
async function applyStatement(
  changes: readonly Change[],
  checkpoints: readonly Checkpoint[],
  layouts: ReadonlyMap<string, TableLayout>,
  engine: SqlClient['engine'],
  fence: PostgresReadModelFence | null,
): Promise<{ sql: string; params: unknown[]; documents: number } | null> {
  const last = new Map<string, Change>();
  for (const change of changes) {
    const key = `${change.collection}\u0000${change.kind === 'upsert' ? change.document.id : change.id}`;
    last.delete(key);
    last.set(key, change);
  }
  const byCollection = new Map<string, { deletes: string[]; upserts: Document[] }>();
  for (const change of last.values()) {
    const entry = byCollection.get(change.collection) ?? { deletes: [], upserts: [] };
    if (change.kind === 'delete') entry.deletes.push(change.id);
    else entry.upserts.push(change.document);
    byCollection.set(change.collection, entry);
  }
  const params = new SqlParams();
  const parts: string[] = [];
  const documents = new StatementDocuments();
  const guard = fence?.inStatement((value) => params.add(value)) ?? null;
  // Every write of a fenced statement runs only while this process holds the fence.
  const whileHeld = guard ? ` and exists (select 1 from ${guard.held})` : '';
  for (const [collection, { deletes, upserts }] of byCollection) {
    const table = tableName(collection);
    const layout = layouts.get(collection) ?? NO_LAYOUT;
    const deletedIds = params.add(deletes);
    const upserted = upserts.length > 0 ? params.add(upserts.map((document) => documents.placeOf(document))) : null;
    const write = (target: string, columns: readonly { readonly name: string; readonly value: string }[]) => {
      const deleted = `d${parts.length}`;
      parts.push(`${deleted} as (delete from "${target}" where id = any(${deletedIds}::text[])${whileHeld} returning 1)`);
      if (upserted === null) return;
      parts.push(`u${parts.length} as (
        insert into "${target}" (id${columns.map((column) => `, "${column.name}"`).join('')})
        select document->>'id'${columns.map((column) => `, ${column.value}`).join('')} from unnest(${upserted}::int[]) as upserted(place) join statement_documents using (place)
        where (select count(*) from ${deleted}) >= 0${whileHeld}
        on conflict (id) do update set ${columns.map((column) => `"${column.name}" = excluded."${column.name}"`).join(', ')})`);
    };
    if (layout.documentsApart) {
      write(table, layout.declared.map((column) => ({ name: columnName(column.path), value: columnValueSql(column, 'document') })));
      // Shared documents are written by the collection holding them.
      if (!layout.shared) write(layout.documents!, [{ name: 'doc', value: 'document' }]);
    } else {
      write(table, [{ name: 'doc', value: 'document' }]);
    }
  }
  if (checkpoints.length > 0) {
    const rows = checkpoints.map((checkpoint) => ({ name: checkpoint.name, commit: checkpoint.position.commit.toString(), prepare: checkpoint.position.prepare.toString() }));
    parts.push(`checkpoints as (
      insert into ${CHECKPOINTS} (name, commit, prepare)
      select name, commit, prepare from jsonb_to_recordset(${params.add(JSON.stringify(rows))}::text::jsonb) as r(name text, commit numeric, prepare numeric)
      where true${whileHeld}
      on conflict (name) do update set commit = excluded.commit, prepare = excluded.prepare)`);
  }
  if (parts.length === 0) return null;
  if (documents.list.length > 0) {
    parts.unshift(
      `statement_documents as materialized (select place::int as place, document from jsonb_array_elements(${params.add(await jsonParam(engine, documents.list))}::text::jsonb) with ordinality as listed(document, place))`,
    );
  }
  if (guard) parts.unshift(...guard.ctes);
  return { sql: `with ${parts.join(',\n')} select ${guard ? guard.epoch : 'null'} as epoch`, params: params.values, documents: documents.list.length };
}

/** The distinct documents of a statement, each listed once however many collections upsert it: their places count from 1, as `with ordinality` does. */
class StatementDocuments {
  readonly list: Document[] = [];
  private readonly places = new Map<Document, number>();

  placeOf(document: Document): number {
    let place = this.places.get(document);
    if (place === undefined) {
      place = this.list.push(document);
      this.places.set(document, place);
    }
    return place;
  }
}

function pagingNumber(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer: ${value}`);
  return value;
}
