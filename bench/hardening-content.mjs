// Issue 28's attacks with ordinary keys, each timed while a second workspace sends one GET
// after another: what the attack answered and how long it took, the bystander's p50, p99 and
// worst wait meanwhile, and then how long the bystander's write took to be readable (a stalled
// read side answers after the 5 s read-your-writes limit and never shows it). Each attack has
// a time limit, so a build that freezes on it is reported, not waited for; one that kills the
// service ends the run there. Embedded store, and PostgreSQL when DATABASE_URL is set.
// Usage: npm run build && [DATABASE_URL=...] [BENCH_ONLY=regexp] [BENCH_REPEAT=n] node bench/hardening-content.mjs
// For an A/B, copy this file into a worktree of the earlier commit (built) and run it there.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { ADMIN_TOKEN, freshDatabase, startService } from './lib.mjs';

const ATTACK_LIMIT_MS = 30_000;
/** BENCH_ONLY: a regular expression; only the attacks whose names match it run (beside the idle baseline). */
const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null;
/** BENCH_REPEAT: the maximum-text save, the 450-field item, the page of long items and the 16 MB chunk are sent this many times, one after another, in one timed window (more bystander samples). */
const repeat = Number(process.env.BENCH_REPEAT ?? 1);
const times = async (attack) => {
  const answers = [];
  for (let round = 0; round < repeat; round++) answers.push(await attack(round));
  return answers;
};

async function call(url, method, path, { key, bearer, body, raw } = {}) {
  const headers = {};
  if (key) headers['x-api-key'] = key;
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  if (body !== undefined || raw !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${url}${path}`, { method, headers, body: raw ?? (body === undefined ? undefined : JSON.stringify(body)), signal: AbortSignal.timeout(ATTACK_LIMIT_MS) });
  const text = await response.text();
  return { status: response.status, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

async function workspace(url, name) {
  const created = await call(url, 'POST', '/admin/workspaces', { bearer: ADMIN_TOKEN, body: { name } });
  const issue = async (policies) => (await call(url, 'POST', `/admin/workspaces/${created.body.id}/api-keys`, { bearer: ADMIN_TOKEN, body: { name: policies[0], policies } })).body.key;
  return { readKey: await issue(['ReadAccess']), writeKey: await issue(['WriteAccess']) };
}

/** Prose-like text with four-byte characters, `length` UTF-16 units. */
function prose(length) {
  let text = '';
  while (text.length < length - 1) text += Math.random() < 0.1 ? '🌍' : Math.random() < 0.2 ? ' ' : String.fromCharCode(97 + Math.floor(Math.random() * 26));
  return text.padEnd(length, 'x');
}

/**
 * The bystander's GETs run on a thread of their own, so the bench's own work (building a 22 MB
 * body, say) never delays them: what they wait for is the service.
 */
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
let done = false;
parentPort.once('message', () => { done = true; });
const get = () => fetch(workerData.url + '/content-types', { headers: { 'x-api-key': workerData.key }, signal: AbortSignal.timeout(workerData.limitMs) })
  .then(async (response) => { await response.text(); return response.status; }, (error) => error.cause?.code ?? error.name);
(async () => {
  // The thread's first requests open its connection and warm its code: not the service's time.
  for (let warm = 0; warm < 20; warm++) await get();
  parentPort.postMessage('ready');
  const waits = [];
  const statuses = new Set();
  while (!done) {
    const sentAt = performance.now();
    const status = await get();
    waits.push(performance.now() - sentAt);
    statuses.add(status);
  }
  parentPort.postMessage({ waits, statuses: [...statuses] });
})();
`;

/**
 * The service's own event-loop delay since the last call (prom-client's monitorEventLoopDelay,
 * reset at every scrape): p99 and max in ms, each the whole interval of its 10 ms timer, so
 * an idle loop reads about 10. What the service thread was held for, apart from the bystander's
 * own scheduling on this machine.
 */
async function loopDelay(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name) => Number(new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text)?.[1] ?? NaN) * 1000;
  return { p99: value('nodejs_eventloop_lag_p99_seconds'), max: value('nodejs_eventloop_lag_max_seconds') };
}

