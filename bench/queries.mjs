// Content queries on the typed read model (issue 13): seeds N items of one type through the
// API, waits for the type's typed table to serve, then measures each query shape of the goals
// with a new random value in every request (autocannon setupRequest), and updates. Runs the
// service with the caches on, then with QUERY_CACHE=false, then with READ_CACHE=false, on the same
// store, then prints EXPLAIN ANALYZE timings of each shape (PostgreSQL only) with the index each plan uses.
// Usage: npm run build && DATABASE_URL=postgres://... node bench/queries.mjs [items=100000] [seconds=10]
//        (without DATABASE_URL: embedded PGlite)
// BENCH_STORE=<dir>: keep the seeded store (database, DATA_DIR and keys) in <dir> and reuse it on
// the next run with the same item count and engine, skipping the seeding (minutes at 100,000).
// BENCH_RUNS: the runs to measure, of cache-on, query-cache-off (QUERY_CACHE=false: documents by id
// cached, every query to the store) and cache-off (READ_CACHE=false: every read to the store); all three by default.
// BENCH_LOG=<log.ndjson>: seed by `cms import` of a log written by
// `SEED_SHAPE=queries node bench/seed-log.mjs <log.ndjson> <items>` (1,000,000 items in minutes, not
// hours); keep it set when BENCH_STORE reuses such a store (the service needs the log's ENCRYPTION_KEY).
// BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof': a CPU profile of each service run (bench/lib.mjs).
// BENCH_QUERY_INDEXES='<json list>': declares these query indexes on Product before measuring, e.g.
// '[{"fields":["color",{"key":"price","direction":"desc"}]}]' (waits until the service reports them built).
// BENCH_SHAPES='<comma list>': measures only the shapes whose names contain one of these words
// (e.g. 'equality,updates'); all of them by default except 'creates' (new items: a reused store grows), measured only when named.
// BENCH_CONNECTIONS=<n>: concurrent clients (default 50); 2 shows a lone writer's latency.
// BENCH_WARMUP=<seconds>: before measuring, sends the measured shapes mixed at load for that long with no
// index declared by hand, then waits until the indexes the query advisor declared (actor `system`) are
// built, and lists them: issue 27's "after 60 s of a new query shape at load". A bare express server is
// measured first in the same run, so every shape's rate is also printed as a share of that ceiling.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { explainShapes } from './typed-plans-lib.mjs';
import { ADMIN_TOKEN, cpuMs, freshDatabase, HEADER, load, memoryMb, postgresCpuMs, row, startCeiling, startService } from './lib.mjs';
import { CATEGORIES, COLORS, product, productType } from './query-product.mjs';

