// Test data at scale through real events: writes an export file (the NDJSON of `cms export`)
// holding one workspace with a content type and N items, each saved as a draft, published and
// saved again (3 events an item), so that `cms import` loads them as any (unsigned) export
// written before the chain: the store chains them as it appends them.
//
// The events are not invented: a fresh embedded service is driven over HTTP to write one such
// item, the workspace is exported with the CLI, and that item's events are the template each
// generated item copies, with its own item id, event ids, correlation ids and field values.
// The workspace's data key goes to a key file of its own (`export --keys-out`), wrapped by the
// ENCRYPTION_KEY printed at the end (fixed, or taken from the environment): the import needs both.
//
// Usage: npm run build && node bench/seed-log.mjs <out.ndjson> [items=1000000]
//   SEED_SHAPE=queries: the Product type and items of bench/queries.mjs (bench/query-product.mjs)
//   instead of this file's own, for `BENCH_LOG=<out.ndjson> node bench/queries.mjs`.
//   then: DATA_DIR=... (or DATABASE_URL=...) npm run cms -- import <out.ndjson> --keys <out.ndjson>.datakey.ndjson
// The template workspace's API keys are written beside it (<out>.keys.json): they work on the
// imported store (bench/replay.mjs reads with them).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startService } from './lib.mjs';
import * as queryProduct from './query-product.mjs';

const out = process.argv[2];
const itemCount = Number(process.argv[3] ?? 1_000_000);
if (!out || !Number.isInteger(itemCount) || itemCount < 1) {
  console.error('usage: node bench/seed-log.mjs <out.ndjson> [items=1000000]');
  process.exit(2);
}
const ENCRYPTION_KEY = process.env.ENCRYPTION_KEY ?? Buffer.alloc(32, 7).toString('base64');
/** The workspace's data key, written apart from the events as `cms export --keys-out` does. */
const keyFile = `${out}.datakey.ndjson`;
const CATEGORIES = Array.from({ length: 10 }, (_, index) => `cat${index}`);

const ownProductType = {
  name: 'Product',
  key: 'Product',
  fields: [
    { key: 'title', type: 'Text', required: true },
    { key: 'price', type: 'Number' },
    { key: 'category', type: 'Text' },
    { key: 'rating', type: 'Number' },
  ],
};

/** With SEED_SHAPE=queries every saved version of item `index` holds queryProduct.product(index). */
const queriesShape = process.env.SEED_SHAPE === 'queries';
const productType = queriesShape ? queryProduct.productType : ownProductType;

// Placeholders the template's values carry, replaced per item in the event text.
const TITLE = 'seed-title-placeholder';
const CATEGORY = 'seed-category-placeholder';
const PRICE = 987654321;
const RATING = 123456789;

/** The template workspace's API keys: the import brings their hashes, so they open the imported store too. */
let keys;

