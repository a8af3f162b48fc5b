// The database's own ceiling for the content query shapes of issue 13: the statements the read
// store sends for each shape (compiled by dist/, a page and its total in one statement), run
// straight through `pg` by 50 concurrent loops with a new random value each time, on a store
// bench/queries.mjs seeded (BENCH_STORE keeps one). No HTTP, no service: what is left when the
// service costs nothing, on the same 2 cores.
// Usage: npm run build && node bench/sql-ceiling.mjs <database-url> [seconds=10] [connections=50]
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';

const databaseUrl = process.argv[2];
const seconds = Number(process.argv[3] ?? 10);
const connections = Number(process.argv[4] ?? 50);
if (!databaseUrl) {
  console.error('usage: node bench/sql-ceiling.mjs <database-url> [seconds=10] [connections=50]');
  process.exit(2);
}
const { whereSql, orderBySql, SqlParams, aggregateSql, groupSql } = await import('../dist/infra/readstore/postgres-filter.js');
const { columnsOf } = await import('../dist/infra/readstore/postgres-columns.js');
const { tableColumns } = await import('../dist/projections/content-tables/schema.js');

const pool = new pg.Pool({ connectionString: databaseUrl, max: connections });
const serving = (await pool.query(`select doc from rm_content_tables where doc->>'contentType' = 'Product'`)).rows[0].doc.serving;
const table = `"rm_${serving.collection}"`;
const columns = columnsOf(tableColumns(serving));

const random = (below) => Math.floor(Math.random() * below);
const randomText = (length) => Array.from({ length }, () => '0123456789abcdefghijklmnopqrstuvwxyz'[random(36)]).join('');
const cond = (field, operator, value) => ({ type: 'condition', field: `fields.${field}`, operator, value });
const published = (filter) => ({ type: 'and', conditions: [{ type: 'condition', field: 'stage', operator: 'e', value: 'published' }, filter] });
const priceBand = (width) => {
  const low = random(1000 - width);
  return { type: 'and', conditions: [cond('price', 'gte', low), cond('price', 'lt', low + width)] };
};

/** The read store's page-with-total statement (infra/readstore/postgres.ts). */
function pageWithTotal(column, filter, sort, limit) {
  const params = new SqlParams();
  const where = whereSql(published(filter), params, columns);
  const order = orderBySql(sort, columns);
  const page = `select ${column} from ${table} where ${where} order by ${order} limit ${params.add(limit)} offset ${params.add(0)}`;
  return {
    text: `select (select count(*)::int from ${table} where ${where}) as total, coalesce((select json_agg(page.${column}) from (${page}) as page), '[]'::json) as items`,
    values: params.values,
  };
}

const SHAPES = [
  ['equality + sort + total (page of 20)', () => pageWithTotal('doc', cond('color', 'e', `color${random(10)}`), [{ field: 'fields.price', direction: 'desc' }], 20)],
  ['range + sort + total', () => pageWithTotal('doc', priceBand(50), [{ field: 'fields.released', direction: 'desc' }], 20)],
  ['start (text prefix) + sort + total', () => pageWithTotal('doc', cond('title', 'start', randomText(2)), [{ field: 'fields.price', direction: 'asc' }], 20)],
  ['contains + total', () => pageWithTotal('doc', cond('title', 'contains', randomText(3)), [], 20)],
  ['ids with a filter', () => pageWithTotal('id', cond('category', 'e', `cat${random(100)}`), [], 100)],
  [
    'aggregategroup Sum by a 100-group field',
    () => {
      const params = new SqlParams();
      const where = whereSql(published(priceBand(100)), params, columns);
      return { text: `select ${groupSql('fields.category', columns)} as g, ${aggregateSql('fields.price', 'sum', columns)} as v from ${table} where ${where} group by 1 order by 1 nulls first`, values: params.values };
    },
  ],
];

console.log(`${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model} · ${connections} connections · ${seconds} s each · table ${serving.collection}`);
console.log('| shape (SQL only, through pg) | statements/s | p50 ms | p99 ms | load avg |\n|---|---|---|---|---|');
for (const [name, statement] of SHAPES) {
  const latencies = [];
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        const started = performance.now();
        await pool.query(statement());
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (share) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))].toFixed(1);
  console.log(`| ${name} | ${Math.round(latencies.length / seconds)} | ${at(0.5)} | ${at(0.99)} | ${loadavg()[0].toFixed(1)} |`);
}
await pool.end();