const itemCount = Number(process.argv[2] ?? 100_000);
const duration = Number(process.argv[3] ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const random = (below) => Math.floor(Math.random() * below);
const randomText = (length) => Array.from({ length }, () => '0123456789abcdefghijklmnopqrstuvwxyz'[random(36)]).join('');
const condition = (fieldKey, operator, value) => ({ type: 'condition', fieldKey, operator, value });

const SCENARIOS = [
  ['unfiltered page + total, random page of the first 50', '/v2/contents/Product', () => ({ page: 1 + random(50), pageSize: 20 })],
  ['unfiltered ids + total, random page of the first 50', '/v2/contents/Product/ids', () => ({ page: 1 + random(50), pageSize: 100 })],
  ['equality + sort + total (page of 20)', '/v2/contents/Product', () => ({ filter: condition('color', 'e', COLORS[random(10)]), order: { fieldKey: 'price', sortDir: 'Desc' }, pageSize: 20 })],
  [
    'range + sort + total',
    '/v2/contents/Product',
    () => {
      const low = random(950);
      return { filter: { type: 'and', conditions: [condition('price', 'gte', low), condition('price', 'lt', low + 50)] }, order: { fieldKey: 'released', sortDir: 'Desc' }, pageSize: 20 };
    },
  ],
  ['start (text prefix) + sort + total', '/v2/contents/Product', () => ({ filter: condition('title', 'start', randomText(2)), order: { fieldKey: 'price' }, pageSize: 20 })],
  ['contains + total', '/v2/contents/Product', () => ({ filter: condition('title', 'contains', randomText(3)), pageSize: 20 })],
  ['ids with a filter', '/v2/contents/Product/ids', () => ({ filter: condition('category', 'e', CATEGORIES[random(100)]), pageSize: 100 })],
  [
    'aggregategroup Sum by a 100-group field, random filter',
    '/v2/contents/Product/aggregategroup',
    () => {
      const low = random(900);
      return { fieldKey: 'price', aggregateType: 'Sum', groupByFieldKey: 'category', filter: { type: 'and', conditions: [condition('price', 'gte', low), condition('price', 'lt', low + 100)] } };
    },
  ],
];

const json = (key, body) => ({ headers: { 'x-api-key': key, 'content-type': 'application/json' }, method: 'POST', body: JSON.stringify(body) });

/** The embedded store builds the table of 100,000 imported items in minutes on a loaded machine. */
const TYPED_TABLE_WAIT_MS = 20 * 60_000;

/**
 * The typed table once it has served for SETTLED_MS in a row: a store of an earlier layout serves
 * its old table until the builder's first pass (a second after the start) marks it for a rebuild.
 */
const SETTLED_MS = 3000;

async function waitForTypedTable(url) {
  let servingSince = null;
  for (let waited = 0; waited < TYPED_TABLE_WAIT_MS; waited += 200) {
    const status = await (await fetch(`${url}/admin/projections`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json();
    const table = status.contentTables?.tables.find((entry) => entry.contentType === 'Product');
    servingSince = table?.state === 'serving' ? (servingSince ?? Date.now()) : null;
    if (servingSince !== null && Date.now() - servingSince >= SETTLED_MS) return table.servingTable;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the typed table did not serve within ${TYPED_TABLE_WAIT_MS / 60_000} minutes`);
}

/** Declares `indexes` on Product (admin API) and waits until the service reports them built. */
async function declareQueryIndexes(url, indexes) {
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
  const [workspace] = await (await fetch(`${url}/admin/workspaces`, { headers: admin })).json();
  const path = `${url}/admin/workspaces/${workspace.id}/content-types/Product/query-indexes`;
  const declared = await fetch(path, { method: 'PUT', headers: admin, body: JSON.stringify({ indexes }) });
  if (!declared.ok) throw new Error(`declaring query indexes: ${declared.status} ${await declared.text()}`);
  for (let waited = 0; waited < TYPED_TABLE_WAIT_MS; waited += 500) {
    const { state } = await (await fetch(path, { headers: admin })).json();
    if (state === 'built') return;
    if (state === 'failed') throw new Error('the declared query indexes could not be built (see the service log)');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the declared query indexes were not built in time');
}

/**
 * Runs `work` (a load) and answers its figures with the service's CPU per answered request:
 * all its threads (on PGlite the engine's too) and the HTTP thread alone, a measure the
 * machine's load hardly moves (on the embedded store, 1000 / the engine's share bounds req/s);
 * and the local PostgreSQL server's CPU per request when one runs here.
 */
async function withCpu(service, work) {
  const [before, postgresBefore] = [await cpuMs(service.pid), await postgresCpuMs()];
  const figures = await work();
  const [after, postgresAfter] = [await cpuMs(service.pid), await postgresCpuMs()];
  const answered = Math.max(1, figures.total - figures.failed);
  const perRequest = (field) => ((after[field] - before[field]) / answered).toFixed(2);
  const postgres = process.env.DATABASE_URL && postgresBefore !== null ? ` · PostgreSQL ${((postgresAfter - postgresBefore) / answered).toFixed(2)}` : '';
  return { figures, cpu: `${perRequest('process')} / ${perRequest('mainThread')}${postgres}` };
}

const SHAPES = process.env.BENCH_SHAPES?.split(',').map((word) => word.trim()) ?? null;
const measured = (name) => SHAPES === null || SHAPES.some((word) => name.includes(word));

/** The bare express ceiling of this machine, measured once per run: every rate is also given as its share. */
let ceilingFigures;
async function measureCeiling() {
  const ceiling = await startCeiling({ ok: true });
  try {
    ceilingFigures = await load({ url: ceiling.url, duration, connections });
    return `${row('ceiling: bare express, fixed body', ceilingFigures, ceilingFigures)} | | load ${loadavg()[0].toFixed(1)} |`;
  } finally {
    await ceiling.close();
  }
}

/** Sends every measured shape, mixed, at load for `seconds`, then waits for the advisor's indexes to be built; answers what it declared. */
async function warmUp(service, keys, seconds) {
  const scenarios = SCENARIOS.filter(([name]) => measured(name));
  const next = () => {
    const [, path, body] = scenarios[random(scenarios.length)];
    return { path, body: JSON.stringify(body()) };
  };
  const first = next();
  await load({
    url: `${service.url}${first.path}`,
    duration: seconds,
    connections,
    ...json(keys.readKey, {}),
    requests: [{ setupRequest: (request) => ({ ...request, ...next() }) }],
  });
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const [workspace] = await (await fetch(`${service.url}/admin/workspaces`, { headers: admin })).json();
  const path = `${service.url}/admin/workspaces/${workspace.id}/content-types/Product/query-indexes`;
  for (let waited = 0; waited < TYPED_TABLE_WAIT_MS; waited += 1000) {
    const listed = await (await fetch(path, { headers: admin })).json();
    if (listed.state === 'built' || listed.state === 'none') return listed.indexes ?? [];
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error('the advised query indexes were not built in time');
}

async function measure(label, service, keys, ids) {
  const rows = [];
  const pick = () => ids[random(ids.length)];
  for (const [name, path, body] of SCENARIOS.filter(([name]) => measured(name))) {
    const { figures, cpu } = await withCpu(service, () =>
      load({
        url: `${service.url}${path}`,
        duration,
        connections,
        ...json(keys.readKey, body()),
        requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(body()) }) }],
      }),
    );
    rows.push(`${row(`${label}: ${name}`, figures, ceilingFigures)} ${cpu} | load ${loadavg()[0].toFixed(1)} |`);
  }
  let written = itemCount;
  const writes = [
    ['updates', 'updates (PUT /v2/contents, read-your-writes)', () => ({ id: pick(), fields: product(written++) })],
    ['creates', 'creates (PUT /v2/contents with no id, read-your-writes)', () => ({ fields: product(written++) })],
  ];
  // Creates grow a reused store: measured only when named.
  for (const [, name, body] of writes.filter(([shape]) => (shape === 'creates' ? SHAPES?.includes('creates') : measured(shape)))) {
    const { figures, cpu } = await withCpu(service, () =>
      load({
        url: `${service.url}/v2/contents/Product`,
        method: 'PUT',
        headers: { 'x-api-key': keys.writeKey, 'content-type': 'application/json' },
        duration,
        connections,
        requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(body()) }) }],
      }),
    );
    rows.push(`${row(`${label}: ${name}`, figures)} ${cpu} | load ${loadavg()[0].toFixed(1)} |`);
  }
  const memory = await memoryMb(service.pid);
  rows.push(`| ${label}: service memory | RSS ${memory.rss} MB, peak ${memory.peak} MB | | | | | | |`);
  return rows;
}

/**
 * What autovacuum does after a bulk load, at once: statistics for the planner and the visibility
 * map that lets counts be index-only scans. Without it, the first minutes after seeding measure
 * plans made without statistics; a reused store gets it too (the updates of earlier runs left dead rows).
 */
async function analyze(databaseUrl, table) {
  if (!databaseUrl) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`vacuum analyze "rm_${table}"`);
  await client.end();
}

/** Seeds `itemCount` products through the API of a fresh service; returns the service and its seeding row. */
async function seed(label, environment) {
  const service = await startService(environment);
  const keys = { readKey: service.readKey, writeKey: service.writeKey };
  const put = await fetch(`${service.url}/content-types`, { ...json(keys.writeKey, productType), method: 'PUT' });
  if (!put.ok) throw new Error(`content type: ${put.status}`);
  await waitForTypedTable(service.url);
  let seeded = 0;
  const started = Date.now();
  const seeding = await load({
    url: `${service.url}/v2/contents/Product`,
    method: 'PUT',
    headers: { 'x-api-key': keys.writeKey, 'content-type': 'application/json' },
    amount: itemCount,
    requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ fields: product(seeded++) }) }) }],
  });
  const seconds = (Date.now() - started) / 1000;
  const line = `| ${label}: seed ${itemCount} items (PUT /v2/contents) | ${Math.round(itemCount / seconds)} | ${seeding.p50} | ${seeding.p99} | ${seconds.toFixed(1)} s in all | ${seeding.failed} | | load ${loadavg()[0].toFixed(1)} |`;
  return { service, keys, line };
}

/** Seeds the store with `cms import` of BENCH_LOG; the log's own keys open it (bench/seed-log.mjs). */
async function importLog(label, environment) {
  const file = process.env.BENCH_LOG;
  const logKeys = JSON.parse(await readFile(`${file}.keys.json`, 'utf8'));
  const started = Date.now();
  const { stdout } = await promisify(execFile)(process.execPath, ['dist/src/cli.js', 'import', file, '--keys', `${file}.datakey.ndjson`], {
    env: { ...process.env, ...environment },
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = (Date.now() - started) / 1000;
  const summary = stdout.trim().split('\n').at(-1);
  const line = `| ${label}: seed ${itemCount} items (cms import of ${file}: ${summary}) | | | | ${seconds.toFixed(1)} s in all | | | load ${loadavg()[0].toFixed(1)} |`;
  return { keys: { readKey: logKeys.readKey, writeKey: logKeys.writeKey }, line };
}

const RUNS = (process.env.BENCH_RUNS ?? 'cache-on,query-cache-off,cache-off').split(',');
const UNCACHED_RUNS = [
  ['query-cache-off', 'QUERY_CACHE=false', { QUERY_CACHE: 'false' }],
  ['cache-off', 'READ_CACHE=false', { READ_CACHE: 'false' }],
];

async function run(label, environment, reused) {
  const rows = [];
  let service;
  let keys;
  if (reused) {
    keys = reused.keys;
    rows.push(`| ${label}: ${itemCount} items reused from ${process.env.BENCH_STORE} | | | | | | | |`);
  } else {
    const seeded = process.env.BENCH_LOG ? await importLog(label, environment) : await seed(label, environment);
    ({ service, keys } = seeded);
    rows.push(seeded.line);
  }
  const dataDir = environment.DATA_DIR ?? service.dataDir;
  let table;
  try {
    service ??= await startService(environment, dataDir);
    table = await waitForTypedTable(service.url);
    if (process.env.BENCH_QUERY_INDEXES) await declareQueryIndexes(service.url, JSON.parse(process.env.BENCH_QUERY_INDEXES));
    await analyze(environment.DATABASE_URL, table);
    if (process.env.BENCH_WARMUP) {
      rows.push(await measureCeiling());
      const advised = await warmUp(service, keys, Number(process.env.BENCH_WARMUP));
      rows.push(`| ${label}: after ${process.env.BENCH_WARMUP} s of the shapes mixed, indexes: ${JSON.stringify(advised.map(({ fields, covering, origin }) => ({ fields, ...(covering ? { covering } : {}), origin })))} | | | | | | | |`);
    }
    const ids = (await (await fetch(`${service.url}/v2/contents/Product/ids`, json(keys.readKey, { pageSize: 5000 }))).json()).ids;
    if (RUNS.includes('cache-on')) rows.push(...(await measure(`${label}, cache on`, service, keys, ids)));
    await service.close();
    service = undefined;
    for (const [, name, variables] of UNCACHED_RUNS.filter(([candidate]) => RUNS.includes(candidate))) {
      service = await startService({ ...environment, ...variables }, dataDir);
      rows.push(...(await measure(`${label}, ${name}`, service, keys, ids)));
      await service.close();
      service = undefined;
    }
  } finally {
    await service?.close();
  }
  return { rows, table, keys };
}

/** The store of a previous run with BENCH_STORE, when it holds the same items on the same engine. */
async function reusableStore(engine) {
  const directory = process.env.BENCH_STORE;
  if (!directory || !existsSync(join(directory, 'bench.json'))) return null;
  const saved = JSON.parse(await readFile(join(directory, 'bench.json'), 'utf8'));
  return saved.items === itemCount && saved.engine === engine ? saved : null;
}

async function keepStore(engine, saved) {
  const directory = process.env.BENCH_STORE;
  if (directory) await writeFile(join(directory, 'bench.json'), JSON.stringify({ engine, items: itemCount, ...saved }));
}

const engine = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const reused = await reusableStore(engine);
const dataDir = process.env.BENCH_STORE ? join(process.env.BENCH_STORE, 'data') : process.env.BENCH_LOG ? await mkdtemp(join(tmpdir(), 'cms-queries-')) : undefined;
if (dataDir) await mkdir(dataDir, { recursive: true });
/** An imported log's data key is wrapped by the encryption key it was written with. */
const logEnvironment = process.env.BENCH_LOG ? { ENCRYPTION_KEY: JSON.parse(await readFile(`${process.env.BENCH_LOG}.keys.json`, 'utf8')).encryptionKey } : {};
const header = HEADER.replace('non-2xx/errors |', 'non-2xx/errors | CPU ms per request: service (all threads / HTTP thread) · PostgreSQL server | load avg |').replace(
  '|---|---|---|---|---|---|',
  '|---|---|---|---|---|---|---|---|',
);
const output = [];
if (process.env.DATABASE_URL) {
  const database = reused ? { url: reused.databaseUrl, drop: async () => undefined } : await freshDatabase(process.env.DATABASE_URL);
  const kept = Boolean(process.env.BENCH_STORE);
  try {
    const { rows, table, keys } = await run('PostgreSQL', { DATABASE_URL: database.url, ...(dataDir ? { DATA_DIR: dataDir } : {}), ...logEnvironment }, reused);
    if (!reused) await keepStore(engine, { databaseUrl: database.url, keys });
    output.push(header, ...rows, '', `EXPLAIN ANALYZE on ${table}:`, '', ...(await explainShapes(database.url, table)));
  } finally {
    if (!kept) await database.drop();
  }
} else {
  const { rows, keys } = await run('embedded (PGlite)', { ...(dataDir ? { DATA_DIR: dataDir } : {}), ...logEnvironment }, reused);
  if (!reused) await keepStore(engine, { keys });
  output.push(header, ...rows);
}

console.log(`\n${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model} · node ${process.version} · ${connections} connections · ${duration} s each · ${itemCount} items · new random value per request\n`);
console.log(output.join('\n'));
