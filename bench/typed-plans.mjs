// Query plans and store-level write cost of a typed content table, without the API: creates the
// table the service would create for the bench's Product type, fills it with N items (a draft and
// a published document each) by SQL, then prints EXPLAIN ANALYZE of each query shape (with the
// index each plan uses) and the time of single-item upserts through the read store (every index
// maintained). Less sensitive to a shared machine's load than the HTTP figures.
// Usage: npm run build && DATABASE_URL=postgres://... node bench/typed-plans.mjs [items=100000]
//        (without DATABASE_URL: the embedded engine, PGlite with the service's settings, in a temporary directory)
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshDatabase } from './lib.mjs';
import { explainShapes, explainShapesWith } from './typed-plans-lib.mjs';

const itemCount = Number(process.argv[2] ?? 100_000);
const { PgSqlClient } = await import('../dist/infra/sql/pg-client.js');
const { PgliteSqlClient } = await import('../dist/infra/sql/pglite-client.js');
const { PostgresReadStore } = await import('../dist/infra/readstore/postgres.js');
const { tableColumns, tableGeneration, tableIndexes } = await import('../dist/projections/content-tables/schema.js');

const fields = [
  { key: 'title', type: 'Text' },
  { key: 'price', type: 'Number' },
  { key: 'color', type: 'Text' },
  { key: 'category', type: 'Text' },
  { key: 'released', type: 'DateTime' },
  { key: 'inStock', type: 'Boolean' },
];

const embeddedDir = process.env.DATABASE_URL ? null : await mkdtemp(join(tmpdir(), 'typed-plans-'));
const database = embeddedDir ? { drop: () => rm(embeddedDir, { recursive: true, force: true }) } : await freshDatabase(process.env.DATABASE_URL);
try {
  const sql = embeddedDir ? await PgliteSqlClient.open(embeddedDir) : await PgSqlClient.open(database.url);
  const store = await PostgresReadStore.open(sql);
  const generation = tableGeneration('ws', 'Product', fields);
  const table = `rm_${generation.collection}`;
  await store.ensureCollection(generation.collection, tableIndexes(), tableColumns(generation));
  const started = Date.now();
  await sql.query(`
    insert into "${table}" (id, doc)
    select 'ws:item' || i || ':' || stage, jsonb_build_object(
      'id', 'ws:item' || i || ':' || stage, 'workspaceId', 'ws', 'contentType', 'Product', 'itemId', 'item' || i, 'stage', stage,
      'fields', jsonb_build_object('title', substr(md5(i::text), 1, 8), 'price', (i * 7919) % 1000, 'color', 'color' || (i % 10),
        'category', 'cat' || ((i * 31) % 100), 'released', to_char(timestamp '2020-01-01' + (i % 2000) * interval '1 day', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'inStock', i % 3 <> 0),
      'translations', '{}'::jsonb, 'createdAt', '2026-11-24T00:00:00.000Z', 'updatedAt', '2026-11-24T00:00:00.000Z',
      'publishedAt', '2026-11-24T00:00:00.000Z', 'version', 2)
    from generate_series(1, ${itemCount}) as i, (values ('draft'), ('published')) as stages(stage)`);
  const filled = (Date.now() - started) / 1000;

  const lines = embeddedDir ? await explainShapesWith(sql, generation.collection, generation) : await explainShapes(database.url, generation.collection, generation);

  // Single-item updates through the store, as the projection daemon writes one event: both stages of the item.
  const updates = 1000;
  const writeStarted = Date.now();
  for (let index = 0; index < updates; index++) {
    const i = 1 + Math.floor(Math.random() * itemCount);
    const document = (stage) => ({
      id: `ws:item${i}:${stage}`, workspaceId: 'ws', contentType: 'Product', itemId: `item${i}`, stage,
      fields: { title: Math.random().toString(36).slice(2, 10), price: Math.floor(Math.random() * 1000), color: `color${index % 10}`, category: `cat${index % 100}`, released: '2024-01-01T00:00:00.000Z', inStock: true },
      translations: {}, createdAt: '2026-11-24T00:00:00.000Z', updatedAt: new Date().toISOString(), publishedAt: '2026-11-24T00:00:00.000Z', version: 3,
    });
    await store.apply([{ kind: 'upsert', collection: generation.collection, document: document('draft') }, { kind: 'upsert', collection: generation.collection, document: document('published') }]);
  }
  const perUpdate = (Date.now() - writeStarted) / updates;
  const size = (await sql.query(`select pg_size_pretty(pg_total_relation_size($1)) as total, pg_size_pretty(pg_relation_size($1)) as heap`, [table]))[0];

  console.log(`\n${new Date().toISOString()} · ${itemCount} items (${itemCount * 2} documents) filled by SQL in ${filled.toFixed(1)} s · load ${loadavg().map((value) => value.toFixed(1)).join(' ')}\n`);
  console.log(lines.join('\n'));
  console.log(`\nsingle-item upsert through the read store (both stages, every index, ${embeddedDir ? 'PGlite' : 'PostgreSQL'}): ${perUpdate.toFixed(2)} ms each, sequential (${Math.round(1000 / perUpdate)}/s on one connection)`);
  console.log(`table size: ${size.total} in all, ${size.heap} heap`);
  await sql.close();
} finally {
  await database.drop();
}
