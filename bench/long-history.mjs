// One item saved VERSIONS times with FIELDS RichText values of SIZE characters each, then the service
// restarted (its cache of decided states empty) and two more saves timed, with the service's peak
// RSS: what deciding a write costs on a long history of large versions (issue 28).
// Usage: npm run build && DATABASE_URL=postgres://... [BENCH_NODE_ARGS=--max-old-space-size=320] node bench/long-history.mjs [versions=1000] [size=100000] [fields=1]
import { readFile } from 'node:fs/promises';
import { freshDatabase, startService } from './lib.mjs';
const versions = Number(process.argv[2] ?? 1000);
const size = Number(process.argv[3] ?? 100_000);
const fieldCount = Number(process.argv[4] ?? 1);
const keys = Array.from({ length: fieldCount }, (_, index) => `body${index}`);
const fieldsOf = (prefix) => Object.fromEntries(keys.map((key) => [key, `${prefix} ${text}`]));
const text = 'lorem ipsum '.repeat(size / 12).slice(0, size);
const database = await freshDatabase(process.env.DATABASE_URL);
const environment = { DATABASE_URL: database.url, ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') };
const call = async (url, method, path, key, body) => {
  const response = await fetch(`${url}${path}`, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  return { status: response.status, body: await response.json().catch(() => null) };
};
const rss = async (pid) => Number(/VmHWM:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
let service = await startService(environment);
const { writeKey } = service;
try {
  await call(service.url, 'PUT', '/content-types', writeKey, { name: 'Article', key: 'Article', fields: keys.map((key) => ({ key, type: 'RichText' })) });
    const first = await call(service.url, 'PUT', '/v2/preview-contents/Article', writeKey, { fields: fieldsOf('0') });
  const id = first.body.id;
  const started = Date.now();
  for (let version = 1; version < versions; version++) {
    const saved = await call(service.url, 'PUT', '/v2/preview-contents/Article', writeKey, { id, fields: fieldsOf(String(version)) });
    if (saved.status !== 200) throw new Error(`save ${version}: ${saved.status}`);
  }
  console.log(`${versions} versions of ${fieldCount} x ${size} characters saved in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const dataDir = service.dataDir;
  await service.close();
  service = await startService(environment, dataDir);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const before = await rss(service.pid);
  for (const attempt of [1, 2]) {
    const t = Date.now();
    const saved = await call(service.url, 'PUT', '/v2/preview-contents/Article', writeKey, { id, fields: fieldsOf(`${attempt}a`) });
    console.log(`after a restart, save ${attempt}: ${saved.status} ${saved.status === 200 ? "" : JSON.stringify(saved.body).slice(0, 300)} in ${Date.now() - t} ms; service peak RSS ${before.toFixed(0)} MB before, ${(await rss(service.pid)).toFixed(0)} MB after`);
  }
} finally {
  await service.close();
  await database.drop();
}
