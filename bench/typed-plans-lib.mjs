// EXPLAIN ANALYZE of each content query shape of issue 13 on a typed content table, with the
// SQL the read store compiles (dist/), after VACUUM ANALYZE (the state autovacuum leaves).
import pg from 'pg';

/** A connection to `databaseUrl` as the runner explainShapesWith takes. */
async function serverRunner(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  return { query: async (sql, params) => (await client.query(sql, params)).rows, close: () => client.end() };
}

/** EXPLAIN ANALYZE of each shape as the store compiles it (dist/), on the typed table of the database at `databaseUrl`. */
export async function explainShapes(databaseUrl, table, generation) {
  const runner = await serverRunner(databaseUrl);
  try {
    return await explainShapesWith(runner, table, generation);
  } finally {
    await runner.close();
  }
}

/**
 * The same through `runner.query(sql, params)` answering rows: a server connection or an
 * embedded PGlite. `vacuum: false` plans on the table as the service left it; `timing: false`
 * times the whole statement only, and adds the buffers each plan read.
 */
export async function explainShapesWith(runner, table, generation, { vacuum = true, timing = true } = {}) {
  const { whereSql, orderBySql, SqlParams, aggregateSql, groupSql } = await import('../dist/infra/readstore/postgres-filter.js');
  const { columnsOf } = await import('../dist/infra/readstore/postgres-columns.js');
  const { countersOf, countedTotalSql } = await import('../dist/infra/readstore/postgres-counts.js');
  // Absent in builds before covering indexes: the grouped shape then reads the table, as those builds do.
  const covering = await import('../dist/infra/readstore/postgres-covering.js').catch(() => null);
  const { tableColumns } = await import('../dist/projections/content-tables/schema.js');
  const client = runner;
  if (vacuum) await client.query(`vacuum analyze "rm_${table}"`);
  const serving = generation ?? (await client.query(`select doc from rm_content_tables where doc->'serving'->>'collection' = $1`, [table]))[0].doc.serving;
  const columns = columnsOf(tableColumns(serving));
  const stage = { type: 'condition', field: 'stage', operator: 'e', value: 'published' };
  const scoped = (filter) => ({ type: 'and', conditions: [stage, filter] });
  const cond = (field, operator, value) => ({ type: 'condition', field: `fields.${field}`, operator, value });
  const shapes = [
    ['equality + sort, page', scoped(cond('color', 'e', 'color3')), [{ field: 'fields.price', direction: 'desc' }]],
    ['equality, total', scoped(cond('color', 'e', 'color3')), null],
    ['range + sort, page', scoped({ type: 'and', conditions: [cond('price', 'gte', 400), cond('price', 'lt', 450)] }), [{ field: 'fields.released', direction: 'desc' }]],
    ['range, total', scoped({ type: 'and', conditions: [cond('price', 'gte', 400), cond('price', 'lt', 450)] }), null],
    ['start + sort, page', scoped(cond('title', 'start', 'a3')), [{ field: 'fields.price', direction: 'asc' }]],
    ['start, total', scoped(cond('title', 'start', 'a3')), null],
    ['contains, page', scoped(cond('title', 'contains', 'a3f')), []],
    ['contains, total', scoped(cond('title', 'contains', 'a3f')), null],
    ['ids with a filter, page', scoped(cond('category', 'e', 'cat42')), []],
    ['aggregategroup', scoped({ type: 'and', conditions: [cond('price', 'gte', 400), cond('price', 'lt', 500)] }), 'group'],
  ];
  const definitions = new Map(
    (await client.query(`select indexname, indexdef from pg_indexes where tablename = $1`, [`rm_${table}`])).map((r) => [r.indexname, r.indexdef.replace(/^.* USING /, '').replace(/"/g, '')]),
  );
  // A total the service reads from a kept count (the declared indexes' counters) is explained as such.
  const counters = await countersOf(client, `rm_${table}`);
  // The documents' table: the typed table's own (layout 6, 7) or content_items' (layout 8).
  const [own] = await client.query(`select to_regclass($1) is not null as found`, [`"rm_${table}-docs"`]);
  const documents = own.found ? `rm_${table}-docs` : 'rm_content_items';
  // A grouped aggregate reads the two parts of a covering index holding its group column whole, as the store does.
  const category = columns.get('fields.category')?.name;
  const whole = covering ? (await covering.coveredColumnSets(client, `rm_${table}`)).find((set) => set.includes(category)) : undefined;
  const grouped = whole ? covering.coveredSourceSql(`rm_${table}`, whole) : `"rm_${table}"`;
  const lines = ['| query shape | execution ms | plan (indexes) |', '|---|---|---|'];
  for (const [name, filter, sort] of shapes) {
    const params = new SqlParams();
    const kept = sort === null ? countedTotalSql(counters, filter, columns, params) : null;
    const where = kept === null ? whereSql(filter, params, columns) : '';
    const sql =
      kept !== null
        ? `select ${kept}`
        : sort === null
        ? `select count(*) from "rm_${table}" where ${where}`
        : sort === 'group'
          ? `select ${groupSql('fields.category', columns)} as g, ${aggregateSql('fields.price', 'sum', columns)} from ${grouped} where ${where} group by 1 order by 1 nulls first`
          : // The documents are apart (layout 6 on): the page's rows from the typed columns, each one's document by id, as the store reads them.
            `select (select doc from "${documents}" as documents where documents.id = page.id) as doc from (select id from "rm_${table}" where ${where} order by ${orderBySql(sort, columns)} limit 20) as page`;
    const plan = (await client.query(`explain (analyze, ${timing ? '' : 'timing off, buffers, '}format text) ${sql}`, params.values)).map((r) => r['QUERY PLAN']);
    const time = plan.find((line) => line.includes('Execution Time'))?.match(/([\d.]+) ms/)?.[1];
    const indexes = [...new Set(plan.flatMap((line) => [...line.matchAll(/(Index(?: Only)? Scan(?: Backward)? using|Bitmap Index Scan on) (\S+)/g)].map((m) => `${m[1]} ${definitions.get(m[2]) ?? m[2]}`)))];
    const heapFetches = plan.reduce((sum, line) => sum + Number(/Heap Fetches: (\d+)/.exec(line)?.[1] ?? 0), 0);
    const buffers = timing ? [] : [`${plan.find((line) => line.includes('Buffers:'))?.trim() ?? 'Buffers: none'}, heap fetches ${heapFetches}`];
    const nodes = plan.filter((line) => /Seq Scan|Sort|Aggregate|rm_n_/.test(line)).map((line) => line.trim().split('  ')[0].replace(/^->\s*/, ''));
    lines.push(`| ${name} | ${time} | ${[...indexes, ...nodes, ...buffers].join('; ')} |`);
  }
  return lines;
}

