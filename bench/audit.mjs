// The audit feed and the reads it records.
// `feed` (PostgreSQL): seeds a workspace's log with N events (appended straight to the store
// the service shares with the service's MACs, 10 actors, 5 types, 500 events per stream, each
// event paired with the next as a save and publish are: the same actor, request and time), waits for the feed's read
// model, then times pages of 100 one after another (first page, random cursors, each filter),
// random-cursor pages under 10 connections, and the whole workspace as NDJSON. The seeded
// events' times are spread over the 30 days before the run.
// `reads`: a decrypt (fresh one-time password each) and a shared-access download, one after
// another. Run from a build without the recording to compare (see bench/RESULTS.md).
// Usage: npm run build && DATABASE_URL=... node bench/audit.mjs feed [events=100000] [samples=200]
//        npm run build && [DATABASE_URL=...] node bench/audit.mjs reads [samples=200]
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { TOTP } from 'otpauth';
import pg from 'pg';
import { ADMIN_TOKEN, freshDatabase, load, startService } from './lib.mjs';

const [section = 'feed', first, second] = process.argv.slice(2);
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const TYPES = ['BenchCreated', 'BenchUpdated', 'BenchViewed', 'BenchShared', 'BenchDeleted'];
const PER_STREAM = 500;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const summary = (durations) => {
  const sorted = [...durations].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1).toFixed(1)} ms (${sorted.length} in turn)`;
};

async function send(url, method, path, body, headers) {
  const answer = await fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function timed(samples, request) {
  const durations = [];
  for (let sample = 0; sample < samples; sample++) {
    const started = performance.now();
    await request(sample);
    durations.push(performance.now() - started);
  }
  return durations;
}

async function seed(databaseUrl, dataDir, workspaceId, events) {
  const { PgSqlClient } = await import(resolve('dist/infra/sql/pg-client.js'));
  const { PostgresEventStore } = await import(resolve('dist/infra/eventstore/postgres.js'));
  const { loadMasterKey } = await import(resolve('dist/infra/master-key.js'));
  const { eventMacKey } = await import(resolve('dist/infra/eventstore/event-mac.js'));
  const { checkpointKey } = await import(resolve('dist/infra/eventstore/chain-audit.js'));
  // Signed with the service's key: events without its MAC would be quarantined, not projected.
  const masterKey = await loadMasterKey(undefined, dataDir);
  const sql = await PgSqlClient.open(databaseUrl);
  const store = await PostgresEventStore.create(sql, { checkpointKey: checkpointKey(masterKey), macKey: eventMacKey(masterKey) });
  const started = performance.now();
  // Times spread over the 30 days before now, in log order, as a month of activity would be.
  const firstTime = Date.now() - 30 * 86_400_000;
  const step = (30 * 86_400_000) / events;
  let appended = 0;
  for (let streamIndex = 0; appended < events; streamIndex++) {
    const itemId = randomUUID();
    const count = Math.min(PER_STREAM, events - appended);
    const batch = Array.from({ length: count }, (_, index) => {
      const pair = Math.floor((appended + index) / 2) * 2;
      const actor = (pair / 2) % 10;
      return {
        type: TYPES[(appended + index) % TYPES.length],
        data: { workspaceId, itemId, name: `event ${appended + index}` },
        metadata: {
          workspaceId,
          actor: `key:bench-key-${actor}`,
          actorKind: 'apiKey',
          actorId: `bench-key-${actor}`,
          actorName: `bench key ${actor}`,
          correlationId: `request-${pair}`,
          timestamp: new Date(firstTime + pair * step).toISOString(),
        },
      };
    });
    await store.append(`bench-${workspaceId}-${itemId}`, batch, 'no_stream');
    appended += count;
  }
  await store.close();
  await sql.close();
  return { seconds: (performance.now() - started) / 1000 };
}

async function feed(events, samples) {
  if (!process.env.DATABASE_URL) throw new Error('the feed bench seeds through PostgreSQL: set DATABASE_URL');
  const database = await freshDatabase(process.env.DATABASE_URL);
  const service = await startService({ DATABASE_URL: database.url });
  try {
    const [workspace] = await send(service.url, 'GET', '/admin/workspaces', undefined, admin);
    const auditor = (await send(service.url, 'POST', `/admin/workspaces/${workspace.id}/api-keys`, { name: 'bench auditor', policies: ['AuditAccess'] }, admin)).key;
    const headers = { 'x-api-key': auditor };
    const seeded = await seed(database.url, service.dataDir, workspace.id, events);
    console.log(`seeded ${events} events in ${seeded.seconds.toFixed(1)} s`);
    const projectedFrom = performance.now();
    for (;;) {
      const status = await send(service.url, 'GET', '/admin/projections', undefined, admin);
      if (status.projections.every((projection) => projection.atHead)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const projectedSeconds = (performance.now() - projectedFrom) / 1000;
    console.log(`read models at the head ${projectedSeconds.toFixed(1)} s later (${Math.round(events / projectedSeconds)} events/s)`);
    // What autovacuum does within a minute or so of a bulk load; measured after it, not before.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query('analyze rm_audit_entries');
    await client.end();

    const exportFrom = performance.now();
    const response = await fetch(`${service.url}/audit`, { headers: { ...headers, accept: 'application/x-ndjson' } });
    const text = await response.text();
    const exportSeconds = (performance.now() - exportFrom) / 1000;
    const lines = text.trimEnd().split('\n');
    console.log(`NDJSON export of the workspace: ${lines.length} entries, ${(text.length / 1e6).toFixed(1)} MB in ${exportSeconds.toFixed(2)} s: ${Math.round(lines.length / exportSeconds)} entries/s`);
    const positions = lines.map((line) => JSON.parse(line).position);
    const entry = JSON.parse(lines[Math.floor(lines.length / 2)]);
    const randomCursor = () => positions[Math.floor(Math.random() * (positions.length - 100))];

    const scenarios = [
      ['first page', () => '/audit?limit=100'],
      ['random cursor', () => `/audit?limit=100&after=${randomCursor()}`],
      ['actorId filter, random cursor', () => `/audit?limit=100&actorId=bench-key-3&after=${randomCursor()}`],
      ['type filter (2 types), random cursor', () => `/audit?limit=100&type=BenchShared,BenchViewed&after=${randomCursor()}`],
      ['itemId filter (500 entries)', () => `/audit?limit=100&itemId=${entry.itemId}`],
      ['time range (one hour, mid-log), first page', () => `/audit?limit=100&from=${encodeURIComponent(entry.at)}&to=${encodeURIComponent(new Date(Date.parse(entry.at) + 3_600_000).toISOString())}`],
      ['time range (from a week ago on), first page', () => `/audit?limit=100&from=${encodeURIComponent(new Date(Date.now() - 7 * 86_400_000).toISOString())}`],
    ];
    for (const [name, path] of scenarios) {
      const durations = await timed(samples, async () => {
        const page = await send(service.url, 'GET', path(), undefined, headers);
        if (page.items.length === 0) throw new Error(`${name}: an empty page`);
      });
      console.log(`page of 100, ${name}: ${summary(durations)}`);
    }
    const underLoad = await load({
      url: service.url,
      connections: 10,
      duration: 10,
      requests: [{ method: 'GET', headers, setupRequest: (request) => ({ ...request, path: `/audit?limit=100&after=${randomCursor()}` }) }],
    });
    console.log(`page of 100, random cursor, 10 connections, 10 s: ${underLoad.requestsPerSecond} req/s, p50 ${underLoad.p50} ms, p99 ${underLoad.p99} ms, non-2xx ${underLoad.failed}`);
  } finally {
    await service.close();
    await database.drop();
  }
}

async function reads(samples) {
  const database = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL) : null;
  const service = await startService(database ? { DATABASE_URL: database.url } : {});
  try {
    const write = { 'x-api-key': service.writeKey };
    const read = { 'x-api-key': service.readKey };
    const [workspace] = await send(service.url, 'GET', '/admin/workspaces', undefined, admin);
    await send(service.url, 'PUT', '/content-types', { name: 'Vault', key: 'Vault', fields: [{ key: 'title', type: 'Text' }, { key: 'pin', type: 'Encrypted' }] }, write);
    const item = await send(service.url, 'PUT', '/v2/contents/Vault', { fields: { title: 'vault' } }, write);
    await send(service.url, 'PUT', '/contents/Vault/encrypt', { id: item.id, encryptFields: { pin: '0327' } }, write);
    const decrypts = [];
    for (let sample = 0; sample < Math.min(samples, 100); sample++) {
      const { secret } = await send(service.url, 'POST', `/admin/workspaces/${workspace.id}/totp`, undefined, admin);
      const totpCode = new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate();
      const started = performance.now();
      await send(service.url, 'POST', '/contents/Vault/encrypt/decrypt', { id: item.id, encryptFieldKeys: ['pin'], totpCode }, read);
      decrypts.push(performance.now() - started);
    }
    const assetId = randomUUID();
    const file = Buffer.from('a shared file');
    const chunk = { assetId, fileUploadId: randomUUID(), originalFileName: 'f.bin', chunkIndex: 0, chunkSize: file.length, totalChunkCount: 1, chunkByteOffset: 0, totalFileSize: file.length, stream: file.toString('base64') };
    await send(service.url, 'POST', '/assets/uploadAsset', chunk, write);
    const { sharedAccessKey } = await send(service.url, 'POST', `/assets/${assetId}/shared-access-keys`, {}, write);
    const downloadUrl = `${service.url}/shared-access/${workspace.id}/asset/${assetId}?sharedAccessKey=${encodeURIComponent(sharedAccessKey)}`;
    for (;;) if ((await fetch(downloadUrl).then((answer) => answer.text().then(() => answer.status))) === 200) break;
    const downloads = await timed(samples, async () => {
      const answer = await fetch(downloadUrl);
      await answer.arrayBuffer();
      if (answer.status !== 200) throw new Error(`download: ${answer.status}`);
    });
    console.log(`store: ${database ? 'PostgreSQL' : 'embedded (PGlite)'}`);
    console.log(`decrypt (fresh code), in turn: ${summary(decrypts)}`);
    console.log(`shared-access download, in turn: ${summary(downloads)}`);
  } finally {
    await service.close();
    await database?.drop();
  }
}

if (section === 'feed') await feed(Number(first ?? 100_000), Number(second ?? 200));
else if (section === 'reads') await reads(Number(first ?? 200));
else throw new Error(`unknown section ${section}: feed or reads`);
