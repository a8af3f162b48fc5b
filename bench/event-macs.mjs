// The cost of the events' MACs (issue 29): appends with and without them, A/B in one run
// (rounds interleaved, so that the machine's load falls on both alike), and `cms verify` over a
// log of EVENTS events that carry them, with the verify pass's MAC check timed apart.
// PostgreSQL (DATABASE_URL); the server should run on this machine for the CPU figures.
// Usage: npm run build && DATABASE_URL=postgres://... node bench/event-macs.mjs [events=50000] [rounds=4] [seconds=5] [writers=32]
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { freshDatabase } from './lib.mjs';

const total = Number(process.argv[2] ?? 50_000);
const rounds = Number(process.argv[3] ?? 4);
const seconds = Number(process.argv[4] ?? 5);
const writers = Number(process.argv[5] ?? 32);
const dist = resolve('./dist');
const load = async (path) => import(pathToFileURL(`${dist}/${path}.js`).href);
const { PostgresEventStore } = await load('infra/eventstore/postgres');
const { PgSqlClient } = await load('infra/sql/pg-client');
const { eventMacKey, eventMacValid } = await load('infra/eventstore/event-mac');
const { checkpointKey } = await load('infra/eventstore/chain-audit');
const { contentDigest, linkHash } = await load('infra/eventstore/chain');
const { runCli } = await load('src/cli/operator');

const masterKey = randomBytes(32);
const event = (type, index) => ({
  type,
  data: { workspaceId: 'ws', itemId: `item-${index}`, contentType: 'Product', fields: { title: `Product ${index}`, price: index % 1000, category: `cat${index % 10}` }, translations: {} },
  metadata: { workspaceId: 'ws', actor: 'key:bench', correlationId: randomUUID(), timestamp: new Date().toISOString() },
});

/** CPU seconds used so far by this process and by the backends serving this database. */
async function cpuSeconds(sql) {
  const pids = await sql.query(`select pid from pg_stat_activity where datname = current_database()`);
  let ticks = 0;
  for (const { pid } of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    if (stat) ticks += stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 13).map(Number).reduce((a, b) => a + b, 0);
  }
  const own = process.cpuUsage();
  return { node: (own.user + own.system) / 1e6, database: ticks / 100 };
}

/** WRITERS concurrent writers creating two-event streams for SECONDS: events/s and CPU µs per event. */
async function appendRound(store, sql) {
  const deadline = Date.now() + seconds * 1000;
  const before = await cpuSeconds(sql);
  let events = 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, writer) => {
      for (let n = 0; Date.now() < deadline; n++) {
        await store.append(`content-${writer}-${randomUUID()}`, [event('ContentDraftSaved', n), event('ContentPublished', n)], 'no_stream');
        events += 2;
      }
    }),
  );
  const after = await cpuSeconds(sql);
  return { rate: events / seconds, cpu: ((after.node - before.node + after.database - before.database) / events) * 1e6 };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const database = await freshDatabase(process.env.DATABASE_URL);
const dataDir = await mkdtemp(join(tmpdir(), 'cms-bench-macs-'));
const sql = await PgSqlClient.open(database.url);
try {
  const keyed = await PostgresEventStore.create(sql, { checkpointKey: checkpointKey(masterKey), macKey: eventMacKey(masterKey) });
  const unkeyed = await PostgresEventStore.create(sql);
  const results = { without: [], with: [] };
  for (let round = 0; round < rounds; round++) {
    results.without.push(await appendRound(unkeyed, sql));
    results.with.push(await appendRound(keyed, sql));
  }
  await unkeyed.close();
  await keyed.close();
  console.log(`appends, ${writers} writers, ${rounds} interleaved rounds of ${seconds} s each; load ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  for (const [label, runs] of Object.entries(results)) {
    console.log(`  ${label.padEnd(7)} MACs: median ${Math.round(median(runs.map((run) => run.rate)))} events/s (${runs.map((run) => Math.round(run.rate)).join(', ')}), CPU ${Math.round(median(runs.map((run) => run.cpu)))} µs/event`);
  }
  const rate = median(results.with.map((run) => run.rate)) / median(results.without.map((run) => run.rate));
  const cpu = median(results.with.map((run) => run.cpu)) / median(results.without.map((run) => run.cpu));
  console.log(`  with/without: throughput ${(rate * 100).toFixed(1)}%, CPU per event ${(cpu * 100).toFixed(1)}%`);

  // A log of `total` events that all carry MACs, then verify over it.
  const fresh = await freshDatabase(process.env.DATABASE_URL);
  const logSql = await PgSqlClient.open(fresh.url);
  try {
    const store = await PostgresEventStore.create(logSql, { checkpointKey: checkpointKey(masterKey), macKey: eventMacKey(masterKey) });
    for (let written = 0; written < total; written += 500) {
      const requests = Array.from({ length: 250 }, (_, index) => ({ stream: `content-seed-${written + index * 2}`, events: [event('ContentDraftSaved', written + index), event('ContentPublished', written + index)], expectedRevision: 'no_stream' }));
      await store.appendMany(requests);
    }
    await store.audit.writeCheckpoint('periodic', checkpointKey(masterKey));

    // The verify pass's per-event work, apart: the content digest and the link, then the MAC besides.
    const events = [];
    for (let after; ; ) {
      const page = await store.readAll({ after, maxCount: 5000 });
      if (page.length === 0) break;
      events.push(...page);
      after = page.at(-1).position;
    }
    const macKey = eventMacKey(masterKey);
    const time = (work) => {
      const started = process.hrtime.bigint();
      for (const recorded of events) work(recorded);
      return Number(process.hrtime.bigint() - started) / 1e9;
    };
    // Interleaved three times, medians taken: the machine's load moves between passes.
    const passes = { chainOnly: [], withMac: [] };
    for (let pass = 0; pass < 3; pass++) {
      passes.chainOnly.push(time((recorded) => linkHash(null, recorded.revision, contentDigest(recorded))));
      passes.withMac.push(
        time((recorded) => {
          const content = contentDigest(recorded);
          linkHash(null, recorded.revision, content);
          if (!eventMacValid(macKey, content, recorded.mac)) throw new Error('a MAC failed');
        }),
      );
    }
    const [chainOnly, withMac] = [median(passes.chainOnly), median(passes.withMac)];
    console.log(`verify pass over ${events.length} events: chain ${Math.round(events.length / chainOnly)} events/s, chain + MAC ${Math.round(events.length / withMac)} events/s (MAC ${(((withMac - chainOnly) / events.length) * 1e6).toFixed(2)} µs/event)`);
    await store.close();

    const lines = [];
    const started = Date.now();
    await runCli(['verify'], { DATABASE_URL: fresh.url, ENCRYPTION_KEY: masterKey.toString('base64'), DATA_DIR: dataDir, ADMIN_TOKEN: 'bench-admin-token-0123456789' }, { log: (line) => lines.push(line), progress: new Writable({ write: (_chunk, _encoding, done) => done() }) }).catch(() => undefined);
    const elapsed = (Date.now() - started) / 1000;
    console.log(`cms verify over ${total} events: ${elapsed.toFixed(2)} s, ${Math.round(total / elapsed)} events/s end to end (opening the stores included)`);
    for (const line of lines.filter((line) => /^(macs|chain|problem: (?!read model))/.test(line))) console.log(`  ${line}`);
  } finally {
    await logSql.close();
    await fresh.drop();
  }
} finally {
  await sql.close();
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
}
