// As-of lists (issue 16 item 5): N items of one type, each published three times (and every
// fifth unpublished afterwards), their events spread over 40 days of recorded time; then the
// published list, ids and aggregates are measured `?asOf=` a random time in that window, a new
// time per request (autocannon setupRequest), beside the current list on the same load.
//
// The log is written as an export file (as bench/seed-log.mjs does: one template item driven
// over HTTP in an embedded service, copied per item with fresh ids, values and times), imported
// with `cms import` (which builds the read models), so seeding 100,000 items
// takes minutes, not the hours of 400,000 API writes.
//
// The seeded database is kept and remembered in a state file, so a later run measures it again
// without seeding (e.g. on a quiet machine): `--fresh` seeds anew. PostgreSQL only.
// Usage: npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node bench/asof.mjs [items=100000] [seconds=10] [--fresh]
//   afterwards: drop database cms_asof_<items> (or ASOF_DATABASE; the state file is /tmp/<database>.json)
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { ADMIN_TOKEN, HEADER, load, memoryMb, row, startService } from './lib.mjs';

const args = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const fresh = process.argv.includes('--fresh');
const itemCount = Number(args[0] ?? 100_000);
const duration = Number(args[1] ?? 10);
const serverUrl = process.env.DATABASE_URL;
if (!serverUrl || !Number.isInteger(itemCount) || itemCount < 1) {
  console.error('usage: DATABASE_URL=postgres://... node bench/asof.mjs [items=100000] [seconds=10] [--fresh]');
  process.exit(2);
}
const ENCRYPTION_KEY = process.env.ENCRYPTION_KEY ?? Buffer.alloc(32, 7).toString('base64');
const WINDOW_START = Date.parse('2026-01-01T00:00:00.000Z');
const DAY = 86_400_000;
/** Items are created over the first 30 days; each later version comes 1 to 5 days after the one before. */
const WINDOW_END = WINDOW_START + 40 * DAY;
const CATEGORIES = Array.from({ length: 10 }, (_, index) => `cat${index}`);
const VERSIONS = 3;
/** ASOF_DATABASE names the database (a shared server: a name of one's own); the state file is named after it. */
const databaseName = process.env.ASOF_DATABASE ?? `cms_asof_${itemCount}`;
const statePath = join(tmpdir(), `${databaseName}.json`);

const productType = {
  name: 'Product',
  key: 'Product',
  fields: [
    { key: 'title', type: 'Text', required: true },
    { key: 'price', type: 'Number' },
    { key: 'category', type: 'Text' },
  ],
};
// Placeholders of version v's values in the template, replaced per item in the event text.
const title = (version) => `seed-title-placeholder-${version}`;
const category = (version) => `seed-category-placeholder-${version}`;
const price = (version) => 987654320 + version;

