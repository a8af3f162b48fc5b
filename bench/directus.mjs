// Issue 27's side by side: the query shapes of bench/queries.mjs against a running Directus on the
// same PostgreSQL server, over the same items (bench/query-product.mjs), with a new random value
// in every request, as shipped and after the four ordinary indexes the issue names. A bare
// express server is measured in the same run, so each rate is also a share of that ceiling, as
// bench/queries.mjs prints ours.
//
// Directus runs beside this bench (it needs Node 22; how to install and start it on this machine:
// bench/RESULTS.md, "Directus 12.4 here"). DIRECTUS_URL is its address, DIRECTUS_DATABASE_URL its
// database, which this bench writes: it sets the admin user's static token, creates the `products`
// collection (dropped first), inserts the items with SQL (the API's own load rate is not measured
// here), and with BENCH_DIRECTUS_INDEXES=1 adds the four indexes. BENCH_DIRECTUS_LOAD=<batch>
// loads the items through the API instead, POST /items/products with arrays of <batch> items on
// BENCH_CONNECTIONS connections, and reports items per second (the "load 100,000 items").
// Usage: DIRECTUS_URL=http://127.0.0.1:8055 DIRECTUS_DATABASE_URL=postgres://…/directus
//        [BENCH_DIRECTUS_INDEXES=1] [BENCH_DIRECTUS_LOAD=100] [BENCH_CONNECTIONS=20] node bench/directus.mjs [items] [seconds]
import { URLSearchParams } from 'node:url';
import pg from 'pg';
import { HEADER, load, row, startCeiling } from './lib.mjs';
import { CATEGORIES, COLORS, product } from './query-product.mjs';

const itemCount = Number(process.argv[2] ?? 100_000);
const duration = Number(process.argv[3] ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20);
const directus = process.env.DIRECTUS_URL ?? 'http://127.0.0.1:8055';
const TOKEN = 'bench-directus-token-0123456789';
const random = (below) => Math.floor(Math.random() * below);
const randomText = (length) => Array.from({ length }, () => '0123456789abcdefghijklmnopqrstuvwxyz'[random(36)]).join('');
const loadBatch = Number(process.env.BENCH_DIRECTUS_LOAD ?? 0);
const authorized = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' };

async function call(method, path, body) {
  const response = await fetch(`${directus}${path}`, { method, headers: authorized, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

const field = (name, type, dataType) => ({ field: name, type, schema: { data_type: dataType, is_nullable: true }, meta: {} });

async function createCollection(db) {
  await db.query(`update directus_users set token = $1 where email = (select email from directus_users order by email limit 1)`, [TOKEN]);
  await fetch(`${directus}/collections/products`, { method: 'DELETE', headers: authorized });
  await call('POST', '/collections', {
    collection: 'products',
    schema: {},
    meta: {},
    fields: [
      { field: 'id', type: 'integer', schema: { is_primary_key: true, has_auto_increment: true }, meta: { hidden: true } },
      field('title', 'string', 'varchar'),
      field('price', 'float', 'real'),
      field('color', 'string', 'varchar'),
      field('category', 'string', 'varchar'),
      field('released', 'timestamp', 'timestamp'),
      field('inStock', 'boolean', 'boolean'),
    ],
  });
  // A load through the API (BENCH_DIRECTUS_LOAD) starts from the empty collection.
  const insertedWithSql = loadBatch > 0 ? 0 : itemCount;
  for (let first = 0; first < insertedWithSql; first += 5000) {
    const items = Array.from({ length: Math.min(5000, itemCount - first) }, (_, index) => product(first + index));
    await db.query(
      `insert into products (title, price, color, category, released, "inStock")
       select * from unnest($1::text[], $2::real[], $3::text[], $4::text[], $5::timestamptz[], $6::boolean[])`,
      [items.map((item) => item.title), items.map((item) => item.price), items.map((item) => item.color), items.map((item) => item.category), items.map((item) => item.released), items.map((item) => item.inStock)],
    );
  }
  if (process.env.BENCH_DIRECTUS_INDEXES === '1') {
    // The four the operator added: a (category, price) pair, price, the date, a prefix index on title.
    await db.query('create index products_category_price on products (category, price)');
    await db.query('create index products_price on products (price)');
    await db.query('create index products_released on products (released)');
    await db.query('create index products_title_prefix on products (title text_pattern_ops)');
  }
  await db.query('vacuum analyze products');
}

/** The items through Directus's API in batches: items per second over the whole load. */
async function loadThroughApi() {
  let next = 0;
  const started = Date.now();
  const figures = await load({
    url: `${directus}/items/products`,
    method: 'POST',
    headers: authorized,
    connections,
    amount: Math.ceil(itemCount / loadBatch),
    requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(Array.from({ length: loadBatch }, () => product(next++))) }) }],
  });
  const seconds = (Date.now() - started) / 1000;
  const [{ count }] = (await db.query('select count(*)::int as count from products')).rows;
  return `| Directus: load ${itemCount} items through the API (POST /items/products, ${loadBatch} a request) | ${Math.round(count / seconds)} items/s | ${figures.p50} | ${figures.p99} | ${seconds.toFixed(1)} s, ${count} items | ${figures.failed} |`;
}

