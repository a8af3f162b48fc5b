// Webhook deliveries: with 1, 10 and 100 webhooks on one content type, publishes items at a
// fixed rate for a bounded time and measures the deliveries a local receiver gets per second
// and the time from a publish request being sent to each of its deliveries arriving.
// PostgreSQL when DATABASE_URL is set, else embedded.
// Usage: npm run build && DATABASE_URL=postgres://... node bench/webhooks.mjs [seconds=10] [deliveriesPerSecond=1000]
import { createServer } from 'node:http';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { freshDatabase, startService } from './lib.mjs';

const seconds = Number(process.argv[2] ?? 10);
const targetRate = Number(process.argv[3] ?? 1000);
const WEBHOOK_COUNTS = [1, 10, 100];
const DRAIN_TIMEOUT_MS = 30_000;

/** Records when each delivery arrives, by content id; answers 200 at once. */
async function startReceiver() {
  const arrivals = [];
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      arrivals.push({ at: performance.now(), contentId: JSON.parse(Buffer.concat(chunks).toString('utf8')).contentId });
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/hook`, arrivals, close: () => new Promise((resolve) => server.close(resolve)) };
}

const percentile = (sorted, p) => (sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);

async function scenario(service, receiver, webhookCount) {
  const headers = { 'x-api-key': service.writeKey, 'content-type': 'application/json' };
  const webhookIds = [];
  for (let index = 0; index < webhookCount; index++) {
    const answer = await fetch(`${service.url}/webhooks`, { method: 'PUT', headers, body: JSON.stringify({ endpoint: receiver.url, eventTypes: { Article: [3] } }) });
    if (!answer.ok) throw new Error(`webhook: ${answer.status} ${await answer.text()}`);
    webhookIds.push((await answer.json()).id);
  }
  receiver.arrivals.length = 0;
  const publishRate = targetRate / webhookCount;
  const sentAt = new Map();
  const started = performance.now();
  const publishes = [];
  let failed = 0;
  // Open loop: publish number n is sent at started + n / rate, whatever the answers do.
  for (let n = 0; performance.now() - started < seconds * 1000; n++) {
    const due = started + (n / publishRate) * 1000;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const at = performance.now();
    publishes.push(
      fetch(`${service.url}/v2/contents/Article`, { method: 'PUT', headers, body: JSON.stringify({ fields: { title: `Item ${n}` } }) })
        .then(async (answer) => {
          if (!answer.ok) failed++;
          sentAt.set((await answer.json()).id, at);
        })
        .catch(() => failed++),
    );
  }
  await Promise.all(publishes);
  const expected = sentAt.size * webhookCount;
  const deadline = performance.now() + DRAIN_TIMEOUT_MS;
  while (receiver.arrivals.length < expected && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const arrivals = receiver.arrivals.filter((arrival) => sentAt.has(arrival.contentId));
  const latencies = arrivals.map((arrival) => arrival.at - sentAt.get(arrival.contentId)).sort((a, b) => a - b);
  const last = Math.max(...arrivals.map((arrival) => arrival.at));
  for (const id of webhookIds) await fetch(`${service.url}/webhooks/${id}`, { method: 'DELETE', headers });
  return {
    webhookCount,
    publishes: sentAt.size,
    publishFailures: failed,
    expected,
    delivered: arrivals.length,
    deliveriesPerSecond: Math.round(arrivals.length / ((last - started) / 1000)),
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
  };
}

async function main() {
  const database = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL) : null;
  const receiver = await startReceiver();
  const service = await startService({
    ...(database ? { DATABASE_URL: database.url } : {}),
    ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_ALLOW_HTTP: 'true',
  });
  const rows = [];
  try {
    const typeAnswer = await fetch(`${service.url}/content-types`, {
      method: 'PUT',
      headers: { 'x-api-key': service.writeKey, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Article', key: 'Article', fields: [{ key: 'title', type: 'Text', required: true }] }),
    });
    if (!typeAnswer.ok) throw new Error(`content type: ${typeAnswer.status}`);
    for (const count of WEBHOOK_COUNTS) {
      const result = await scenario(service, receiver, count);
      rows.push(
        `| ${database ? 'PostgreSQL' : 'embedded'}: ${count} webhook${count === 1 ? '' : 's'}, ${Math.round(targetRate / count)} publishes/s | ${result.deliveriesPerSecond} | ${result.p50} | ${result.p99} | ${result.delivered} of ${result.expected} | ${result.publishFailures} |`,
      );
    }
  } finally {
    await service.close();
    await receiver.close();
    await database?.drop();
  }
  console.log(`\n${new Date().toISOString()} · ${cpus().length} × ${cpus()[0].model.trim()} · node ${process.version} · target ${targetRate} deliveries/s · ${seconds} s each\n`);
  console.log('| scenario | deliveries/s | publish→delivery p50 ms | p99 ms | delivered | publish failures |\n|---|---|---|---|---|---|');
  for (const line of rows) console.log(line);
}

await main();
