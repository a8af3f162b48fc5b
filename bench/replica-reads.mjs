// Content queries with and without a read replica (issue 30: "reads on the replica keep within 80% of
// the single-node figure"). Seeds N items on a fresh database through the API, then alternates the
// built service on that database without replicas and with the streaming standby as its read replica
// (scripts/standby.sh), each round running the same query loads with a new random value per request
// and the query cache off, so every request reaches a store. Scans of the read-model tables on the
// primary during each load show where the queries ran.
// Usage: npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres \
//   REPLICA_DATABASE_URL=$(scripts/standby.sh) node bench/replica-reads.mjs [items=10000] [seconds=10] [rounds=2]
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import pg from 'pg';
import { freshDatabase, load, startService } from './lib.mjs';
import { product, productType } from './product.mjs';

const itemCount = Number(process.argv[2] ?? 10_000);
const duration = Number(process.argv[3] ?? 10);
const rounds = Number(process.argv[4] ?? 2);
if (!process.env.DATABASE_URL || !process.env.REPLICA_DATABASE_URL) throw new Error('DATABASE_URL and REPLICA_DATABASE_URL (scripts/standby.sh) must be set');

const json = (key, body) => ({ headers: { 'x-api-key': key, 'content-type': 'application/json' }, method: 'POST', body: JSON.stringify(body) });
const onServer = (serverUrl, databaseUrl) => {
  const url = new URL(serverUrl);
  url.pathname = new URL(databaseUrl).pathname;
  return url.toString();
};

async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Sequential and index scans of the read-model tables so far (counted when a backend reports, at its transaction's end). */
const readModelScans = (url) =>
  withClient(url, async (client) => {
    await client.query('select pg_stat_clear_snapshot()');
    const { rows } = await client.query(`select coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0)::text as scans from pg_stat_user_tables where relname like 'rm\\_%' or relname like 'ct\\_%'`);
    return Number(rows[0].scans);
  });

const database = await freshDatabase(process.env.DATABASE_URL);
const replicaUrl = onServer(process.env.REPLICA_DATABASE_URL, database.url);
// One workspace sends all 50 connections' queries: its share of costly reads (READS_PER_WORKSPACE, 2 on 2 cores,
// then a queue of 20) would answer most of them 503, and the figures would be the gate's.
const environment = { DATABASE_URL: database.url, ENCRYPTION_KEY: randomBytes(32).toString('base64'), QUERY_CACHE: 'false', READS_PER_WORKSPACE: '8', READ_QUEUE_PER_WORKSPACE: '64' };
const results = [];
try {
  const seeder = await startService(environment);
  const keys = { readKey: seeder.readKey, writeKey: seeder.writeKey };
  const dataDir = seeder.dataDir;
  try {
    const put = await fetch(`${seeder.url}/content-types`, { ...json(keys.writeKey, productType), method: 'PUT' });
    if (!put.ok) throw new Error(`content type: ${put.status}`);
    let seeded = 0;
    await load({
      url: `${seeder.url}/v2/contents/Product`,
      method: 'PUT',
      headers: { 'x-api-key': keys.writeKey, 'content-type': 'application/json' },
      amount: itemCount,
      requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ fields: product(seeded++) }) }) }],
    });
  } finally {
    await seeder.close();
  }
  // The standby serves the new database once it has replayed it.
  for (let waited = 0; !(await withClient(replicaUrl, async (client) => (await client.query('select count(*)::int as n from pg_tables')).rows[0].n > 0).catch(() => false)); waited += 200) {
    if (waited > 30_000) throw new Error('the standby does not serve the database');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const randomPrice = () => Math.floor(Math.random() * 1000);
  const page = (price) => ({
    filter: { type: 'and', conditions: [{ type: 'condition', fieldKey: 'category', operator: 'e', value: `cat${price % 10}` }, { type: 'condition', fieldKey: 'price', operator: 'gt', value: price }] },
    order: [{ fieldKey: 'price', sortDir: 'Desc' }],
    pageSize: 20,
  });
  const ids = (price) => ({ filter: { type: 'condition', fieldKey: 'price', operator: 'gt', value: price }, pageSize: 100 });
  const groups = (price) => ({ fieldKey: 'price', aggregateType: 'Avg', groupByFieldKey: 'category', filter: { type: 'condition', fieldKey: 'price', operator: 'gt', value: price } });
  const byTitle = (price) => ({ filter: { type: 'condition', fieldKey: 'title', operator: 'e', value: `Product ${price * 7}` }, pageSize: 1 });
  const scenarios = [
    ['filtered + sorted page', '/v2/contents/Product', page],
    ['ids', '/v2/contents/Product/ids', ids],
    ['aggregategroup', '/v2/contents/Product/aggregategroup', groups],
    ['one item by title', '/v2/contents/Product', byTitle],
  ];

  for (let round = 1; round <= rounds; round++) {
    const setups = [
      ['single node', {}],
      ['read replica', { READ_REPLICA_URLS: replicaUrl }],
    ];
    // Alternated: each setup goes first in every other round, so neither always follows the other.
    for (const [setup, extra] of round % 2 === 1 ? setups : setups.reverse()) {
      // Counted around the service's life: a backend reports its scans when it goes idle or closes, not at once.
      const primaryBefore = await readModelScans(database.url);
      const service = await startService({ ...environment, ...extra }, dataDir);
      const measured = [];
      try {
        if (extra.READ_REPLICA_URLS) {
          for (let waited = 0; ; waited += 200) {
            const ready = await (await fetch(`${service.url}/health/ready`)).json();
            if (ready.details?.readReplicas?.every((replica) => replica.inRotation)) break;
            if (waited > 30_000) throw new Error(`the replica is not in rotation: ${JSON.stringify(ready.details?.readReplicas)}`);
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        }
        for (const [name, path, body] of scenarios) {
          const figures = await load({
            url: `${service.url}${path}`,
            duration,
            ...json(keys.readKey, body(500)),
            requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(body(randomPrice())) }) }],
          });
          measured.push({ round, setup, name, ...figures });
        }
      } finally {
        await service.close();
      }
      const primaryScans = (await readModelScans(database.url)) - primaryBefore;
      results.push(...measured.map((figures) => ({ ...figures, primaryScans })));
    }
  }
} finally {
  await database.drop();
}

console.log(`\n${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model} · node ${process.version} · 50 connections · ${duration} s each · ${itemCount} items · query cache off\n`);
console.log('| round | setup | query (new random value per request) | req/s | p50 ms | p99 ms | non-2xx/errors | read-model scans on the primary (the whole round) |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of results) console.log(`| ${r.round} | ${r.setup} | ${r.name} | ${r.requestsPerSecond} | ${r.p50} | ${r.p99} | ${r.failed} | ${r.primaryScans} |`);
console.log('\n| query | replica req/s ÷ single-node req/s, per round |');
console.log('|---|---|');
for (const name of new Set(results.map((r) => r.name))) {
  const ratios = [];
  for (let round = 1; round <= rounds; round++) {
    const single = results.find((r) => r.round === round && r.name === name && r.setup === 'single node');
    const replica = results.find((r) => r.round === round && r.name === name && r.setup === 'read replica');
    ratios.push(`${((100 * replica.requestsPerSecond) / single.requestsPerSecond).toFixed(0)}%`);
  }
  console.log(`| ${name} | ${ratios.join(', ')} |`);
}
