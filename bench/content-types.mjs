// GET /content-types/{key} and PUT /content-types on the embedded store and (when
// DATABASE_URL is set) on PostgreSQL, next to a bare express server in the same run.
// Usage: npm run build && node bench/content-types.mjs [seconds]
import { cpus } from 'node:os';
import { freshDatabase, HEADER, load, row, startCeiling, startService } from './lib.mjs';

const duration = Number(process.argv[2] ?? 10);

const articleType = (key) =>
  JSON.stringify({
    name: key,
    key,
    fieldTitleKey: 'title',
    fields: [
      { key: 'title', type: 'Text', required: true, translatable: true },
      { key: 'body', type: 'RichText', translatable: true },
      { key: 'published', type: 'DateTime' },
      { key: 'price', type: 'Number' },
    ],
  });

async function measureService(label, environment, ceiling) {
  const service = await startService(environment);
  try {
    const put = await fetch(`${service.url}/content-types`, {
      method: 'PUT',
      headers: { 'x-api-key': service.writeKey, 'content-type': 'application/json' },
      body: articleType('Article'),
    });
    if (!put.ok) throw new Error(`seeding failed: ${put.status}`);
    const reads = await load({ url: `${service.url}/content-types/Article`, headers: { 'x-api-key': service.readKey }, duration });
    let counter = 0;
    const writes = await load({
      url: `${service.url}/content-types`,
      method: 'PUT',
      headers: { 'x-api-key': service.writeKey, 'content-type': 'application/json' },
      duration,
      // Spread over 500 keys (streams), as many editors would.
      requests: [{ setupRequest: (request) => ({ ...request, body: articleType(`Bench${counter++ % 500}`) }) }],
    });
    return [row(`${label}: GET /content-types/{key}`, reads, ceiling), row(`${label}: PUT /content-types`, writes, ceiling)];
  } finally {
    await service.close();
  }
}

const ceilingServer = await startCeiling({ id: 'x', name: 'Article', key: 'Article', fields: [] });
const ceiling = await load({ url: ceilingServer.url, duration });
await ceilingServer.close();

const rows = [row('ceiling: bare express, fixed body', ceiling, ceiling)];
rows.push(...(await measureService('embedded (PGlite)', {}, ceiling)));
if (process.env.DATABASE_URL) {
  const database = await freshDatabase(process.env.DATABASE_URL);
  try {
    rows.push(...(await measureService('PostgreSQL', { DATABASE_URL: database.url }, ceiling)));
  } finally {
    await database.drop();
  }
}

console.log(`\n${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model} · node ${process.version} · 50 connections · ${duration} s each\n`);
console.log(HEADER);
console.log(rows.join('\n'));