/** The export of a workspace holding the content type and one template item: its lines, and the item's id. */
async function templateExport() {
  const environment = { ENCRYPTION_KEY };
  const service = await startService(environment);
  const dataDir = service.dataDir;
  try {
    let itemId;
    let workspaceId;
    keys = { readKey: service.readKey, writeKey: service.writeKey };
    try {
      const call = async (method, path, body) => {
        const response = await fetch(`${service.url}${path}`, {
          method,
          headers: { 'x-api-key': service.writeKey, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
        return response.json();
      };
      await call('PUT', '/content-types', productType);
      const fields = queriesShape ? queryProduct.product(0) : { title: TITLE, price: PRICE, category: CATEGORY, rating: 1 };
      ({ id: itemId } = await call('PUT', '/v2/preview-contents/Product', { fields }));
      await call('PUT', `/v2/preview-contents/Product/${itemId}/publish`, {});
      await call('PUT', '/v2/preview-contents/Product', { id: itemId, fields: queriesShape ? fields : { ...fields, rating: RATING } });
      workspaceId = await workspaceOf(service);
    } finally {
      await service.close();
    }
    const file = join(dataDir, 'template.ndjson');
    await promisify(execFile)(process.execPath, ['dist/src/cli.js', 'export', workspaceId, '--out', file, '--keys-out', keyFile], {
      env: { ...withoutStores(process.env), ...environment, DATA_DIR: dataDir },
    });
    return { lines: (await readFile(file, 'utf8')).trimEnd().split('\n').map((line) => JSON.parse(line)), itemId };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The workspace of the service's first key, from the admin API. */
async function workspaceOf(service) {
  const response = await fetch(`${service.url}/admin/workspaces`, { headers: { authorization: `Bearer bench-admin-token-0123456789` } });
  if (!response.ok) throw new Error(`GET /admin/workspaces: ${response.status}`);
  const body = await response.json();
  const workspaces = Array.isArray(body) ? body : (body.items ?? body.workspaces);
  return workspaces[0].id;
}

/** The environment without the variables that pick a store: the template lives in an embedded one. */
function withoutStores(environment) {
  const stores = ['DATABASE_URL', 'EVENT_STORE', 'READ_STORE', 'EVENTSTORE_URL', 'MONGODB_URL'];
  return Object.fromEntries(Object.entries(environment).filter(([name]) => !stores.includes(name)));
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function main() {
  const started = Date.now();
  const { lines, itemId } = await templateExport();
  const [header, ...rest] = lines;
  const events = rest.filter((line) => line.kind === 'event');
  const template = events.filter((event) => JSON.stringify(event).includes(itemId));
  const prefix = events.filter((event) => !template.includes(event));
  if (template.length === 0) throw new Error(`the template item ${itemId} has no events`);

  const output = createWriteStream(out);
  const write = (text) => (output.write(`${text}\n`) ? undefined : new Promise((resolve) => output.once('drain', resolve)));
  // Revisions are counted afresh: a stream shared by all items (if any) gets one revision per event.
  const revisions = new Map();
  // The generated events are new ones: the store chains them when they are imported (an export without chain hashes).
  const withRevision = ({ hash: _hash, ...event }) => {
    const revision = revisions.get(event.stream) ?? 0;
    revisions.set(event.stream, revision + 1);
    return { ...event, revision };
  };
  await write(JSON.stringify(header));
  for (const event of prefix) await write(JSON.stringify(withRevision(event)));

  // Per item, every id of the template (item, events, correlations) becomes a fresh one.
  const templateIds = [...new Set([itemId, ...template.flatMap((event) => [event.id, event.metadata.correlationId, event.metadata.causationId])])].filter(Boolean);
  const texts = template.map((event) => JSON.stringify(event));
  const pattern = new RegExp([...templateIds, TITLE, CATEGORY, String(PRICE), String(RATING)].map(escapeRegExp).join('|'), 'g');
  let written = prefix.length;
  for (let index = 0; index < itemCount; index++) {
    const values = new Map(templateIds.map((id) => [id, randomUUID()]));
    values.set(TITLE, `Product ${index}`);
    values.set(CATEGORY, CATEGORIES[index % CATEGORIES.length]);
    values.set(String(PRICE), String((index * 7919) % 1000));
    values.set(String(RATING), String(index % 5));
    for (const text of texts) {
      const event = JSON.parse(text.replace(pattern, (match) => values.get(match)));
      if (queriesShape && event.data?.fields) event.data.fields = queryProduct.product(index);
      await write(JSON.stringify(withRevision(event)));
      written++;
    }
    if (index % 100_000 === 0 && index > 0) process.stderr.write(`${index} items, ${written} events\n`);
  }
  await write(JSON.stringify({ kind: 'summary', events: written }));
  await new Promise((resolve, reject) => output.end((error) => (error ? reject(error) : resolve())));
  const seconds = (Date.now() - started) / 1000;
  console.log(`${out}: workspace ${header.workspaceId}, ${itemCount} items, ${written} events in ${seconds.toFixed(1)} s`);
  await writeFile(`${out}.keys.json`, JSON.stringify({ workspaceId: header.workspaceId, ...keys, encryptionKey: ENCRYPTION_KEY }, null, 2));
  console.log(`its API keys (valid once imported): ${out}.keys.json`);
  console.log(`import it with ENCRYPTION_KEY=${ENCRYPTION_KEY} npm run cms -- import ${out} --keys ${keyFile}`);
}

await main();
