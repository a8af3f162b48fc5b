// The embedded default as a newcomer meets it: memory after the first start, GET by id
// (V1 and V2) next to a bare express server in the same run, memory when idle, and memory
// after a restart on the same data directory.
// Usage: npm run build && node bench/embedded.mjs [items=1000] [seconds=10] [idleSeconds=10]
import { cpus } from 'node:os';
import { cpuMs, HEADER, load, memoryMb, row, startCeiling, startService } from './lib.mjs';

const itemCount = Number(process.argv[2] ?? 1000);
const duration = Number(process.argv[3] ?? 10);
const idleSeconds = Number(process.argv[4] ?? 10);

const productType = {
  name: 'Product',
  key: 'Product',
  fields: [
    { key: 'title', type: 'Text', required: true },
    { key: 'price', type: 'Number' },
  ],
};
const json = (key, body, method = 'POST') => ({ headers: { 'x-api-key': key, 'content-type': 'application/json' }, method, body: JSON.stringify(body) });
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const ceilingServer = await startCeiling({ id: 'x', fields: { title: 'Product 1', price: 10 }, translations: {} });
const ceiling = await load({ url: ceilingServer.url, duration });
await ceilingServer.close();
const rows = [row('ceiling: bare express, fixed body', ceiling, ceiling)];
const memory = [];
const cpu = [];

const service = await startService();
let restarted;
try {
  memory.push(['after the first start', await memoryMb(service.pid)]);
  const put = await fetch(`${service.url}/content-types`, json(service.writeKey, productType, 'PUT'));
  if (!put.ok) throw new Error(`content type: ${put.status}`);
  let seeded = 0;
  const seeding = await load({
    url: `${service.url}/v2/contents/Product`,
    method: 'PUT',
    headers: { 'x-api-key': service.writeKey, 'content-type': 'application/json' },
    amount: itemCount,
    requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ fields: { title: `Product ${seeded}`, price: seeded++ % 1000 } }) }) }],
  });
  rows.push(row(`embedded: seed ${itemCount} items (PUT /v2/contents)`, seeding, ceiling));
  const { ids } = await (await fetch(`${service.url}/v2/contents/Product/ids`, json(service.readKey, { pageSize: 5000 }))).json();
  const pick = () => ids[Math.floor(Math.random() * ids.length)];
  const read = { 'x-api-key': service.readKey };
  // Warm-up, not recorded: the first seconds after seeding also compile the read path.
  await load({ url: service.url, headers: read, duration: 3, requests: [{ setupRequest: (request) => ({ ...request, path: `/v2/contents/Product/${pick()}` }) }] });
  for (const [name, path] of [
    ['GET /contents/{type}/{id} (V1)', '/contents/Product/'],
    ['GET /v2/contents/{type}/{id}', '/v2/contents/Product/'],
  ]) {
    const before = await cpuMs(service.pid);
    const figures = await load({ url: service.url, headers: read, duration, requests: [{ setupRequest: (request) => ({ ...request, path: `${path}${pick()}` }) }] });
    const after = await cpuMs(service.pid);
    rows.push(row(`embedded: ${name}`, figures, ceiling));
    const perRequest = (part) => ((after[part] - before[part]) / figures.total).toFixed(3);
    cpu.push(`| ${name} | ${perRequest('process')} | ${perRequest('mainThread')} |`);
  }
  memory.push(['after the load', await memoryMb(service.pid)]);
  await sleep(idleSeconds * 1000);
  memory.push([`idle ${idleSeconds} s later`, await memoryMb(service.pid)]);
} finally {
  await service.close();
}
try {
  restarted = await startService({}, service.dataDir);
  memory.push(['after a restart on the same data', await memoryMb(restarted.pid)]);
  await sleep(idleSeconds * 1000);
  memory.push([`restarted, idle ${idleSeconds} s later`, await memoryMb(restarted.pid)]);
} finally {
  await restarted?.close();
}

console.log(`\n${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model} · node ${process.version} · 50 connections · ${duration} s each · ${itemCount} items\n`);
console.log(HEADER);
console.log(rows.join('\n'));
console.log('\n| service CPU per request | ms, all threads | ms, main thread |\n|---|---|---|');
console.log(cpu.join('\n'));
console.log('\n| service process | RSS MB | peak RSS MB |\n|---|---|---|');
console.log(memory.map(([moment, figures]) => `| ${moment} | ${figures.rss} | ${figures.peak} |`).join('\n'));
