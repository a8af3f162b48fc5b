// Encrypted fields: how long a decrypt and a check take, one after another (latency) and, for
// check, under 50 connections spread over 100 items (throughput; one key checking many
// users' values). Run against this tree's build, and against a build
// of the code before the hardening (no once-only code, no limits, no recorded attempts) to
// see what the guarding and recording cost. A decrypt needs a fresh one-time password, usable
// once: each one sets a new TOTP secret first (not timed).
// PostgreSQL when DATABASE_URL is set, else embedded.
// READ_AUDIT in the environment is passed on (required, the default, or best-effort): compare
// the two to see what waiting for the attempt's record costs.
// Usage: npm run build && [READ_AUDIT=best-effort] node bench/secrets.mjs [samples=200] [seconds=10]
// (from another directory holding a `dist/` build, that build is measured).
import { performance } from 'node:perf_hooks';
import { TOTP } from 'otpauth';
import { ADMIN_TOKEN, freshDatabase, load, startService } from './lib.mjs';

const samples = Number(process.argv[2] ?? 200);
const seconds = Number(process.argv[3] ?? 10);
const DECRYPT_SAMPLES = Math.min(samples, 50);
const ITEMS = 100;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const summary = (durations) => {
  const sorted = [...durations].sort((a, b) => a - b);
  return `p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms (${sorted.length} in turn)`;
};

async function send(url, method, path, body, headers) {
  const answer = await fetch(`${url}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await answer.text();
  if (!answer.ok) throw new Error(`${method} ${path}: ${answer.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function main() {
  const database = process.env.DATABASE_URL ? await freshDatabase(process.env.DATABASE_URL) : null;
  const service = await startService({
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...(process.env.READ_AUDIT ? { READ_AUDIT: process.env.READ_AUDIT } : {}),
  });
  try {
    const write = { 'x-api-key': service.writeKey };
    const read = { 'x-api-key': service.readKey };
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const workspaces = await send(service.url, 'GET', '/admin/workspaces', undefined, admin);
    const workspaceId = workspaces[0].id;
    await send(service.url, 'PUT', '/content-types', { name: 'Vault', key: 'Vault', fields: [{ key: 'title', type: 'Text' }, { key: 'pin', type: 'Encrypted' }] }, write);
    const ids = [];
    for (let index = 0; index < ITEMS; index++) {
      const item = await send(service.url, 'PUT', '/v2/contents/Vault', { fields: { title: `vault ${index}` } }, write);
      await send(service.url, 'PUT', '/contents/Vault/encrypt', { id: item.id, encryptFields: { pin: '0327' } }, write);
      ids.push(item.id);
    }
    const item = { id: ids[0] };
    const checkBody = { id: item.id, encryptFields: { pin: '0327' } };

    const checks = [];
    for (let sample = 0; sample < samples; sample++) {
      const started = performance.now();
      await send(service.url, 'POST', '/contents/Vault/encrypt/check', checkBody, read);
      checks.push(performance.now() - started);
    }
    const decrypts = [];
    for (let sample = 0; sample < DECRYPT_SAMPLES; sample++) {
      const { secret } = await send(service.url, 'POST', `/admin/workspaces/${workspaceId}/totp`, undefined, admin);
      const totpCode = new TOTP({ secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate();
      // The new secret reaches the workspace read model a moment later on a loaded machine: a refused
      // code is tried again after a pause, and only the answered request is timed.
      for (let tries = 1; ; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        const started = performance.now();
        const answer = await fetch(`${service.url}/contents/Vault/encrypt/decrypt`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...read },
          body: JSON.stringify({ id: item.id, encryptFieldKeys: ['pin'], totpCode }),
        });
        await answer.text();
        if (answer.ok) {
          decrypts.push(performance.now() - started);
          break;
        }
        if (answer.status !== 403 || tries === 5) throw new Error(`decrypt: ${answer.status}`);
      }
    }
    let next = 0;
    const checkLoad = await load({
      url: `${service.url}/contents/Vault/encrypt/check`,
      duration: seconds,
      requests: [
        {
          method: 'POST',
          headers: { ...read, 'content-type': 'application/json' },
          setupRequest: (request) => ({ ...request, body: JSON.stringify({ id: ids[next++ % ids.length], encryptFields: { pin: '0327' } }) }),
        },
      ],
    });
    console.log(`store: ${database ? 'PostgreSQL' : 'embedded (PGlite)'}, READ_AUDIT ${process.env.READ_AUDIT ?? 'required'}`);
    console.log(`check (match), in turn: ${summary(checks)}`);
    console.log(`decrypt (fresh code), in turn: ${summary(decrypts)}`);
    console.log(`check (match), 50 connections over ${ITEMS} items, ${seconds} s: ${checkLoad.requestsPerSecond} req/s, p50 ${checkLoad.p50} ms, p99 ${checkLoad.p99} ms, non-2xx ${checkLoad.failed}`);
  } finally {
    await service.close();
    await database?.drop();
  }
}

await main();
