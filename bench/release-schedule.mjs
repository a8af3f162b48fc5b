// Scheduled publishing (issue 32): COUNT schedules, each publishing its own item, due SPACING ms
// apart from a few seconds ahead; half are scheduled releases, half one item's publishAt
// (POST /v2/releases/item-schedules). Lateness is the published event's recorded time (the audit
// feed's `at`) minus the due time. With DATABASE_URL two instances share the database (the
// schedules are written through both, alternately; the lease holder fires them), else one
// embedded instance. Once-only: ReleasePublished per release and ContentPublished per item, counted
// in the audit feed a second after the last one fired.
// Usage: npm run build && DATABASE_URL=postgres://... node bench/release-schedule.mjs [count=100] [spacingMs=20]
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_TOKEN, freshDatabase, startService } from './lib.mjs';

const count = Number(process.argv[2] ?? 100);
const spacingMs = Number(process.argv[3] ?? 20);
const LEAD_MS = 3000;
const ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

async function call(url, method, path, key, body) {
  const headers = { 'content-type': 'application/json', ...(key === ADMIN_TOKEN ? { authorization: `Bearer ${key}` } : { 'x-api-key': key }) };
  const response = await fetch(`${url}${path}`, { method, headers, body: body && JSON.stringify(body) });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const database = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL) : null;
const environment = { ENCRYPTION_KEY, ...(database ? { DATABASE_URL: database.url } : {}) };
const first = await startService(environment);
const secondDir = database ? await mkdtemp(join(tmpdir(), 'cms-bench-second-')) : null;
const second = database ? await startService(environment, secondDir) : null;
const urls = second ? [first.url, second.url] : [first.url];
const via = (i) => urls[i % urls.length];
const { writeKey } = first;
try {
  const workspaces = await call(first.url, 'GET', '/admin/workspaces', ADMIN_TOKEN);
  const workspaceId = (Array.isArray(workspaces) ? workspaces : (workspaces.items ?? workspaces.workspaces))[0].id;
  const auditor = (await call(first.url, 'POST', `/admin/workspaces/${workspaceId}/api-keys`, ADMIN_TOKEN, { name: 'bench auditor', policies: ['AuditAccess'] })).key;
  await call(first.url, 'PUT', '/content-types', writeKey, { name: 'Offer', key: 'Offer', fields: [{ key: 'title', type: 'Text' }] });

  const items = await Promise.all(Array.from({ length: count }, async (_, i) => (await call(via(i), 'PUT', '/v2/preview-contents/Offer', writeKey, { fields: { title: `offer ${i}` } })).id));
  const half = Math.ceil(count / 2);
  const madeAhead = await Promise.all(
    items.slice(0, half).map(async (itemId, i) => {
      const { id } = await call(via(i), 'POST', '/v2/releases', writeKey, { name: `wave ${i}` });
      await call(via(i), 'PUT', `/v2/releases/${id}/items/${itemId}`, writeKey, { contentType: 'Offer', action: 'publish' });
      return id;
    }),
  );

  const firstDue = Date.now() + LEAD_MS;
  const dueAt = (i) => firstDue + i * spacingMs;
  const releaseIds = await Promise.all(
    items.map(async (itemId, i) => {
      const publishAt = new Date(dueAt(i)).toISOString();
      const id =
        i < half
          ? (await call(via(i), 'PUT', `/v2/releases/${madeAhead[i]}/schedule`, writeKey, { publishAt })).id
          : (await call(via(i), 'POST', '/v2/releases/item-schedules', writeKey, { itemId, contentType: 'Offer', publishAt })).releases[0].id;
      if (Date.now() >= dueAt(i)) throw new Error(`schedule ${i} was written after its due time: raise LEAD_MS`);
      return id;
    }),
  );

  // One audit-feed read a quarter second, not a read per release: the polling must not load the instance that fires.
  const closings = async () => (await call(first.url, 'GET', '/audit?type=ReleasePublished,ReleaseFailed,ContentPublished&limit=1000', auditor)).items;
  const deadline = dueAt(count - 1) + 30_000;
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, dueAt(count - 1) - Date.now())));
  for (;;) {
    const closed = (await closings()).filter((entry) => entry.type !== 'ContentPublished').length;
    if (closed >= count) break;
    if (Date.now() > deadline) throw new Error(`${count - closed} releases still Open 30 s after the last due time`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // A second firing, were one coming, lands in this second.
  await new Promise((resolve) => setTimeout(resolve, 1000));

  const feed = await closings();
  const ofRelease = (id, type) => feed.filter((entry) => entry.type === type && entry.stream === `release-${workspaceId}-${id}`);
  const published = releaseIds.map((id) => ofRelease(id, 'ReleasePublished'));
  const failed = releaseIds.reduce((sum, id) => sum + ofRelease(id, 'ReleaseFailed').length, 0);
  const itemPublishes = items.map((itemId) => feed.filter((entry) => entry.type === 'ContentPublished' && entry.itemId === itemId).length);
  const lateness = published.flatMap((entries, i) => entries.map((entry) => Date.parse(entry.at) - dueAt(i))).sort((a, b) => a - b);

  const engine = database ? 'PostgreSQL, two instances' : 'embedded, one instance';
  const exactlyOnce = published.filter((entries) => entries.length === 1).length;
  const itemsOnce = itemPublishes.filter((n) => n === 1).length;
  console.log(`\n${new Date().toISOString()} · ${cpus().length} × ${cpus()[0].model.trim()} · node ${process.version}\n`);
  console.log(`| ${engine}: ${count} schedules ${spacingMs} ms apart (${half} releases, ${count - half} item publishAt) | lateness min ${lateness[0]} ms, p50 ${percentile(lateness, 50)} ms, p99 ${percentile(lateness, 99)} ms, max ${lateness.at(-1)} ms | ${exactlyOnce} of ${count} releases published exactly once, ${itemsOnce} of ${count} items published exactly once, ${failed} failed |`);
} finally {
  await second?.close();
  await first.close();
  if (secondDir) await rm(secondDir, { recursive: true, force: true });
  await database?.drop();
}
