// CPU time per as-of list request (page of 20 + total, a random time each), of the service and
// of PostgreSQL, on a store seeded by bench/asof.mjs: what load does not change much. Requests in
// turn on 4 connections; the service's CPU from /proc, the database's from its backends' /proc
// entries (pg_stat_activity of the store's database; same machine). Run it from the directory of
// the build to measure (e.g. a copy of an earlier build for a before/after).
// Usage: npm run build && ASOF_DATABASE=... node bench/asof-cpu.mjs [requests=1000]
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ADMIN_TOKEN, cpuMs, startService } from './lib.mjs';

const requests = Number(process.argv[2] ?? 1000);
const state = JSON.parse(await readFile(join(tmpdir(), `${process.env.ASOF_DATABASE ?? 'cms_asof_100000'}.json`), 'utf8'));
const ENCRYPTION_KEY = process.env.ENCRYPTION_KEY ?? Buffer.alloc(32, 7).toString('base64');
const WINDOW_START = Date.parse('2026-01-01T00:00:00.000Z');
const WINDOW_END = WINDOW_START + 40 * 86_400_000;
const database = new URL(state.databaseUrl).pathname.slice(1);

const monitor = new pg.Client({ connectionString: state.databaseUrl });
await monitor.connect();
/** CPU ms of the store database's backends but this one. */
const databaseCpuMs = async () => {
  const { rows } = await monitor.query('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
  const each = await Promise.all(rows.map(({ pid }) => cpuMs(pid).then((cpu) => cpu.process, () => 0)));
  return each.reduce((sum, value) => sum + value, 0);
};

const service = await startService({ ADMIN_TOKEN, ENCRYPTION_KEY, DATABASE_URL: state.databaseUrl, READ_CACHE: 'false' }, state.dataDir);
try {
  const ask = async () => {
    const asOf = new Date(WINDOW_START + Math.floor(Math.random() * (WINDOW_END - WINDOW_START))).toISOString();
    const response = await fetch(`${service.url}/v2/contents/Product?asOf=${encodeURIComponent(asOf)}`, {
      method: 'POST',
      headers: { 'x-api-key': state.keys.readKey, 'content-type': 'application/json' },
      body: JSON.stringify({ pageSize: 20 }),
    });
    if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
    await response.json();
  };
  const inTurn = async (count) => {
    let left = count;
    await Promise.all(Array.from({ length: 4 }, async () => {
      while (left-- > 0) await ask();
    }));
  };
  await inTurn(100);
  const [serviceBefore, databaseBefore, started] = [await cpuMs(service.pid), await databaseCpuMs(), Date.now()];
  await inTurn(requests);
  const [serviceAfter, databaseAfter, seconds] = [await cpuMs(service.pid), await databaseCpuMs(), (Date.now() - started) / 1000];
  const per = (before, after) => ((after - before) / requests).toFixed(2);
  console.log(
    `${requests} as-of list requests (4 in turn): service ${per(serviceBefore.process, serviceAfter.process)} ms CPU each, ` +
      `database ${per(databaseBefore, databaseAfter)} ms CPU each; ${(requests / seconds).toFixed(0)} req/s (load average ${(await readFile('/proc/loadavg', 'utf8')).split(' ')[0]})`,
  );
} finally {
  await service.close();
  await monitor.end();
}