async function timed(url, bystander, attack) {
  const probe = new Worker(PROBE, { eval: true, workerData: { url, key: bystander.readKey, limitMs: ATTACK_LIMIT_MS } });
  const messages = [];
  let heard = () => undefined;
  probe.on('message', (message) => {
    messages.push(message);
    heard();
  });
  const next = () => (messages.length > 0 ? Promise.resolve(messages.shift()) : new Promise((resolve, reject) => { heard = () => resolve(messages.shift()); probe.once('error', reject); }));
  await next();
  await loopDelay(url);
  const startedAt = performance.now();
  const outcome = await attack().then((answers) => [answers].flat().map((answer) => answer.status).join(' '), (error) => `${error.cause?.code ?? error.name}`);
  const attackMs = performance.now() - startedAt;
  const loop = await loopDelay(url);
  probe.postMessage('stop');
  const { waits, statuses } = await next();
  await probe.terminate();
  waits.sort((a, b) => a - b);
  const title = `check ${randomUUID()}`;
  const writeStarted = performance.now();
  const saved = await call(url, 'PUT', '/v2/preview-contents/Note', { key: bystander.writeKey, body: { fields: { title } } }).catch(() => null);
  const found = saved ? await call(url, 'POST', '/v2/preview-contents/Note', { key: bystander.readKey, body: { filter: { type: 'condition', fieldKey: 'title', operator: 'e', value: title } } }).catch(() => null) : null;
  const visible = found?.body?.items?.length === 1;
  return {
    outcome,
    attackMs,
    gets: waits.length,
    p50: waits[Math.floor(waits.length / 2)] ?? 0,
    p99: waits[Math.min(waits.length - 1, Math.ceil(waits.length * 0.99) - 1)] ?? 0,
    max: waits.at(-1) ?? 0,
    statuses: statuses.join(' '),
    loopP99: loop.p99,
    loopMax: loop.max,
    roundTrip: visible ? `${Math.round(performance.now() - writeStarted)} ms` : 'not visible',
  };
}

