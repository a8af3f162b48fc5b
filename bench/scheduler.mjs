// The scheduler: 10,000 jobs due in the same second (time until all have fired, lateness),
// the lateness of single jobs, and whether 100,000 pending jobs slow the API. A local
// receiver answers 200 and records when each callback arrives. PostgreSQL when DATABASE_URL
// is set, else embedded.
// Usage: npm run build && DATABASE_URL=postgres://... node bench/scheduler.mjs [burst=10000] [pending=100000] (pending 0 skips that part)
import { createServer } from 'node:http';
import { cpus } from 'node:os';
import { freshDatabase, load, startService } from './lib.mjs';

const burstSize = Number(process.argv[2] ?? 10_000);
const pendingCount = Number(process.argv[3] ?? 100_000);
const SINGLE_JOBS = 200;

async function startReceiver() {
  const arrivals = new Map();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.set(req.headers['svc-idempotency-key'], Date.now());
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/callback`, arrivals, close: () => new Promise((resolve) => server.close(resolve)) };
}

const percentile = (sorted, p) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);
const waitUntil = async (condition, timeoutMs) => {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
};

/** Creates `count` jobs through the API with 50 connections; `body(n)` gives job n. */
async function createJobs(service, count, body) {
  let next = 0;
  const started = Date.now();
  const result = await load({
    url: `${service.url}/scheduled-jobs`,
    method: 'POST',
    headers: { 'x-api-key': service.writeKey, 'content-type': 'application/json' },
    amount: count,
    requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(body(next++)) }) }],
  });
  return { ...result, seconds: (Date.now() - started) / 1000 };
}

/** Jobs each due at its own moment over a few seconds: lateness of jobs that do not come in crowds. */
async function singleJobLateness(service, receiver, tag) {
  const due = new Map();
  const base = Date.now() + 1000;
  await Promise.all(
    Array.from({ length: SINGLE_JOBS }, async (_, index) => {
      const at = base + Math.floor((index / SINGLE_JOBS) * 5000);
      const key = `${tag}-${index}`;
      due.set(key, at);
      const answer = await fetch(`${service.url}/scheduled-jobs`, {
        method: 'POST',
        headers: { 'x-api-key': service.writeKey, 'content-type': 'application/json' },
        body: JSON.stringify({ fireAtUtc: new Date(at).toISOString(), callbackUrl: receiver.url, idempotencyKey: key }),
      });
      if (!answer.ok) throw new Error(`job: ${answer.status}`);
    }),
  );
  await waitUntil(() => [...due.keys()].every((key) => receiver.arrivals.has(key)), 20_000);
  const lateness = [...due].filter(([key]) => receiver.arrivals.has(key)).map(([key, at]) => receiver.arrivals.get(key) - at).sort((a, b) => a - b);
  return { fired: lateness.length, p50: percentile(lateness, 50), p99: percentile(lateness, 99), max: lateness[lateness.length - 1] };
}

async function main() {
  const database = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL) : null;
  const receiver = await startReceiver();
  const service = await startService({ ...(database ? { DATABASE_URL: database.url } : {}), ALLOW_PRIVATE_TARGETS: 'true' });
  const engine = database ? 'PostgreSQL' : 'embedded';
  const rows = [];
  const read = { 'x-api-key': service.readKey };
  try {
    const apiBefore = await load({ url: `${service.url}/content-types`, headers: read, duration: 5 });
    const singleBefore = await singleJobLateness(service, receiver, 'single-before');

    // The burst: every job due at one instant, far enough ahead for all to be created first.
    const fireAt = Date.now() + Math.max(15_000, burstSize * 2);
    const burstCreated = await createJobs(service, burstSize, (n) => ({ fireAtUtc: new Date(fireAt).toISOString(), callbackUrl: receiver.url, idempotencyKey: `burst-${n}` }));
    if (Date.now() > fireAt) throw new Error('the burst was created after its due time; raise the lead time');
    await waitUntil(() => [...Array(burstSize).keys()].every((n) => receiver.arrivals.has(`burst-${n}`)), 120_000);
    const burstArrivals = [...Array(burstSize).keys()].map((n) => receiver.arrivals.get(`burst-${n}`)).filter((at) => at !== undefined);
    const burstLateness = burstArrivals.map((at) => at - fireAt).sort((a, b) => a - b);

    rows.push(`| ${engine}: ${burstSize} jobs due in the same second | all fired ${((burstLateness[burstLateness.length - 1] ?? NaN) / 1000).toFixed(1)} s after the due time | lateness p50 ${percentile(burstLateness, 50)} ms, p99 ${percentile(burstLateness, 99)} ms | ${burstArrivals.length} of ${burstSize} fired; created at ${Math.round(burstSize / burstCreated.seconds)}/s |`);
    rows.push(`| ${engine}: ${SINGLE_JOBS} single jobs over 5 s, store empty | | lateness p50 ${singleBefore.p50} ms, p99 ${singleBefore.p99} ms, max ${singleBefore.max} ms | ${singleBefore.fired} fired |`);
    if (pendingCount > 0) {
      const pending = await createJobs(service, pendingCount, (n) => ({ fireAtUtc: new Date(Date.now() + 30 * 86_400_000 + n).toISOString(), callbackUrl: receiver.url }));
      const apiAfter = await load({ url: `${service.url}/content-types`, headers: read, duration: 5 });
      const singleAfter = await singleJobLateness(service, receiver, 'single-after');
      const list = await load({ url: `${service.url}/scheduled-jobs?status=Pending&pageSize=20`, headers: read, duration: 5 });

      rows.push(`| ${engine}: ${SINGLE_JOBS} single jobs over 5 s, ${pendingCount} pending | | lateness p50 ${singleAfter.p50} ms, p99 ${singleAfter.p99} ms, max ${singleAfter.max} ms | ${singleAfter.fired} fired |`);
      rows.push(`| ${engine}: GET /content-types, store empty | ${apiBefore.requestsPerSecond} req/s | p50 ${apiBefore.p50} ms, p99 ${apiBefore.p99} ms | ${apiBefore.failed} errors |`);
      rows.push(`| ${engine}: GET /content-types, ${pendingCount} pending jobs | ${apiAfter.requestsPerSecond} req/s | p50 ${apiAfter.p50} ms, p99 ${apiAfter.p99} ms | ${apiAfter.failed} errors |`);
      rows.push(`| ${engine}: GET /scheduled-jobs?status=Pending (first page of ${pendingCount}) | ${list.requestsPerSecond} req/s | p50 ${list.p50} ms, p99 ${list.p99} ms | ${list.failed} errors |`);
      rows.push(`| ${engine}: creating ${pendingCount} pending jobs (POST /scheduled-jobs) | ${Math.round(pendingCount / pending.seconds)} req/s | p50 ${pending.p50} ms, p99 ${pending.p99} ms | ${pending.failed} errors |`);
    }
  } finally {
    await service.close();
    await receiver.close();
    await database?.drop();
  }
  console.log(`\n${new Date().toISOString()} · ${cpus().length} × ${cpus()[0].model.trim()} · node ${process.version}\n`);
  console.log('| scenario | throughput | latency | notes |\n|---|---|---|---|');
  for (const line of rows) console.log(line);
}

await main();
