// Publishing a release of ITEMS items on PostgreSQL: the time of `POST /v2/releases/{id}/publish`
// (its answer waits for the read models to take the release) and the SQL statements the service
// sent meanwhile, by their first words (bench/statement-counter.cjs, preloaded into the service).
// Usage: npm run build && DATABASE_URL=postgres://... node bench/release-publish.mjs [items=1000] [runs=3]
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { freshDatabase, startService } from './lib.mjs';

const items = Number(process.argv[2] ?? 1000);
const runs = Number(process.argv[3] ?? 3);
if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set');

async function call(url, method, path, key, body) {
  const response = await fetch(`${url}${path}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

const countsFile = join(tmpdir(), `statement-counts-${process.pid}.json`);
const database = await freshDatabase(process.env.DATABASE_URL);
process.env.BENCH_NODE_ARGS = `${process.env.BENCH_NODE_ARGS ?? ''} --require ${join(import.meta.dirname, 'statement-counter.cjs')}`;
const service = await startService({ DATABASE_URL: database.url, STATEMENT_COUNTS_FILE: countsFile });
const counts = async () => {
  process.kill(service.pid, 'SIGUSR2');
  await new Promise((resolve) => setTimeout(resolve, 200));
  return JSON.parse(await readFile(countsFile, 'utf8'));
};
try {
  const { url, writeKey } = service;
  await call(url, 'PUT', '/content-types', writeKey, { name: 'Doc', key: 'Doc', fields: [{ key: 'title', type: 'Text' }] });
  for (let run = 1; run <= runs; run++) {
    const ids = [];
    for (let start = 0; start < items; start += 10) {
      const saved = await Promise.all(Array.from({ length: Math.min(10, items - start) }, (_, i) => call(url, 'PUT', '/v2/preview-contents/Doc', writeKey, { fields: { title: `run ${run} item ${start + i}` } })));
      ids.push(...saved.map((item) => item.id));
    }
    const release = await call(url, 'POST', '/v2/releases', writeKey, { name: `run ${run}` });
    await call(url, 'POST', `/v2/releases/${release.id}/items`, writeKey, { items: ids.map((itemId) => ({ itemId, contentType: 'Doc', action: 'publish' })) });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const before = await counts();
    const started = performance.now();
    await call(url, 'POST', `/v2/releases/${release.id}/publish`, writeKey);
    const elapsed = performance.now() - started;
    const after = await counts();
    const during = Object.entries(after)
      .map(([statement, count]) => [statement, count - (before[statement] ?? 0)])
      .filter(([, count]) => count > 0)
      .sort((a, b) => b[1] - a[1]);
    const total = during.reduce((sum, [, count]) => sum + count, 0);
    console.log(`run ${run}: ${items} items published in ${elapsed.toFixed(0)} ms; ${total} statements while it ran`);
    for (const [statement, count] of during) console.log(`  ${String(count).padStart(5)}  ${statement}`);
  }
} finally {
  await service.close();
  await database.drop();
}
