// Denial-of-service attacks from one workspace, each timed while a second workspace sends
// one GET after another: how long the attack request took, what it answered, and how long
// the bystander waited. Embedded store, and PostgreSQL when DATABASE_URL is set.
// Usage: npm run build && node bench/hardening.mjs [items for the worst allowed read, default 20]
import { performance } from 'node:perf_hooks';
import { ADMIN_TOKEN, freshDatabase, startService } from './lib.mjs';

const worstReadItems = Number(process.argv[2] ?? 20);

async function call(url, method, path, { key, bearer, body } = {}) {
  const headers = {};
  if (key) headers['x-api-key'] = key;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

async function bystanderOf(url) {
  const workspace = await call(url, 'POST', '/admin/workspaces', { bearer: ADMIN_TOKEN, body: { name: 'Bystander' } });
  const key = await call(url, 'POST', `/admin/workspaces/${workspace.body.id}/api-keys`, { bearer: ADMIN_TOKEN, body: { name: 'reader', policies: ['ReadAccess'] } });
  return key.body.key;
}

/** The attack, with the bystander's GETs sent one after another until it ends. */
async function timed(url, bystanderKey, attack) {
  const waits = [];
  const statuses = new Set();
  let done = false;
  const probing = (async () => {
    while (!done) {
      const sentAt = performance.now();
      // A connection reset is a finding too (the server's keep-alive timer fires while its loop is blocked).
      const status = await call(url, 'GET', '/content-types', { key: bystanderKey }).then((answer) => answer.status, (error) => error.cause?.code ?? 'error');
      waits.push(performance.now() - sentAt);
      statuses.add(status);
    }
  })();
  const startedAt = performance.now();
  const answer = await attack();
  const attackMs = performance.now() - startedAt;
  done = true;
  await probing;
  waits.sort((a, b) => a - b);
  return { status: answer.status, attackMs, gets: waits.length, p50: waits[Math.floor(waits.length / 2)] ?? 0, max: waits.at(-1) ?? 0, statuses: [...statuses].join(' ') };
}

async function measure(label, environment) {
  const service = await startService(environment);
  const rows = [];
  try {
    const { url, writeKey, readKey } = service;
    const bystanderKey = await bystanderOf(url);
    const type = { name: 'Article', key: 'Article', fields: [{ key: 'title', type: 'Text' }] };
    if ((await call(url, 'PUT', '/content-types', { key: writeKey, body: type })).status !== 200) throw new Error('seeding failed');
    const add = async (name, attack) => rows.push({ name: `${label}: ${name}`, ...(await timed(url, bystanderKey, attack)) });

    await add('PUT /webhooks, customPayload "{{" + 1,498 spaces', () =>
      call(url, 'PUT', '/webhooks', { key: writeKey, body: { endpoint: 'http://127.0.0.1:9/hook', eventTypes: { Article: [0] }, useCustomPayload: true, customPayload: { a: `{{${' '.repeat(1498)}` } } }),
    );
    await add('save a Text value of 120,000 characters', () => call(url, 'PUT', '/v2/contents/Article', { key: writeKey, body: { fields: { title: 'a'.repeat(120_000) } } }));
    await add('contains, 60,000-character pattern', () =>
      call(url, 'POST', '/v2/contents/Article', { key: readKey, body: { filter: { type: 'condition', fieldKey: 'title', operator: 'contains', value: `${'a'.repeat(59_999)}b` } } }),
    );
    for (let index = 0; index < worstReadItems; index++) {
      await call(url, 'PUT', '/v2/contents/Article', { key: writeKey, body: { fields: { title: 'a'.repeat(10_000) } } });
    }
    await add(`contains, 200-character pattern over ${worstReadItems} values of 10,000 characters`, () =>
      call(url, 'POST', '/v2/contents/Article', { key: readKey, body: { filter: { type: 'condition', fieldKey: 'title', operator: 'contains', value: `${'a'.repeat(199)}b` } } }),
    );
  } finally {
    await service.close();
  }
  return rows;
}

const OUTBOUND = { WEBHOOK_ALLOW_HTTP: 'true', ALLOW_PRIVATE_TARGETS: 'true' };
const rows = await measure('embedded (PGlite)', OUTBOUND);
if (process.env.DATABASE_URL) {
  const database = await freshDatabase(process.env.DATABASE_URL);
  try {
    rows.push(...(await measure('PostgreSQL', { ...OUTBOUND, DATABASE_URL: database.url })));
  } finally {
    await database.drop();
  }
}
console.log('| attack | answer | attack ms | bystander GETs | bystander p50 ms | bystander max ms | bystander statuses |');
console.log('|---|---|---|---|---|---|---|');
for (const row of rows) {
  console.log(`| ${row.name} | ${row.status} | ${Math.round(row.attackMs)} | ${row.gets} | ${Math.round(row.p50)} | ${Math.round(row.max)} | ${row.statuses} |`);
}