const query = (parameters) => `/items/products?${new URLSearchParams(parameters)}`;

const SHAPES = [
  ['GET item by id', () => `/items/products/${1 + random(itemCount)}`],
  ['equality + sort + total (page of 20)', () => query({ 'filter[color][_eq]': COLORS[random(10)], sort: '-price', limit: '20', meta: 'filter_count' })],
  [
    'range + sort + total',
    () => {
      const low = random(950);
      return query({ 'filter[price][_gte]': String(low), 'filter[price][_lt]': String(low + 50), sort: '-released', limit: '20', meta: 'filter_count' });
    },
  ],
  ['start (text prefix) + sort + total', () => query({ 'filter[title][_starts_with]': randomText(2), sort: 'price', limit: '20', meta: 'filter_count' })],
  ['ids with a filter', () => query({ 'filter[category][_eq]': CATEGORIES[random(100)], fields: 'id', limit: '100' })],
  [
    'aggregategroup Sum by a 100-group field, random filter',
    () => {
      const low = random(900);
      return query({ 'aggregate[sum]': 'price', 'groupBy[]': 'category', 'filter[price][_gte]': String(low), 'filter[price][_lt]': String(low + 100) });
    },
  ],
];

/** The shapes over the items inserted with SQL, then updates and creates: one line each. */
async function measureShapes(seedStarted) {
  const lines = [HEADER, `| Directus${process.env.BENCH_DIRECTUS_INDEXES === '1' ? ' + 4 indexes' : ''}: ${itemCount} items inserted with SQL | | | | ${((Date.now() - seedStarted) / 1000).toFixed(1)} s | |`];
  const ceilingFigures = await load({ url: ceiling.url, duration, connections });
  lines.push(row('ceiling: bare express, fixed body', ceilingFigures, ceilingFigures));
  for (const [name, path] of SHAPES) {
    const figures = await load({ url: directus, headers: authorized, duration, connections, requests: [{ setupRequest: (request) => ({ ...request, path: path() }) }] });
    lines.push(row(`Directus: ${name}`, figures, ceilingFigures));
  }
  let updated = 0;
  const updates = await load({
    url: directus,
    method: 'PATCH',
    headers: authorized,
    duration,
    connections,
    requests: [{ setupRequest: (request) => ({ ...request, path: `/items/products/${1 + random(itemCount)}`, body: JSON.stringify(product(itemCount + updated++)) }) }],
  });
  lines.push(row('Directus: updates (PATCH /items/products/{id})', updates, ceilingFigures));
  let created = 0;
  const creates = await load({
    url: `${directus}/items/products`,
    method: 'POST',
    headers: authorized,
    duration,
    connections,
    requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(product(2 * itemCount + created++)) }) }],
  });
  lines.push(row('Directus: creates (POST /items/products)', creates, ceilingFigures));
  return lines;
}

const ceiling = await startCeiling({ data: { id: 1, title: 'abcdefgh', price: 1 } });
const db = new pg.Client({ connectionString: process.env.DIRECTUS_DATABASE_URL });
await db.connect();
try {
  const seedStarted = Date.now();
  await createCollection(db);
  if (loadBatch > 0) console.log([HEADER, await loadThroughApi()].join('\n'));
  else console.log((await measureShapes(seedStarted)).join('\n'));
} finally {
  await db.end();
  await ceiling.close();
}
