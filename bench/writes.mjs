// Writes only (issue 13's write goal): seeds N items of one type through the API (creates),
// then updates random items for some seconds; every write is answered after the read models
// caught up (read-your-writes). Reports both rates with the service's CPU time per write.
// PostgreSQL when DATABASE_URL is set (a fresh database on that server), else embedded.
// SERVICE_NODE_OPTIONS is passed to the service as NODE_OPTIONS (e.g. "--require <a preload that profiles>").
// KEEP_DATABASE=1 keeps the database for a look afterwards.
// Usage: npm run build && DATABASE_URL=postgres://... node bench/writes.mjs [items=10000] [seconds=10]
import pg from 'pg';
import { cpuMs, freshDatabase, load, startService } from './lib.mjs';
import { product, productType } from './product.mjs';

const itemCount = Number(process.argv[2] ?? 10_000);
const duration = Number(process.argv[3] ?? 10);

/** CPU ms of the PostgreSQL backends serving `url`'s database (the server runs on this machine). */
async function databaseCpuMs(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
    let total = 0;
    for (const { pid } of rows) total += await cpuMs(pid).then((cpu) => cpu.process, () => 0);
    return total;
  } finally {
    await client.end();
  }
}

const database = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL) : null;
let service;
try {
  service = await startService({
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...(process.env.SERVICE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.SERVICE_NODE_OPTIONS } : {}),
  });
  const headers = { 'x-api-key': service.writeKey, 'content-type': 'application/json' };
  const put = await fetch(`${service.url}/content-types`, { method: 'PUT', headers, body: JSON.stringify(productType) });
  if (!put.ok) throw new Error(`content type: ${put.status}`);
  const report = async (label, run) => {
    const before = await cpuMs(service.pid);
    const databaseBefore = database ? await databaseCpuMs(database.url) : 0;
    const started = Date.now();
    const figures = await run();
    const seconds = (Date.now() - started) / 1000;
    const cpu = (await cpuMs(service.pid)).process - before.process;
    const databaseCpu = database ? (await databaseCpuMs(database.url)) - databaseBefore : 0;
    const perSecond = Math.round(figures.total / seconds);
    console.log(`${label}: ${perSecond}/s, p50 ${figures.p50} ms, p99 ${figures.p99} ms, ${figures.failed} failed, service CPU ${(cpu / figures.total).toFixed(2)} ms a write${database ? `, database CPU ${(databaseCpu / figures.total).toFixed(2)} ms a write` : ''}`);
  };
  let seeded = 0;
  await report(`creates (${itemCount} items)`, () =>
    load({ url: `${service.url}/v2/contents/Product`, method: 'PUT', headers, amount: itemCount, requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ fields: product(seeded++) }) }) }] }),
  );
  const sample = await (await fetch(`${service.url}/v2/contents/Product/ids`, {
      method: 'POST',
      headers: { 'x-api-key': service.readKey, 'content-type': 'application/json' },
      body: JSON.stringify({ pageSize: 5000 }),
    })).json();
  const ids = sample.ids;
  if (!Array.isArray(ids) || ids.length === 0) throw new Error(`no item ids: ${JSON.stringify(sample).slice(0, 200)}`);
  let updated = 0;
  await report(`updates (${duration} s)`, () =>
    load({
      url: `${service.url}/v2/contents/Product`,
      method: 'PUT',
      headers,
      duration,
      requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ id: ids[Math.floor(Math.random() * ids.length)], fields: product(updated++) }) }) }],
    }),
  );
} finally {
  await service?.close();
  if (process.env.KEEP_DATABASE) console.log(`database kept: ${database?.url}`);
  else await database?.drop();
}
