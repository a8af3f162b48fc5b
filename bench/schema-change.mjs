// A schema change on a populated type (issue 13): imports a log written by bench/seed-log.mjs
// into a fresh store, starts the service, waits for the Product type's typed table to serve,
// measures list queries (a new random filter value on every request), then changes the type's
// fields while the same queries run, and reports how long until the new table serves and the
// queries' p99 meanwhile. `add` adds a Number field (the old table keeps serving); `retype`
// retypes the Number field `rating` to Text (queries read content_items until the switch).
// PostgreSQL when DATABASE_URL is set (a fresh database is created on that server), else embedded.
// Usage: npm run build && node bench/seed-log.mjs /tmp/log.ndjson 100000
//        && DATABASE_URL=postgres://... node bench/schema-change.mjs /tmp/log.ndjson [add|retype] [read-seconds=10] [connections=50]
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { ADMIN_TOKEN, freshDatabase, load, memoryMb, startService } from './lib.mjs';

const file = process.argv[2];
const change = process.argv[3] ?? 'add';
const readSeconds = Number(process.argv[4] ?? 10);
/** Connections querying during the build; 0 measures the build alone. */
const connections = Number(process.argv[5] ?? 50);
if (!file || !['add', 'retype'].includes(change)) {
  console.error('usage: node bench/schema-change.mjs <log.ndjson> [add|retype] [read-seconds=10] [connections=50]');
  process.exit(2);
}
const keys = JSON.parse(await readFile(`${file}.keys.json`, 'utf8'));
const serverUrl = process.env.DATABASE_URL;
const database = serverUrl ? await freshDatabase(serverUrl) : null;
const dataDir = await mkdtemp(join(tmpdir(), 'cms-schema-change-'));
const environment = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !['DATABASE_URL', 'EVENT_STORE', 'READ_STORE'].includes(name))),
  DATA_DIR: dataDir,
  ADMIN_TOKEN,
  ENCRYPTION_KEY: keys.encryptionKey,
  READ_CACHE: 'false',
  ...(database ? { DATABASE_URL: database.url } : {}),
};
const cli = async (...args) => (await promisify(execFile)(process.execPath, ['dist/src/cli.js', ...args], { env: environment, maxBuffer: 64 * 1024 * 1024 })).stdout.trim();
const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The fields bench/seed-log.mjs gives the Product type, changed as asked. */
const FIELDS = [
  { key: 'title', type: 'Text', required: true },
  { key: 'price', type: 'Number' },
  { key: 'category', type: 'Text' },
  { key: 'rating', type: 'Number' },
];
const changedFields = change === 'add' ? [...FIELDS, { key: 'stock', type: 'Number' }] : FIELDS.map((field) => (field.key === 'rating' ? { ...field, type: 'Text' } : field));

async function productTable(url) {
  const status = await (await fetch(`${url}/admin/projections`, { headers: admin })).json();
  return status.contentTables?.tables.find((entry) => entry.contentType === 'Product');
}

async function waitUntilServing(url, notTable) {
  for (;;) {
    const table = await productTable(url);
    if (table?.state === 'serving' && table.servingTable !== notTable) return table.servingTable;
    await sleep(100);
  }
}

const random = (below) => Math.floor(Math.random() * below);
const condition = (fieldKey, operator, value) => ({ type: 'condition', fieldKey, operator, value });
/** Equality on category with a price range, sorted by price: fields the change leaves alone. */
const query = () => {
  const low = random(900);
  return JSON.stringify({
    filter: { type: 'and', conditions: [condition('category', 'e', `cat${random(10)}`), condition('price', 'gte', low), condition('price', 'lt', low + 100)] },
    order: { fieldKey: 'price', sortDir: 'Desc' },
    pageSize: 20,
  });
};

try {
  console.log(await cli('import', file, '--keys', `${file}.datakey.ndjson`));
  const service = await startService(environment, dataDir);
  try {
    const before = await waitUntilServing(service.url, null);
    const reads = {
      url: `${service.url}/v2/contents/Product`,
      method: 'POST',
      headers: { 'x-api-key': keys.readKey, 'content-type': 'application/json' },
      requests: [{ setupRequest: (request) => ({ ...request, body: query() }) }],
    };
    const quiet = await load({ ...reads, duration: readSeconds });
    console.log(`queries before the change: ${quiet.requestsPerSecond} req/s, p50 ${quiet.p50} ms, p99 ${quiet.p99} ms, ${quiet.failed} failed (load ${loadavg()[0].toFixed(1)})`);

    let seconds = 0;
    const changeFields = async () => {
      const started = Date.now();
      const put = await fetch(`${service.url}/content-types`, {
        method: 'PUT',
        headers: { 'x-api-key': keys.writeKey, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Product', key: 'Product', fields: changedFields }),
      });
      if (!put.ok) throw new Error(`content type change: ${put.status} ${await put.text()}`);
      await waitUntilServing(service.url, before);
      seconds = (Date.now() - started) / 1000;
    };
    if (connections === 0) {
      await changeFields();
      console.log(`schema change (${change}), no queries meanwhile: the new table serves after ${seconds.toFixed(1)} s`);
    } else {
      const during = await new Promise((resolve, reject) => {
        const instance = autocannon({ ...reads, connections, duration: 3600 }, (error, result) => (error ? reject(error) : resolve(result)));
        changeFields().then(
          () => instance.stop(),
          (error) => {
            instance.stop();
            reject(error);
          },
        );
      });
      const failed = during.non2xx + during.errors + during.timeouts;
      console.log(`schema change (${change}), ${connections} connections querying: the new table serves after ${seconds.toFixed(1)} s`);
      console.log(`queries during the build: ${Math.round(during.requests.average)} req/s, p50 ${during.latency.p50} ms, p99 ${during.latency.p99} ms, ${failed} failed (load ${loadavg()[0].toFixed(1)})`);
    }
    const memory = await memoryMb(service.pid);
    console.log(`service memory: RSS ${memory.rss} MB, peak ${memory.peak} MB`);
  } finally {
    await service.close();
  }
} finally {
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
}
