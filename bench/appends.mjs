// Event store appends without HTTP: concurrent writers create streams, then append to them
// with exact expectations, for a fixed time each, through PostgresEventStore's group commit.
// Isolates the store (the hash chain's cost) from the request path. PostgreSQL (DATABASE_URL).
// Besides the rates, it reports the CPU time spent per event by this process and by the database's
// backends (from /proc: the server must run on this machine), which a loaded machine disturbs
// far less than the rates: compare builds by those when the load average is high.
// Usage: npm run build && DATABASE_URL=postgres://... node bench/appends.mjs [seconds=8] [writers=64] [dist=./dist]
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freshDatabase } from './lib.mjs';

const seconds = Number(process.argv[2] ?? 8);
const writers = Number(process.argv[3] ?? 64);
const dist = resolve(process.argv[4] ?? './dist');
const { PostgresEventStore } = await import(pathToFileURL(`${dist}/infra/eventstore/postgres.js`).href);
const { PgSqlClient } = await import(pathToFileURL(`${dist}/infra/sql/pg-client.js`).href);

const event = (type, index) => ({
  type,
  data: { workspaceId: 'ws', itemId: `item-${index}`, contentType: 'Product', fields: { title: `Product ${index}`, price: index % 1000, category: `cat${index % 10}` }, translations: {} },
  metadata: { workspaceId: 'ws', actor: 'bench-key', correlationId: randomUUID(), timestamp: new Date().toISOString() },
});

/** CPU seconds used so far by this process and by the backends serving this database. */
async function cpuSeconds() {
  const pids = await sql.query(`select pid from pg_stat_activity where datname = current_database()`);
  let ticks = 0;
  for (const { pid } of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    // utime and stime, in clock ticks (100 a second), are fields 14 and 15; the name in field 2 ends with ')'.
    if (stat) ticks += stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 13).map(Number).reduce((a, b) => a + b, 0);
  }
  const own = process.cpuUsage();
  return { node: (own.user + own.system) / 1e6, database: ticks / 100 };
}

async function phase(work) {
  const deadline = Date.now() + seconds * 1000;
  const cpuBefore = await cpuSeconds();
  let events = 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      for (let n = 0; Date.now() < deadline; n++) {
        // Not `events += await ...`: that reads `events` before the await and loses the others' counts.
        const written = await work(writer, n);
        events += written;
      }
    }),
  );
  const cpuAfter = await cpuSeconds();
  const perEvent = (part) => Math.round(((cpuAfter[part] - cpuBefore[part]) / events) * 1e6);
  return { rate: Math.round(events / seconds), node: perEvent('node'), database: perEvent('database') };
}

const database = await freshDatabase(process.env.DATABASE_URL);
const sql = await PgSqlClient.open(database.url);
try {
  const store = await PostgresEventStore.create(sql);
  const streams = Array.from({ length: writers }, () => []);
  const creates = await phase(async (writer, n) => {
    const stream = `content-${writer}-${n}-${randomUUID()}`;
    await store.append(stream, [event('ContentDraftSaved', n), event('ContentPublished', n)], 'no_stream');
    streams[writer].push({ stream, revision: 1 });
    return 2;
  });
  const updates = await phase(async (writer, n) => {
    const mine = streams[writer];
    const target = mine[n % mine.length];
    const result = await store.append(target.stream, [event('ContentDraftSaved', n), event('ContentPublished', n)], target.revision);
    target.revision = result.revision;
    return 2;
  });
  await store.close();
  console.log(`${new Date().toISOString()} · ${cpus().length} × ${cpus()[0].model.split(' ').slice(0, 2).join(' ')} · ${writers} writers · ${seconds} s each · ${dist}`);
  const figures = (phase) => `${phase.rate} events/s, CPU µs/event node ${phase.node} + database ${phase.database} = ${phase.node + phase.database}`;
  console.log(`| creates (2 events) | ${figures(creates)} | updates (2 events) | ${figures(updates)} | load ${loadavg().map((l) => l.toFixed(2)).join(', ')} |`);
} finally {
  await sql.close();
  await database.drop();
}
