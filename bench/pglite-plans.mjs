// The content query shapes of issue 13 on the embedded store (PGlite), without HTTP and without
// the machine's load in the figures: opens a copy of a service's PGlite data directory (the
// service must not be running on it) with the settings the service gives the engine, and for
// each shape measures the CPU time the process spends per query through the read store
// (process.cpuUsage, all threads: the engine runs in a worker thread), with a new random value
// each time as bench/queries.mjs sends. One engine thread serves every statement, so 1000 / (ms
// per query) bounds that shape's requests per second. Then EXPLAIN (ANALYZE, TIMING OFF) of each
// shape (timing each plan node would cost PGlite more than the node: its clock is a call out of
// WebAssembly). First on the table as the service left it, then after VACUUM ANALYZE.
// Usage: npm run build && cp -r <DATA_DIR>/pglite /tmp/copy && node bench/pglite-plans.mjs /tmp/copy [queries=40]
//   PGLITE_SETTINGS='shared_buffers=128MB,...' replaces settings of the service's.
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { explainShapesWith } from './typed-plans-lib.mjs';
import { CATEGORIES, COLORS } from './query-product.mjs';

const directory = process.argv[2];
const repeats = Number(process.argv[3] ?? 40);
if (!directory) {
  console.error('usage: node bench/pglite-plans.mjs <copy of DATA_DIR/pglite> [queries=40]');
  process.exit(2);
}
const { PgliteSqlClient } = await import('../dist/infra/sql/pglite-client.js');
const { PostgresReadStore } = await import('../dist/infra/readstore/postgres.js');
const overrides = Object.fromEntries((process.env.PGLITE_SETTINGS ?? '').split(',').filter(Boolean).map((setting) => setting.split('=')));
const sql = await PgliteSqlClient.open(directory, { settings: overrides });
const store = await PostgresReadStore.open(sql);

const random = (below) => Math.floor(Math.random() * below);
const randomText = (length) => Array.from({ length }, () => '0123456789abcdefghijklmnopqrstuvwxyz'[random(36)]).join('');
const cond = (field, operator, value) => ({ type: 'condition', field: `fields.${field}`, operator, value });
const published = (filter) => ({ type: 'and', conditions: [{ type: 'condition', field: 'stage', operator: 'e', value: 'published' }, filter] });
const between = (field, low, high) => ({ type: 'and', conditions: [cond(field, 'gte', low), cond(field, 'lt', high)] });

/** The store calls a request of each shape makes (queries/content.ts), with fresh random values. */
const SHAPES = [
  ['equality + sort + total', (t) => store.find(t, { filter: published(cond('color', 'e', COLORS[random(10)])), sort: [{ field: 'fields.price', direction: 'desc' }], limit: 20 })],
  ['range + sort + total', (t) => { const low = random(950); return store.find(t, { filter: published(between('price', low, low + 50)), sort: [{ field: 'fields.released', direction: 'desc' }], limit: 20 }); }],
  ['start + sort + total', (t) => store.find(t, { filter: published(cond('title', 'start', randomText(2))), sort: [{ field: 'fields.price', direction: 'asc' }], limit: 20 })],
  ['contains + total', (t) => store.find(t, { filter: published(cond('title', 'contains', randomText(3))), limit: 20 })],
  ['ids with a filter', (t) => store.findIds(t, { filter: published(cond('category', 'e', CATEGORIES[random(100)])), limit: 100 })],
  ['aggregategroup', (t) => { const low = random(900); return store.aggregateGroups(t, { field: 'fields.price', operation: 'sum', groupBy: 'fields.category', filter: published(between('price', low, low + 100)) }); }],
];

async function measure(table) {
  const lines = ['| shape | CPU ms per query (all threads) | wall ms per query | bound: queries/s on one engine thread |', '|---|---|---|---|'];
  for (const [name, ask] of SHAPES) {
    await ask(table);
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let index = 0; index < repeats; index++) await ask(table);
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000 / repeats;
    lines.push(`| ${name} | ${cpuMs.toFixed(2)} | ${((performance.now() - started) / repeats).toFixed(2)} | ${Math.round(1000 / cpuMs)} |`);
  }
  return lines;
}

try {
  const [{ doc }] = await sql.query(`select doc from rm_content_tables where doc->>'contentType' = 'Product'`);
  const table = doc.serving.collection;
  const [{ rows, size }] = await sql.query(`select count(*)::int as rows, pg_size_pretty(pg_total_relation_size($1)) as size from "rm_${table}"`, [`rm_${table}`]);
  const settings = await sql.query(`select name, setting, unit from pg_settings where name in ('shared_buffers', 'work_mem', 'plan_cache_mode')`);
  console.log(`${new Date().toISOString()} · ${table}: ${rows} rows, ${size} · ${settings.map((s) => `${s.name}=${s.setting}${s.unit ?? ''}`).join(' ')} · ${repeats} queries a shape · load ${loadavg()[0].toFixed(1)}\n`);
  console.log('as the service left it:\n');
  console.log((await measure(table)).join('\n'));
  console.log('');
  console.log((await explainShapesWith(sql, table, doc.serving, { vacuum: false, timing: false })).join('\n'));
  console.log(`\nafter VACUUM ANALYZE (load ${loadavg()[0].toFixed(1)}):\n`);
  await sql.query(`vacuum analyze "rm_${table}"`);
  console.log((await measure(table)).join('\n'));
  console.log('');
  console.log((await explainShapesWith(sql, table, doc.serving, { vacuum: false, timing: false })).join('\n'));
} finally {
  await sql.close();
}
