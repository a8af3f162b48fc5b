// Event store appends without HTTP: concurrent writers create streams, then append to them
// with exact expectations, for a fixed time each, through PostgresEventStore's group commit.
// Isolates the store (the hash chain's cost) from the request path. PostgreSQL (DATABASE_URL).
// Usage: npm run build && DATABASE_URL=postgres://... node bench/appends.mjs [seconds=8] [writers=64] [dist=./dist]
import { randomUUID } from 'node:crypto';
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

async function phase(work) {
  const deadline = Date.now() + seconds * 1000;
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
  return Math.round(events / seconds);
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
  console.log(`| creates (2 events) | ${creates} events/s | updates (2 events) | ${updates} events/s | load ${loadavg().map((l) => l.toFixed(2)).join(', ')} |`);
} finally {
  await sql.close();
  await database.drop();
}
