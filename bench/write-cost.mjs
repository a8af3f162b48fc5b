// What one content write (save + publish, `PUT /v2/contents/Product`) costs the read store on
// PostgreSQL: rows inserted, updated and deleted in the read-model tables (rm_*) and the
// checkpoints, and index entries written (each insert or non-HOT update of a row adds one entry
// to every index of its table), from pg_stat_user_tables after WRITES updates of seeded items
// and WRITES creates. The event log's own tables (es_*) are counted apart.
// Usage: npm run build && DATABASE_URL=postgres://... node bench/write-cost.mjs [writes=300]
// BY_TABLE=1 also prints each read-store table's share (to stderr); BY_STATEMENT=1 the statements
// sent per write, by their first words. INSTANCES=3 runs two more
// instances on the same database (the writes still go to the first): what scaling out costs the store.
// The statements column counts every statement the first instance sent (bench/statement-counter.cjs),
// background work during the measure included, per write.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freshDatabase, startService } from './lib.mjs';
import { product, productType } from './product.mjs';

const writes = Number(process.argv[2] ?? 300);
if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set');

async function call(url, method, path, key, body) {
  const response = await fetch(`${url}${path}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** Rows written and index entries added per table, since the last reset. */
async function tableWrites(client) {
  const { rows } = await client.query(`
    select t.relname as name, t.n_tup_ins + t.n_tup_upd + t.n_tup_del as rows,
           (t.n_tup_ins + t.n_tup_upd - t.n_tup_hot_upd) * (select count(*) from pg_index i where i.indrelid = t.relid) as entries
    from pg_stat_user_tables t`);
  return rows.map((row) => ({ name: row.name, rows: Number(row.rows), entries: Number(row.entries) }));
}

/**
 * Waits until no table's counters moved for 11 s: the projections have written what the writes
 * caused, and every idle connection has reported its counts (PostgreSQL holds them up to 10 s).
 * A fixed 2 s pause let a loaded machine's late batches fall into the next window.
 */
async function settled(client) {
  let last = '';
  for (let stable = 0; stable < 11; ) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = JSON.stringify(await tableWrites(client));
    stable = now === last ? stable + 1 : 0;
    last = now;
  }
}

const database = await freshDatabase(process.env.DATABASE_URL);
// Instances of one store share one key (an instance with a key of its own refuses to start).
const ENCRYPTION_KEY = randomBytes(32).toString('base64');
const countsFile = join(tmpdir(), `statement-counts-${process.pid}.json`);
const service = await startService({ DATABASE_URL: database.url, ENCRYPTION_KEY, STATEMENT_COUNTS_FILE: countsFile }, undefined, [
  '--require',
  join(import.meta.dirname, 'statement-counter.cjs'),
]);
/** Statements the first instance sent so far, by their first words (bench/statement-counter.cjs). */
const statementsSent = async () => {
  process.kill(service.pid, 'SIGUSR2');
  await new Promise((resolve) => setTimeout(resolve, 200));
  return new Map(Object.entries(JSON.parse(await readFile(countsFile, 'utf8'))));
};
const sumOf = (counts) => [...counts.values()].reduce((total, count) => total + count, 0);
const others = [];
for (let index = 1; index < Number(process.env.INSTANCES ?? 1); index++) {
  others.push(await startService({ DATABASE_URL: database.url, ENCRYPTION_KEY }, await mkdtemp(join(tmpdir(), 'cms-bench-'))));
}
const client = new pg.Client({ connectionString: database.url });
try {
  await client.connect();
  await call(service.url, 'PUT', '/content-types', service.writeKey, productType);
  const ids = [];
  for (let index = 0; index < writes; index++) ids.push((await call(service.url, 'PUT', '/v2/contents/Product', service.writeKey, { fields: product(index) })).id);
  // Let the typed table be built and the statistics of the seeding settle.
  await new Promise((resolve) => setTimeout(resolve, 5000));
  await settled(client);
  const measure = async (label, write) => {
    await client.query('select pg_stat_reset()');
    const sentBefore = await statementsSent();
    for (let index = 0; index < writes; index++) await write(index);
    await settled(client);
    const sentAfter = await statementsSent();
    const sent = sumOf(sentAfter) - sumOf(sentBefore);
    const tables = await tableWrites(client);
    const sum = (filter, field) => tables.filter(filter).reduce((total, table) => total + table[field], 0);
    const readStore = (table) => table.name.startsWith('rm_') || table.name === 'readstore_checkpoints';
    const log = (table) => table.name.startsWith('es_');
    const checkpoints = tables.find((table) => table.name === 'readstore_checkpoints')?.rows ?? 0;
    const perWrite = (value) => (value / writes).toFixed(1);
    console.log(`| ${label} | ${perWrite(sum(readStore, 'rows'))} | ${perWrite(checkpoints)} | ${perWrite(sum(readStore, 'entries'))} | ${perWrite(sum(log, 'rows'))} | ${perWrite(sent)} |`);
    if (process.env.BY_STATEMENT) {
      const sentEach = [...sentAfter].map(([text, count]) => [text, count - (sentBefore.get(text) ?? 0)]).filter(([, count]) => count > 0);
      for (const [text, count] of sentEach.sort((a, b) => b[1] - a[1])) console.error(`  ${label}: ${perWrite(count)} × ${text}`);
    }
    if (process.env.BY_TABLE) {
      for (const table of tables.filter((candidate) => readStore(candidate) && candidate.rows > 0).sort((a, b) => b.rows - a.rows)) {
        console.error(`  ${label}: ${table.name} ${perWrite(table.rows)} rows, ${perWrite(table.entries)} entries`);
      }
    }
  };
  console.log('| write (save + publish) | read-store rows per write | of them checkpoints | read-store index entries per write | event-log rows per write | statements sent per write |');
  console.log('|---|---|---|---|---|---|');
  await measure('update of an existing item', (index) => call(service.url, 'PUT', '/v2/contents/Product', service.writeKey, { id: ids[index], fields: product(index + 1) }));
  await measure('create', (index) => call(service.url, 'PUT', '/v2/contents/Product', service.writeKey, { fields: product(writes + index) }));
} finally {
  await client.end();
  for (const other of others) await other.close();
  await service.close();
  await database.drop();
}
