// What a full online rebuild writes, counted, not timed: rows inserted, updated and deleted per
// event of the log in the read-store tables, from pg_stat_user_tables around one
// `POST /admin/projections/rebuild` on PostgreSQL and the typed content tables' build that follows
// it (a rebuild of the registry leaves no typed table serving). Items are saved and published,
// all of them, then saved and published again (4 events each, an item's two writes far apart in
// the log, as in a store that lived: a replay page of 1,000 events keeps only the last change to
// each document, so adjacent writes would hide the per-event cost). The typed build's scratch
// table is dropped at its end, with its counts: its rows are not in the figures.
// Usage: npm run build && DATABASE_URL=postgres://... node bench/rebuild-rows.mjs [items=1000]
import pg from 'pg';
import { ADMIN_TOKEN, freshDatabase, startService } from './lib.mjs';
import { product, productType } from './product.mjs';

const items = Number(process.argv[2] ?? 1000);
if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set');
/** Backends report their counts when idle for a while (PostgreSQL 15: 10 s) or when they end. */
const STATISTICS_SETTLE_MS = 12_000;

async function call(url, method, path, headers, body) {
  const response = await fetch(`${url}${path}`, { method, headers: { ...headers, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** Rows written per table since the last reset. */
async function tableRows(client) {
  const { rows } = await client.query(`select relname as name, n_tup_ins + n_tup_upd + n_tup_del as rows from pg_stat_user_tables`);
  return rows.map((row) => ({ name: row.name, rows: Number(row.rows) })).filter((table) => table.rows > 0);
}

async function until(probe) {
  for (;;) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const database = await freshDatabase(process.env.DATABASE_URL);
const service = await startService({ DATABASE_URL: database.url });
const client = new pg.Client({ connectionString: database.url });
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const write = { 'x-api-key': service.writeKey };
const typedTablesServe = async () => (await client.query(`select count(*)::int as n from rm_content_tables where doc->'serving' <> 'null'::jsonb`)).rows[0].n > 0;
try {
  await client.connect();
  await call(service.url, 'PUT', '/content-types', write, productType);
  const ids = new Array(items);
  const seed = (write) => Promise.all(Array.from({ length: 8 }, async (_, seeder) => {
    for (let index = seeder; index < items; index += 8) await write(index);
  }));
  await seed(async (index) => (ids[index] = (await call(service.url, 'PUT', '/v2/contents/Product', write, { fields: product(index) })).id));
  await seed((index) => call(service.url, 'PUT', '/v2/contents/Product', write, { id: ids[index], fields: product(index + 1) }));
  await until(typedTablesServe);
  const events = (await client.query('select count(*)::int as n from es_events')).rows[0].n;
  await new Promise((resolve) => setTimeout(resolve, STATISTICS_SETTLE_MS));

  await client.query('select pg_stat_reset()');
  await call(service.url, 'POST', '/admin/projections/rebuild', admin, {});
  await until(async () => (await call(service.url, 'GET', '/admin/projections/rebuild', admin)).state !== 'running');
  const rebuilt = await call(service.url, 'GET', '/admin/projections/rebuild', admin);
  if (rebuilt.state !== 'succeeded') throw new Error(`rebuild ${rebuilt.state}: ${rebuilt.error}`);
  await until(typedTablesServe);
  await new Promise((resolve) => setTimeout(resolve, STATISTICS_SETTLE_MS));
  const tables = await tableRows(client);
  const typed = (table) => table.name.startsWith('rm_ct_') || table.name.startsWith('rm_pv_');

  const perEvent = (rows) => (rows / events).toFixed(2);
  const report = (label, chosen) => {
    const total = chosen.reduce((sum, table) => sum + table.rows, 0);
    const checkpoints = chosen.find((table) => table.name === 'readstore_checkpoints')?.rows ?? 0;
    console.log(`| ${label} | ${events} | ${perEvent(total)} | ${perEvent(checkpoints)} |`);
    for (const table of [...chosen].sort((a, b) => b.rows - a.rows)) console.error(`  ${label}: ${table.name} ${perEvent(table.rows)} rows per event (${table.rows})`);
  };
  console.log('| pass | events in the log | read-store rows per event | of them checkpoints |');
  console.log('|---|---|---|---|');
  report('full online rebuild (every read model)', tables.filter((table) => !typed(table) && !table.name.startsWith('es_')));
  report('typed tables built after it', tables.filter(typed));
} finally {
  await client.end();
  await service.close();
  await database.drop();
}
