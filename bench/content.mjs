// Content items at scale: seeds N items of one type through the API, then measures reads
// by id (V1, V2), a filtered + sorted V2 page, ids, aggregategroup and V2 writes, next to a
// bare express server in the same run. PostgreSQL when DATABASE_URL is set, else embedded.
// Usage: npm run build && DATABASE_URL=postgres://... node bench/content.mjs [items=100000] [seconds=10]
import { cpus } from 'node:os';
import { freshDatabase, HEADER, load, row, startCeiling, startService } from './lib.mjs';
import { product, productType } from './product.mjs';

const itemCount = Number(process.argv[2] ?? 100_000);
const duration = Number(process.argv[3] ?? 10);
const json = (key, body) => ({ headers: { 'x-api-key': key, 'content-type': 'application/json' }, method: 'POST', body: JSON.stringify(body) });

async function run(label, environment, ceiling) {
  const service = await startService(environment);
  const rows = [];
  try {
    const put = await fetch(`${service.url}/content-types`, { ...json(service.writeKey, productType), method: 'PUT' });
    if (!put.ok) throw new Error(`content type: ${put.status}`);

    let seeded = 0;
    const started = Date.now();
    const seeding = await load({
      url: `${service.url}/v2/contents/Product`,
      method: 'PUT',
      headers: { 'x-api-key': service.writeKey, 'content-type': 'application/json' },
      amount: itemCount,
      requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ fields: product(seeded++) }) }) }],
    });
    const seconds = (Date.now() - started) / 1000;
    rows.push(`| ${label}: seed ${itemCount} items (PUT /v2/contents) | ${Math.round(itemCount / seconds)} | ${seeding.p50} | ${seeding.p99} | ${seconds.toFixed(1)} s in all | ${seeding.failed} |`);

    const sample = await (await fetch(`${service.url}/v2/contents/Product/ids`, json(service.readKey, { pageSize: 5000 }))).json();
    const ids = sample.ids;
    const pick = () => ids[Math.floor(Math.random() * ids.length)];
    const read = { 'x-api-key': service.readKey };

    const v1 = await load({ url: service.url, headers: read, duration, requests: [{ setupRequest: (request) => ({ ...request, path: `/contents/Product/${pick()}` }) }] });
    rows.push(row(`${label}: GET /contents/{type}/{id} (V1)`, v1, ceiling));
    const v2 = await load({ url: service.url, headers: read, duration, requests: [{ setupRequest: (request) => ({ ...request, path: `/v2/contents/Product/${pick()}` }) }] });
    rows.push(row(`${label}: GET /v2/contents/{type}/{id}`, v2, ceiling));

    // Each query twice: the same request repeated (served from the query cache after the
    // first), then with a random filter value per request (almost every one a cache miss).
    const randomPrice = () => Math.floor(Math.random() * 1000);
    const page = (price) => ({
      filter: { type: 'and', conditions: [{ type: 'condition', fieldKey: 'category', operator: 'e', value: 'cat3' }, { type: 'condition', fieldKey: 'price', operator: 'gt', value: price }] },
      order: [{ fieldKey: 'price', sortDir: 'Desc' }],
      pageSize: 20,
    });
    const idsQuery = (price) => ({ filter: { type: 'condition', fieldKey: 'price', operator: 'gt', value: price }, pageSize: 100 });
    const groups = (price) => ({ fieldKey: 'price', aggregateType: 'Avg', groupByFieldKey: 'category', filter: { type: 'condition', fieldKey: 'price', operator: 'gt', value: price } });
    const scenarios = [
      ['POST /v2/contents filtered + sorted page', '/v2/contents/Product', page],
      ['POST /v2/contents/{type}/ids', '/v2/contents/Product/ids', idsQuery],
      ['POST /v2/contents/{type}/aggregategroup', '/v2/contents/Product/aggregategroup', groups],
    ];
    for (const [name, path, body] of scenarios) {
      rows.push(row(`${label}: ${name}, repeated`, await load({ url: `${service.url}${path}`, duration, ...json(service.readKey, body(500)) }), ceiling));
    }

    let updated = 0;
    const writes = await load({
      url: `${service.url}/v2/contents/Product`,
      method: 'PUT',
      headers: { 'x-api-key': service.writeKey, 'content-type': 'application/json' },
      duration,
      requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ id: pick(), fields: product(updated++) }) }) }],
    });
    rows.push(row(`${label}: PUT /v2/contents (updates, read-your-writes)`, writes, ceiling));

    // Last: uncached queries can keep the database busy after their clients gave up.
    for (const [name, path, body] of scenarios) {
      const varied = await load({
        url: `${service.url}${path}`,
        duration,
        ...json(service.readKey, body(500)),
        requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(body(randomPrice())) }) }],
      });
      rows.push(row(`${label}: ${name}, varied values`, varied, ceiling));
    }
  } finally {
    await service.close();
  }
  return rows;
}

const ceilingServer = await startCeiling({ id: 'x', fields: { title: 'Product 1', price: 10 }, translations: {} });
const ceiling = await load({ url: ceilingServer.url, duration });
await ceilingServer.close();

const rows = [row('ceiling: bare express, fixed body', ceiling, ceiling)];
if (process.env.DATABASE_URL) {
  const database = await freshDatabase(process.env.DATABASE_URL);
  try {
    rows.push(...(await run('PostgreSQL', { DATABASE_URL: database.url }, ceiling)));
  } finally {
    await database.drop();
  }
} else {
  rows.push(...(await run('embedded (PGlite)', {}, ceiling)));
}

console.log(`\n${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model} · node ${process.version} · 50 connections · ${duration} s each · ${itemCount} items\n`);
console.log(HEADER);
console.log(rows.join('\n'));