const withoutStores = (environment) =>
  Object.fromEntries(Object.entries(environment).filter(([name]) => !['DATABASE_URL', 'EVENT_STORE', 'READ_STORE', 'EVENTSTORE_URL', 'MONGODB_URL'].includes(name)));
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const random = (below) => Math.floor(Math.random() * below);
const json = (key, body, method = 'POST') => ({ method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The export of an embedded workspace holding the type and one item published VERSIONS times, then unpublished; its API keys. */
async function templateExport() {
  const service = await startService({ ENCRYPTION_KEY });
  const keys = { readKey: service.readKey, writeKey: service.writeKey };
  const call = async (method, path, body) => {
    const response = await fetch(`${service.url}${path}`, json(service.writeKey, body, method));
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  let itemId;
  let workspaceId;
  try {
    await call('PUT', '/content-types', productType);
    for (let version = 1; version <= VERSIONS; version++) {
      const saved = await call('PUT', '/v2/contents/Product', { id: itemId, fields: { title: title(version), price: price(version), category: category(version) } });
      itemId = saved.id;
    }
    await call('PUT', `/v2/contents/Product/${itemId}/unpublish`, {});
    const workspaces = await (await fetch(`${service.url}/admin/workspaces`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json();
    workspaceId = (Array.isArray(workspaces) ? workspaces : (workspaces.items ?? workspaces.workspaces))[0].id;
  } finally {
    await service.close();
  }
  const file = join(service.dataDir, 'template.ndjson');
  await promisify(execFile)(process.execPath, ['dist/src/cli.js', 'export', workspaceId, '--out', file], {
    env: { ...withoutStores(process.env), ENCRYPTION_KEY, ADMIN_TOKEN, DATA_DIR: service.dataDir },
  });
  const lines = (await readFile(file, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line));
  await rm(service.dataDir, { recursive: true, force: true });
  return { lines, itemId, keys };
}

/** Writes the log of `itemCount` items; every event gets its item's time for that step. */
async function writeLog(out) {
  const { lines, itemId, keys } = await templateExport();
  const [header, ...rest] = lines;
  const events = rest.filter((line) => line.kind === 'event');
  const template = events.filter((event) => JSON.stringify(event).includes(itemId));
  const prefix = events.filter((event) => !template.includes(event));
  // Steps: each PUT on the published path is a draft save and a publish; the unpublish is last.
  const steps = template.map((event) => (event.type === 'ContentUnpublished' ? VERSIONS : Math.floor(template.filter((other) => other.type === 'ContentPublished' && template.indexOf(other) < template.indexOf(event)).length)));
  const output = createWriteStream(out);
  const write = (text) => (output.write(`${text}\n`) ? undefined : new Promise((resolve) => output.once('drain', resolve)));
  const revisions = new Map();
  // New ids, values and times change every event's chain hash: the events go without one (an export without hashes imports as such).
  const withRevision = ({ hash: _hash, ...event }) => {
    const revision = revisions.get(event.stream) ?? 0;
    revisions.set(event.stream, revision + 1);
    return { ...event, revision };
  };
  await write(JSON.stringify(header));
  for (const event of prefix) await write(JSON.stringify({ ...withRevision(event), metadata: { ...event.metadata, timestamp: new Date(WINDOW_START - DAY).toISOString() } }));
  const templateIds = [...new Set([itemId, ...template.flatMap((event) => [event.id, event.metadata.correlationId, event.metadata.causationId])])].filter(Boolean);
  const placeholders = Array.from({ length: VERSIONS }, (_, index) => [title(index + 1), category(index + 1), String(price(index + 1))]).flat();
  const pattern = new RegExp([...templateIds, ...placeholders].map(escapeRegExp).join('|'), 'g');
  const texts = template.map((event) => JSON.stringify(event));
  let written = prefix.length;
  for (let index = 0; index < itemCount; index++) {
    const values = new Map(templateIds.map((id) => [id, randomUUID()]));
    for (let version = 1; version <= VERSIONS; version++) {
      values.set(title(version), `Product ${index} v${version}`);
      values.set(category(version), CATEGORIES[(index + version) % CATEGORIES.length]);
      values.set(String(price(version)), String(((index + version) * 7919) % 1000));
    }
    const times = [WINDOW_START + Math.floor((index / itemCount) * 30 * DAY)];
    for (let step = 1; step <= VERSIONS; step++) times.push(times[step - 1] + DAY + random(4 * DAY));
    const unpublished = index % 5 === 0;
    for (const [position, text] of texts.entries()) {
      const event = JSON.parse(text.replace(pattern, (match) => values.get(match)));
      if (event.type === 'ContentUnpublished' && !unpublished) continue;
      event.metadata.timestamp = new Date(times[steps[position]] + position).toISOString();
      await write(JSON.stringify(withRevision(event)));
      written++;
    }
  }
  await write(JSON.stringify({ kind: 'summary', events: written }));
  await new Promise((resolve, reject) => output.end((error) => (error ? reject(error) : resolve())));
  return { keys, events: written };
}

async function sql(url, statement) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(statement)).rows;
  } finally {
    await client.end();
  }
}

/** Seeds the database anew: log file, import, offline projection, statistics. */
async function seed() {
  await sql(serverUrl, `drop database if exists ${databaseName} with (force)`);
  await sql(serverUrl, `create database ${databaseName}`);
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  const databaseUrl = url.toString();
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-asof-'));
  const file = join(dataDir, 'log.ndjson');
  const started = Date.now();
  const { keys, events } = await writeLog(file);
  const environment = { ...withoutStores(process.env), DATA_DIR: dataDir, ADMIN_TOKEN, ENCRYPTION_KEY, DATABASE_URL: databaseUrl };
  const cli = async (...args) => (await promisify(execFile)(process.execPath, ['dist/src/cli.js', ...args], { env: environment, maxBuffer: 64 * 1024 * 1024 })).stdout.trim();
  // The import builds every read model from the imported log; the service builds the typed tables (the versions table too) when it starts.
  console.log(await cli('import', file, '--without-keys'));
  await rm(file);
  await sql(databaseUrl, 'vacuum analyze');
  const state = { databaseUrl, dataDir, keys, events, seededIn: `${((Date.now() - started) / 1000).toFixed(0)} s` };
  await writeFile(statePath, JSON.stringify(state, null, 2));
  return state;
}

async function seeded() {
  if (fresh) return seed();
  try {
    const state = JSON.parse(await readFile(statePath, 'utf8'));
    await sql(state.databaseUrl, 'select 1');
    return state;
  } catch {
    return seed();
  }
}

/** A store seeded by an earlier version lacks read models added since: the service backfills them first (item_counts). */
async function backfilled(url) {
  for (let waited = 0; waited < 1_800_000; waited += 1000) {
    const status = await fetch(`${url}/admin/projections/rebuild`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    if (status.status === 404 || (await status.json()).state !== 'running') return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error('the backfill did not finish within 30 minutes');
}

/**
 * The offline rebuild leaves the typed tables to be built by the started service: measured only
 * once they have served for 3 s in a row (a store of an earlier layout serves its old tables until
 * the builder's first pass, a second after the start, marks them for a rebuild).
 */
async function typedTableServing(url) {
  let servingSince = null;
  for (let waited = 0; waited < 600_000; waited += 500) {
    const status = await (await fetch(`${url}/admin/projections`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json();
    const serving = status.contentTables?.tables.find((entry) => entry.contentType === 'Product')?.state === 'serving';
    servingSince = serving ? (servingSince ?? Date.now()) : null;
    if (servingSince !== null && Date.now() - servingSince >= 3000) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('the typed content table did not serve within 10 minutes');
}

/** The Product type's typed versions table, as the registry names it. */
async function versionsTable(databaseUrl) {
  const [{ versions }] = await sql(databaseUrl, "select doc->'serving'->>'versions' as versions from rm_content_tables where doc->>'contentType' = 'Product'");
  return versions;
}

const randomTime = () => new Date(WINDOW_START + random(WINDOW_END - WINDOW_START)).toISOString();
const asOf = (path) => `${path}?asOf=${encodeURIComponent(randomTime())}`;
const condition = (fieldKey, operator, value) => ({ type: 'condition', fieldKey, operator, value });

const SCENARIOS = [
  ['current list, random page of 20 + total (no asOf)', () => '/v2/contents/Product', () => ({ page: 1 + random(50), pageSize: 20 })],
  ['as-of list, page of 20 + total', () => asOf('/v2/contents/Product'), () => ({ pageSize: 20 })],
  ['as-of list, category filter + order by price + total', () => asOf('/v2/contents/Product'), () => ({ filter: condition('category', 'e', CATEGORIES[random(10)]), order: { fieldKey: 'price', sortDir: 'Desc' }, pageSize: 20 })],
  ['as-of ids, 100 + total', () => asOf('/v2/contents/Product/ids'), () => ({ pageSize: 100 })],
  ['as-of aggregate Count', () => asOf('/v2/contents/Product/aggregate'), () => ({ fieldKey: 'price', aggregateType: 'Count' })],
  ['as-of aggregategroup Avg price by category', () => asOf('/v2/contents/Product/aggregategroup'), () => ({ fieldKey: 'price', aggregateType: 'Avg', groupByFieldKey: 'category' })],
];

const state = await seeded();
// As autovacuum would after a bulk load or a rebuild: statistics and the visibility map that makes totals index-only.
await sql(state.databaseUrl, 'vacuum analyze rm_item_counts').catch(() => undefined);
// The query cache off: a random time is a miss anyway, and the current list's pages would not be.
const service = await startService({ ADMIN_TOKEN, ENCRYPTION_KEY, DATABASE_URL: state.databaseUrl, READ_CACHE: 'false' }, state.dataDir);
const rows = [];
try {
  await typedTableServing(service.url);
  await backfilled(service.url);
  await sql(state.databaseUrl, `vacuum analyze "rm_${await versionsTable(state.databaseUrl)}"`);
  const sample = await (await fetch(`${service.url}${asOf('/v2/contents/Product')}`, json(state.keys.readKey, {}))).json();
  if (typeof sample.total !== 'number') throw new Error(`as-of list: ${JSON.stringify(sample).slice(0, 300)}`);
  for (const [name, path, body] of SCENARIOS) {
    const figures = await load({
      url: `${service.url}${path()}`,
      duration,
      ...json(state.keys.readKey, body()),
      requests: [{ setupRequest: (request) => ({ ...request, path: path(), body: JSON.stringify(body()) }) }],
    });
    rows.push(`${row(name, figures)} ${loadavg()[0].toFixed(1)} |`);
  }
  const memory = await memoryMb(service.pid);
  rows.push(`| service memory | RSS ${memory.rss} MB, peak ${memory.peak} MB | | | | | |`);
} finally {
  await service.close();
}
const versions = `rm_${await versionsTable(state.databaseUrl)}`;
const [size] = await sql(state.databaseUrl, `select pg_size_pretty(pg_total_relation_size('"${versions}"')) as total, (select count(*) from "${versions}") as rows`);

console.log(`\n${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model} · node ${process.version} · 50 connections · ${duration} s each`);
console.log(`${itemCount} items, ${state.events} events (seeded in ${state.seededIn}) · versions table: ${size.rows} rows, ${size.total} with indexes · random asOf in ${new Date(WINDOW_START).toISOString()}..${new Date(WINDOW_END).toISOString()}\n`);
console.log(HEADER.replace('non-2xx/errors |', 'non-2xx/errors | load avg |').replace('|---|---|---|---|---|---|', '|---|---|---|---|---|---|---|'));
console.log(rows.join('\n'));
console.log(`\nthe seeded database is kept for another run: ${statePath} (drop database ${databaseName} when done)`);
