// How long one event-log checkpoint takes on an embedded store (on PGlite its transaction holds
// the whole engine for that time). Opens the store's engine directly: run it on a copy of a
// store no service holds (cp -r DATA_DIR /tmp/copy), never on a live one; it signs unkeyed
// checkpoints into that copy. A first checkpoint covers what was appended since the last one,
// then `rounds` more are timed.
// Usage: npm run build && node bench/checkpoint-time.mjs <dist dir> <DATA_DIR copy>/pglite [rounds]
// (<dist dir>: this checkout's dist, or an earlier commit's built in a worktree, for an A/B.)
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';

const [dist, dataDir, rounds = '4'] = process.argv.slice(2);
const { PgliteSqlClient } = await import(pathToFileURL(`${dist}/infra/sql/pglite-client.js`).href);
const { PostgresEventStore } = await import(pathToFileURL(`${dist}/infra/eventstore/postgres.js`).href);
const sql = await PgliteSqlClient.open(dataDir);
const store = await PostgresEventStore.create(sql);
await store.audit.writeCheckpoint('periodic', null);
const times = [];
for (let round = 0; round < Number(rounds); round++) {
  const startedAt = performance.now();
  await store.audit.writeCheckpoint('periodic', null);
  times.push(Math.round(performance.now() - startedAt));
}
console.log(`${dist}: checkpoint ms ${times.join(' ')}`);
await sql.close();