async function measure(label, environment) {
  const service = await startService(environment);
  const rows = [];
  try {
    const { url, writeKey, readKey } = service;
    const bystander = await workspace(url, 'Bystander');
    const attacker = { readKey, writeKey };
    await call(url, 'PUT', '/content-types', { key: bystander.writeKey, body: { name: 'Note', key: 'Note', fields: [{ key: 'title', type: 'Text' }] } });
    await call(url, 'PUT', '/content-types', { key: writeKey, body: { name: 'Article', key: 'Article', fields: [{ key: 'title', type: 'Text' }, { key: 'body', type: 'RichText' }, { key: 'list', type: 'Json' }] } });
    for (let index = 0; index < 200; index++) await call(url, 'PUT', '/v2/contents/Article', { key: writeKey, body: { fields: { title: prose(100), body: prose(2_000) } } });
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const add = async (name, attack) => {
      if (only && name !== 'idle (baseline)' && !only.test(name)) return;
      const row = { name: `${label}: ${name}`, ...(await timed(url, bystander, attack)) };
      rows.push(row);
      console.error(JSON.stringify(row));
    };

    await add('idle (baseline)', async () => {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      return { status: '-' };
    });
    const longBody = JSON.stringify({ fields: { title: 'long', body: prose(5_000) } });
    await add('save and publish a RichText of 5,000 characters', () => call(url, 'PUT', '/v2/contents/Article', { key: writeKey, raw: longBody }));
    const longestBody = JSON.stringify({ fields: { title: prose(10_000), body: prose(100_000) } });
    await add('save and publish a Text of 10,000 and a RichText of 100,000 characters', () => times(() => call(url, 'PUT', '/v2/contents/Article', { key: writeKey, raw: longestBody })));
    const wideFields = Array.from({ length: 450 }, (_, index) => ({ key: `f${index}`, type: 'Text' }));
    const wideItem = JSON.stringify({ fields: Object.fromEntries(wideFields.map((field) => [field.key, prose(1_500)])) });
    await add('a type of 450 Text fields', () => call(url, 'PUT', '/content-types', { key: writeKey, body: { name: 'Wide', key: 'Wide', fields: wideFields } }));
    await add('an item filling each of the 450 Text fields, 675,000 characters', () => times(() => call(url, 'PUT', '/v2/contents/Wide', { key: writeKey, raw: wideItem })));
    // BENCH_PAGE_SIZE: the items seeded and the page read (100: 10 MB answered; the API allows 500).
    const pageSize = Number(process.env.BENCH_PAGE_SIZE ?? 100);
    const pageAttack = `a page of ${pageSize} items of 100,000 characters each`;
    if (!only || only.test(pageAttack)) {
      await call(url, 'PUT', '/content-types', { key: writeKey, body: { name: 'Long', key: 'Long', fields: [{ key: 'body', type: 'RichText' }] } });
      const longBody = prose(99_990);
      for (let index = 0; index < pageSize; index++) await call(url, 'PUT', '/v2/contents/Long', { key: writeKey, body: { fields: { body: `${index} ${longBody}` } } });
      await add(pageAttack, () => times(() => call(url, 'POST', '/v2/contents/Long', { key: readKey, body: { pageSize } })));
      // With a filter no kept count answers, the page and its total are found by one statement (the documents of a page used to come in it as one JSON value).
      const filtered = { pageSize, filter: { type: 'condition', fieldKey: 'body', operator: 'nnoe' } };
      await add(`${pageAttack}, filtered`, () => times(() => call(url, 'POST', '/v2/contents/Long', { key: readKey, body: filtered })));
    }
    const chunk = Buffer.alloc(16 * 1024 * 1024, 7);
    const chunkBodies = Array.from({ length: repeat }, () => Buffer.from(JSON.stringify({ assetId: randomUUID(), fileUploadId: randomUUID(), originalFileName: 'big.bin', chunkIndex: 0, chunkSize: chunk.length, totalChunkCount: 1, chunkByteOffset: 0, totalFileSize: chunk.length, stream: chunk.toString('base64') })));
    await add('one upload chunk of 16 MB', () => times((round) => call(url, 'POST', '/assets/uploadAsset', { key: writeKey, raw: chunkBodies[round] })));
    await add('GET /audit?type= 50 types, 20 at once', async () => {
      const types = `type=${Array.from({ length: 50 }, (_, index) => `T${index}`).join(',')}`;
      const [attackers] = (await call(url, 'GET', '/admin/workspaces', { bearer: ADMIN_TOKEN })).body;
      const auditor = (await call(url, 'POST', `/admin/workspaces/${attackers.id}/api-keys`, { bearer: ADMIN_TOKEN, body: { name: 'auditor', policies: ['AuditAccess'] } })).body.key;
      return Promise.all(Array.from({ length: 20 }, () => call(url, 'GET', `/audit?${types}`, { key: auditor })));
    });
    await add('40 slow legal filters at once (contains over every body)', () =>
      Promise.all(Array.from({ length: 40 }, () => call(url, 'POST', '/v2/contents/Article', { key: attacker.readKey, body: { filter: { type: 'condition', fieldKey: 'body', operator: 'contains', value: `${Math.random()}`.slice(2, 12) } } }))),
    );
    await add('diff of two versions of a 1,000-element Json array', async () => {
      const list = Array.from({ length: 1000 }, (_, index) => ({ n: index }));
      const saved = await call(url, 'PUT', '/v2/preview-contents/Article', { key: writeKey, body: { fields: { list } } });
      await call(url, 'PUT', '/v2/preview-contents/Article', { key: writeKey, body: { id: saved.body.id, fields: { list: [...list].reverse() } } });
      return call(url, 'GET', `/v2/preview-contents/Article/${saved.body.id}/diff?from=1&to=2`, { key: readKey });
    });
  } finally {
    await service.close();
  }
  return rows;
}

const rows = process.env.BENCH_ENGINE === 'postgres' ? [] : await measure('embedded (PGlite)', {});
if (process.env.DATABASE_URL) {
  const database = await freshDatabase(process.env.DATABASE_URL);
  try {
    rows.push(...(await measure('PostgreSQL', { DATABASE_URL: database.url })));
  } finally {
    await database.drop();
  }
}
console.log('| attack | answers | attack ms | bystander GETs | p50 ms | p99 ms | max ms | statuses | service loop delay p99 / max ms | bystander write readable after |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows) {
  console.log(`| ${row.name} | ${row.outcome} | ${Math.round(row.attackMs)} | ${row.gets} | ${Math.round(row.p50)} | ${Math.round(row.p99)} | ${Math.round(row.max)} | ${row.statuses} | ${Math.round(row.loopP99)} / ${Math.round(row.loopMax)} | ${row.roundTrip} |`);
}
