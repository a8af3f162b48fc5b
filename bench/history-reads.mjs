// One item saved VERSIONS times with FIELDS RichText values of SIZE characters each; then, each after a
// restart (caches empty, peak RSS fresh), one read of its whole history timed with the service's peak
// RSS: the operator's history, a bulk undo dry run, putting it in a release pinned to its middle
// version, the release's validate, its preview of the item and its entry (issue 28: bounded history
// reads). A service that dies on one (heap out of memory) is reported and started again.
// Usage: npm run build && DATABASE_URL=postgres://... [BENCH_NODE_ARGS=--max-old-space-size=320] node bench/history-reads.mjs [versions=500] [size=99000] [fields=9]
import { readFile } from 'node:fs/promises';
import { ADMIN_TOKEN, freshDatabase, startService } from './lib.mjs';
const versions = Number(process.argv[2] ?? 500);
const size = Number(process.argv[3] ?? 99_000);
const fieldCount = Number(process.argv[4] ?? 9);
const keys = Array.from({ length: fieldCount }, (_, index) => `body${index}`);
const text = 'lorem ipsum '.repeat(size / 12).slice(0, size);
const fieldsOf = (prefix) => Object.fromEntries(keys.map((key) => [key, `${prefix} ${text}`]));
const database = await freshDatabase(process.env.DATABASE_URL);
const environment = { DATABASE_URL: database.url, ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') };
const call = async (url, method, path, key, body) => {
  const auth = key === ADMIN_TOKEN ? { authorization: `Bearer ${key}` } : { 'x-api-key': key };
  const response = await fetch(`${url}${path}`, { method, headers: { ...auth, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  return { status: response.status, body: await response.json().catch(() => null) };
};
const rss = async (pid) => Number(/VmHWM:\s+(\d+)/.exec(await readFile(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
let service = await startService(environment);
let alive = true;
const { readKey, writeKey } = service;
try {
  await call(service.url, 'PUT', '/content-types', writeKey, { name: 'Article', key: 'Article', fields: keys.map((key) => ({ key, type: 'RichText' })) });
  const id = (await call(service.url, 'PUT', '/v2/preview-contents/Article', writeKey, { fields: fieldsOf('0') })).body.id;
  const started = Date.now();
  for (let version = 1; version < versions; version++) {
    const saved = await call(service.url, 'PUT', '/v2/preview-contents/Article', writeKey, { id, fields: fieldsOf(String(version)) });
    if (saved.status !== 200) throw new Error(`save ${version}: ${saved.status}`);
  }
  console.log(`${versions} versions of ${fieldCount} x ${size} characters saved in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const workspaces = (await call(service.url, 'GET', '/admin/workspaces', ADMIN_TOKEN)).body;
  const [workspace] = Array.isArray(workspaces) ? workspaces : (workspaces.items ?? workspaces.workspaces);
  const releaseId = (await call(service.url, 'POST', '/v2/releases', writeKey, { name: 'pinned' })).body.id;
  const pinned = Math.ceil(versions / 2);
  // The workspace history reads the stream's headers only: a cheap way to the writer's actor.
  const { actor } = (await call(service.url, 'GET', `/v2/preview-contents/Article/${id}/history`, readKey)).body[0];
  const reads = [
    ['operator history', 'GET', `/admin/workspaces/${workspace.id}/contents/${id}/history`, ADMIN_TOKEN],
    ['bulk undo dry run', 'POST', `/admin/workspaces/${workspace.id}/content-undo`, ADMIN_TOKEN, { selector: { actor }, dryRun: true, itemIds: [id] }],
    [`release items (the item pinned to ${pinned})`, 'POST', `/v2/releases/${releaseId}/items`, writeKey, { items: [{ itemId: id, contentType: 'Article', action: 'publish', version: pinned }] }],
    ['release validate', 'POST', `/v2/releases/${releaseId}/validate`, readKey],
    ['release preview of the item', 'GET', `/v2/contents/Article/${id}?release=${releaseId}`, readKey],
    ['release entry', 'GET', `/v2/releases/${releaseId}/items/${id}`, readKey],
  ];
  const dataDir = service.dataDir;
  for (const [name, method, path, key, body] of reads) {
    if (alive) await service.close();
    service = await startService(environment, dataDir);
    alive = true;
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const before = await rss(service.pid);
    const t = Date.now();
    try {
      const answer = await call(service.url, method, path, key, body);
      console.log(`${name}: ${answer.status} in ${Date.now() - t} ms; service peak RSS ${before.toFixed(0)} MB before, ${(await rss(service.pid)).toFixed(0)} MB after`);
    } catch (error) {
      alive = false;
      console.log(`${name}: no answer after ${Date.now() - t} ms (${error.cause?.code ?? error.message}): the service died`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
} finally {
  if (alive) await service.close();
  await database.drop();
}
