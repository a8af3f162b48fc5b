// The database's own ceiling for the content query shapes of issue 13: the statements the read
// store sends for each shape (dist/'s PostgresReadStore on the type's serving table, whatever its
// layout: a page and its total in one statement), run by 50 concurrent loops with a new random
// value each time, on a store bench/queries.mjs seeded (BENCH_STORE keeps one). No HTTP, no
// service: what is left when the service costs nothing, on the same 2 cores.
// Usage: npm run build && node bench/sql-ceiling.mjs <database-url> [seconds=10] [connections=50]
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';

const databaseUrl = process.argv[2];
const seconds = Number(process.argv[3] ?? 10);
const connections = Number(process.argv[4] ?? 50);
if (!databaseUrl) {
  console.error('usage: node bench/sql-ceiling.mjs <database-url> [seconds=10] [connections=50]');
  process.exit(2);
}
const { PgSqlClient } = await import('../dist/infra/sql/pg-client.js');
const { PostgresReadStore } = await import('../dist/infra/readstore/postgres.js');

const sql = await PgSqlClient.open(databaseUrl, { maxConnections: connections });
const store = await PostgresReadStore.open(sql);
const serving = (await sql.query(`select doc from rm_content_tables where doc->>'contentType' = 'Product'`))[0].doc.serving;
const table = serving.collection;

const random = (below) => Math.floor(Math.random() * below);
const randomText = (length) => Array.from({ length }, () => '0123456789abcdefghijklmnopqrstuvwxyz'[random(36)]).join('');
const cond = (field, operator, value) => ({ type: 'condition', field: `fields.${field}`, operator, value });
const published = (filter) => ({ type: 'and', conditions: [{ type: 'condition', field: 'stage', operator: 'e', value: 'published' }, filter] });
const priceBand = (width) => {
  const low = random(1000 - width);
  return { type: 'and', conditions: [cond('price', 'gte', low), cond('price', 'lt', low + width)] };
};
const page = (filter, sort, limit) => ({ filter: published(filter), sort, limit, offset: 0 });

const SHAPES = [
  ['equality + sort + total (page of 20)', () => store.find(table, page(cond('color', 'e', `color${random(10)}`), [{ field: 'fields.price', direction: 'desc' }], 20))],
  ['range + sort + total', () => store.find(table, page(priceBand(50), [{ field: 'fields.released', direction: 'desc' }], 20))],
  ['start (text prefix) + sort + total', () => store.find(table, page(cond('title', 'start', randomText(2)), [{ field: 'fields.price', direction: 'asc' }], 20))],
  ['contains + total', () => store.find(table, page(cond('title', 'contains', randomText(3)), [], 20))],
  ['ids with a filter', () => store.findIds(table, page(cond('category', 'e', `cat${random(100)}`), [], 100))],
  [
    'aggregategroup Sum by a 100-group field',
    () => store.aggregateGroups(table, { filter: published(priceBand(100)), groupBy: 'fields.category', field: 'fields.price', operation: 'sum' }),
  ],
];

console.log(`${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model} · ${connections} connections · ${seconds} s each · table ${table}`);
console.log('| shape (SQL only, through pg) | statements/s | p50 ms | p99 ms | load avg |\n|---|---|---|---|---|');
for (const [name, statement] of SHAPES) {
  const latencies = [];
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        const started = performance.now();
        await statement();
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (share) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))].toFixed(1);
  console.log(`| ${name} | ${Math.round(latencies.length / seconds)} | ${at(0.5)} | ${at(0.99)} | ${loadavg()[0].toFixed(1)} |`);
}
await sql.close();
