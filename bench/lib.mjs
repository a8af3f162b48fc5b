// Shared pieces of the benchmarks: the bare-express ceiling, the service as a child
// process, and autocannon runs bounded in time against 127.0.0.1 only.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import express from 'express';
import pg from 'pg';

export const ADMIN_TOKEN = 'bench-admin-token-0123456789';

/** A bare express server answering a fixed JSON body: the ceiling of this machine. */
export async function startCeiling(body) {
  const app = express();
  const payload = JSON.stringify(body);
  app.get('/fixed', (_req, res) => res.type('application/json').send(payload));
  const server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { url: `http://127.0.0.1:${server.address().port}/fixed`, close: () => new Promise((resolve) => server.close(resolve)) };
}

const STORE_VARIABLES = ['DATABASE_URL', 'EVENT_STORE', 'READ_STORE', 'EVENTSTORE_URL', 'MONGODB_URL', 'ADMIN_TOKEN'];

/**
 * A fresh database on the PostgreSQL server of `serverUrl`; returns its URL and a drop function.
 * BENCH_DB_PREFIX names it (default `cms_bench_`): runs sharing one server keep apart.
 */
export async function freshDatabase(serverUrl) {
  const name = `${process.env.BENCH_DB_PREFIX ?? 'cms_bench_'}${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * The built service (dist/) in its own process; store variables come only from `environment`.
 * A fresh DATA_DIR unless `dataDir` names one: a store started before prints no keys, so the
 * service is taken as started once /health/ready answers 200 (readKey and writeKey absent).
 */
/** `nodeArgs`: node flags for this service, after BENCH_NODE_ARGS (e.g. a `--require` of a counter). */
export async function startService(environment = {}, dataDir, nodeArgs = []) {
  const directory = dataDir ?? (await mkdtemp(join(tmpdir(), 'cms-bench-')));
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !STORE_VARIABLES.includes(name)));
  // BENCH_PORT: the port of the service (default: a random one of 18000-18999).
  const port = Number(process.env.BENCH_PORT ?? 18000 + Math.floor(Math.random() * 1000));
  const url = `http://127.0.0.1:${port}`;
  // BENCH_NODE_ARGS: node flags for the service, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile it.
  const benchNodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...benchNodeArgs, ...nodeArgs, 'dist/src/main.js'], {
    env: { ...inherited, PORT: String(port), DATA_DIR: directory, ADMIN_TOKEN, LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '0', ...environment },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((_resolve, reject) => child.once('exit', (code) => reject(new Error(`service exited with ${code}`))));
  const started = dataDir
    ? (async () => {
        for (;;) {
          const ready = await fetch(`${url}/health/ready`).then((response) => response.ok, () => false);
          if (ready) return {};
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      })()
    : new Promise((resolve) => {
        let output = '';
        child.stdout.on('data', (chunk) => {
          output += chunk;
          const read = /read key:\s+(\S+)/.exec(output);
          const write = /write key:\s+(\S+)/.exec(output);
          if (read && write) resolve({ readKey: read[1], writeKey: write[1] });
        });
      });
  const firstStart = await Promise.race([started, exited]);
  exited.catch(() => undefined);
  child.stdout.resume();
  return {
    url,
    pid: child.pid,
    dataDir: directory,
    ...firstStart,
    close: () => new Promise((resolve) => {
      child.removeAllListeners('exit');
      child.once('exit', resolve);
      child.kill('SIGTERM');
    }),
  };
}

/**
 * CPU time a process has used, in ms: all its threads, and its main thread (where the HTTP
 * requests are served), from /proc (Linux; clock ticks of 10 ms).
 */
export async function cpuMs(pid) {
  const ticks = async (path) => {
    const fields = (await readFile(path, 'utf8')).split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };
  return { process: await ticks(`/proc/${pid}/stat`), mainThread: await ticks(`/proc/${pid}/task/${pid}/stat`) };
}

/**
 * CPU time of the local PostgreSQL server's processes (their command is `postgres`), in ms, from
 * /proc; null when none runs here. A backend that exits between two readings takes its time
 * with it, so compare readings around work whose connections stay open (the service's pool).
 */
export async function postgresCpuMs() {
  let total = 0;
  let found = false;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    if (!stat.includes(' (postgres) ')) continue;
    const fields = stat.split(') ')[1].split(' ');
    total += (Number(fields[11]) + Number(fields[12])) * 10;
    found = true;
  }
  return found ? total : null;
}

/** Resident memory of a process now and at its peak, in MB, from /proc (Linux). */
export async function memoryMb(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kilobytes = (field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)[1]);
  return { rss: Math.round(kilobytes('VmRSS') / 1024), peak: Math.round(kilobytes('VmHWM') / 1024) };
}

/** One autocannon run; returns requests/s and latency percentiles in ms. */
export async function load(options) {
  const result = await autocannon({ connections: 50, ...(options.amount ? {} : { duration: 10 }), ...options });
  const non2xx = result.non2xx + result.errors + result.timeouts;
  if (non2xx > 0 && process.env.BENCH_FAILURES) console.error(JSON.stringify({ statusCodes: result.statusCodeStats, errors: result.errors, timeouts: result.timeouts }));
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    failed: non2xx,
  };
}

export function row(name, figures, ceiling) {
  const share = ceiling ? `${Math.round((figures.requestsPerSecond / ceiling.requestsPerSecond) * 100)}%` : '';
  return `| ${name} | ${figures.requestsPerSecond} | ${figures.p50} | ${figures.p99} | ${share} | ${figures.failed} |`;
}

export const HEADER = '| scenario | req/s | p50 ms | p99 ms | of ceiling | non-2xx/errors |\n|---|---|---|---|---|---|';
