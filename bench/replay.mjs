// Replay and import at scale (issues 13 and 16): imports a log written by bench/seed-log.mjs
// into a fresh store, rebuilds every read model offline (`cms projections rebuild`), then
// starts the service on it and rebuilds online through the admin API while reads by id run,
// and reports the reads' p99 before and during the rebuild.
// PostgreSQL when DATABASE_URL is set (a fresh database is created on that server), else embedded.
// Usage: npm run build && node bench/seed-log.mjs /tmp/log.ndjson 83334
//        && DATABASE_URL=postgres://... node bench/replay.mjs /tmp/log.ndjson [read-seconds=10]
// BENCH_PROJECTIONS=a,b: rebuild only those read models (with their sources), as a new read view
// would be built. BENCH_REUSE=<data dir>: the log is already imported there (and, with
// DATABASE_URL, in that database, which is kept): no import, no offline rebuild, only the online one.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { ADMIN_TOKEN, freshDatabase, load, startService } from './lib.mjs';

const file = process.argv[2];
const readSeconds = Number(process.argv[3] ?? 10);
if (!file) {
  console.error('usage: node bench/replay.mjs <log.ndjson> [read-seconds=10]');
  process.exit(2);
}
const keys = JSON.parse(await readFile(`${file}.keys.json`, 'utf8'));
const serverUrl = process.env.DATABASE_URL;
const reused = process.env.BENCH_REUSE;
const projections = (process.env.BENCH_PROJECTIONS ?? '').split(',').filter(Boolean);
const database = serverUrl ? (reused ? { url: serverUrl, drop: async () => undefined } : await freshDatabase(serverUrl)) : null;
const dataDir = reused ?? (await mkdtemp(join(tmpdir(), 'cms-replay-')));
const environment = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !['DATABASE_URL', 'EVENT_STORE', 'READ_STORE'].includes(name))),
  DATA_DIR: dataDir,
  ADMIN_TOKEN,
  ENCRYPTION_KEY: keys.encryptionKey,
  ...(database ? { DATABASE_URL: database.url } : {}),
};
const cli = async (...args) => (await promisify(execFile)(process.execPath, ['dist/src/cli.js', ...args], { env: environment, maxBuffer: 64 * 1024 * 1024 })).stdout.trim();
const rate = (line) => /\(([\d,]+) events\/s\)/.exec(line)?.[1] ?? '?';

try {
  const imported = reused ? null : await cli('import', file, '--keys', `${file}.datakey.ndjson`);
  if (imported) console.log(imported);
  const offline = reused ? null : await cli('projections', 'rebuild', ...projections);
  if (offline) console.log(offline);

  const service = await startService(environment, dataDir);
  try {
    const ids = await (
      await fetch(`${service.url}/v2/contents/Product/ids`, {
        method: 'POST',
        headers: { 'x-api-key': keys.readKey, 'content-type': 'application/json' },
        body: JSON.stringify({ pageSize: 1000 }),
      })
    ).json();
    const itemIds = ids.ids;
    if (!Array.isArray(itemIds) || itemIds.length === 0) throw new Error(`no item ids: ${JSON.stringify(ids).slice(0, 200)}`);
    let next = 0;
    const reads = {
      url: service.url,
      connections: 10,
      headers: { 'x-api-key': keys.readKey },
      requests: [{ setupRequest: (request) => ({ ...request, path: `/v2/contents/Product/${itemIds[next++ % itemIds.length]}` }) }],
    };
    const quiet = await load({ ...reads, duration: readSeconds });
    console.log(`reads without a rebuild: ${quiet.requestsPerSecond} req/s, p50 ${quiet.p50} ms, p99 ${quiet.p99} ms, ${quiet.failed} failed`);

    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const during = await new Promise((resolve, reject) => {
      const instance = autocannon({ ...reads, duration: 3600 }, (error, result) => (error ? reject(error) : resolve(result)));
      void (async () => {
        const started = await fetch(`${service.url}/admin/projections/rebuild`, { method: 'POST', headers: admin, body: JSON.stringify(projections.length > 0 ? { projections } : {}) });
        if (started.status !== 202) throw new Error(`rebuild: ${started.status} ${await started.text()}`);
        for (;;) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          const status = await (await fetch(`${service.url}/admin/projections/rebuild`, { headers: admin })).json();
          if (status.state !== 'running') {
            const seconds = (Date.parse(status.finishedAt) - Date.parse(status.startedAt)) / 1000;
            console.log(`online rebuild: ${status.state}, ${status.eventsProcessed} events in ${seconds.toFixed(1)} s (${Math.round(status.eventsProcessed / seconds)} events/s)`);
            instance.stop();
            return;
          }
        }
      })().catch((error) => {
        instance.stop();
        reject(error);
      });
    });
    const failed = during.non2xx + during.errors + during.timeouts;
    console.log(`reads during the rebuild: ${Math.round(during.requests.average)} req/s, p50 ${during.latency.p50} ms, p99 ${during.latency.p99} ms, ${failed} failed`);
  } finally {
    await service.close();
  }
  if (!reused) console.log(`import ${rate(imported)} events/s; offline rebuild ${rate(offline)} events/s`);
} finally {
  await database?.drop();
  if (!reused) await rm(dataDir, { recursive: true, force: true });
}
