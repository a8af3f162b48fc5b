// `cms verify` throughput over a log of EVENTS events that carry MACs (issue 29's goal: 50,000
// events/s), A/B between this checkout's build and another's (BASE_DIST, e.g. main's), on one
// seeded database, runs alternated so that the machine's load falls on both alike. Each run is a
// child process `node <dist>/src/cli.js verify`; the figures are its wall time (start included) and CPU time (GNU time).
// Usage: npm run build && DATABASE_URL=postgres://... [BASE_DIST=/path/to/dist] node bench/verify-rate.mjs [events=50000] [runs=3]
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freshDatabase } from './lib.mjs';

const total = Number(process.argv[2] ?? 50_000);
const runs = Number(process.argv[3] ?? 3);
const dist = resolve('./dist');
const builds = { this: dist, ...(process.env.BASE_DIST ? { base: resolve(process.env.BASE_DIST) } : {}) };
const load = async (path) => import(pathToFileURL(`${dist}/${path}.js`).href);
const { PostgresEventStore } = await load('infra/eventstore/postgres');
const { PgSqlClient } = await load('infra/sql/pg-client');
const { eventMacKey } = await load('infra/eventstore/event-mac');
const { checkpointKey } = await load('infra/eventstore/chain-audit');

const masterKey = randomBytes(32);
const event = (type, index) => ({
  type,
  data: { workspaceId: 'ws', itemId: `item-${index}`, contentType: 'Product', fields: { title: `Product ${index}`, price: index % 1000, category: `cat${index % 10}` }, translations: {} },
  metadata: { workspaceId: 'ws', actor: 'key:bench', correlationId: randomUUID(), timestamp: new Date().toISOString() },
});

/** One `cms verify` of `build` in a child process: seconds of wall time, and its output's last line. */
function verify(build, env) {
  return new Promise((done, fail) => {
    const started = process.hrtime.bigint();
    // GNU time's last line: the child's CPU seconds (user, system), which the machine's load disturbs less than its wall time.
    const args = ['-f', 'cpu %U %S', process.execPath, ...(process.env.VERIFY_NODE_ARGS ?? '').split(' ').filter(Boolean), join(build, 'src/cli.js'), 'verify'];
    const child = spawn('/usr/bin/time', args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', fail);
    child.on('exit', (code) => {
      const lines = out.trim().split('\n');
      const [, user, system] = lines.findLast((line) => line.startsWith('cpu ')).split(' ').map(Number);
      done({ seconds: Number(process.hrtime.bigint() - started) / 1e9, cpu: user + system, code, last: lines.findLast((line) => line.startsWith('verify')) ?? '' });
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const database = await freshDatabase(process.env.DATABASE_URL);
const dataDir = await mkdtemp(join(tmpdir(), 'cms-bench-verify-'));
const sql = await PgSqlClient.open(database.url);
try {
  const store = await PostgresEventStore.create(sql, { checkpointKey: checkpointKey(masterKey), macKey: eventMacKey(masterKey) });
  for (let written = 0; written < total; written += 500) {
    const requests = Array.from({ length: 250 }, (_, index) => ({ stream: `content-seed-${written + index * 2}`, events: [event('ContentDraftSaved', written + index), event('ContentPublished', written + index)], expectedRevision: 'no_stream' }));
    await store.appendMany(requests);
  }
  await store.audit.writeCheckpoint('periodic', checkpointKey(masterKey));
  await store.close();
  const env = { DATABASE_URL: database.url, ENCRYPTION_KEY: masterKey.toString('base64'), DATA_DIR: dataDir, ADMIN_TOKEN: 'bench-admin-token-0123456789', LOG_LEVEL: 'error' };
  const times = Object.fromEntries(Object.keys(builds).map((name) => [name, []]));
  const cpu = Object.fromEntries(Object.keys(builds).map((name) => [name, []]));
  for (let run = 0; run < runs; run++) {
    for (const [name, build] of Object.entries(builds)) {
      const result = await verify(build, env);
      times[name].push(result.seconds);
      cpu[name].push(result.cpu);
      console.log(`run ${run + 1} ${name.padEnd(4)}: ${result.seconds.toFixed(2)} s, ${Math.round(total / result.seconds)} events/s, CPU ${result.cpu.toFixed(2)} s (exit ${result.code}: ${result.last.slice(0, 100)})`);
    }
  }
  console.log(`cms verify over ${total} events, ${runs} alternated runs; load ${loadavg().map((l) => l.toFixed(2)).join(', ')}`);
  for (const [name, seconds] of Object.entries(times)) console.log(`  ${name.padEnd(4)}: median ${median(seconds).toFixed(2)} s, ${Math.round(total / median(seconds))} events/s (${seconds.map((s) => s.toFixed(2)).join(', ')}); CPU median ${median(cpu[name]).toFixed(2)} s`);
  if (times.base) console.log(`  this/base: ${(median(times.base) / median(times.this)).toFixed(2)}x the rate, ${(median(cpu.this) / median(cpu.base)).toFixed(2)}x the CPU`);
} finally {
  await sql.close();
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
}
