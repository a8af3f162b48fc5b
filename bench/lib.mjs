// Shared pieces of the benchmarks: the bare-express ceiling, the service as a child
// process, and autocannon runs bounded in time against 127.0.0.1 only.
import { spawn } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import express from 'express';

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

/** The built service (dist/) in its own process, on a fresh store. */
export async function startService(environment = {}) {
  const dataDir = await mkdtemp(join(tmpdir(), 'cms-bench-'));
  const port = 18000 + Math.floor(Math.random() * 1000);
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, ADMIN_TOKEN, LOG_LEVEL: 'warn', ...environment },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const firstStart = await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const read = /read key:\s+(\S+)/.exec(output);
      const write = /write key:\s+(\S+)/.exec(output);
      if (read && write) resolve({ readKey: read[1], writeKey: write[1] });
    });
    child.once('exit', (code) => reject(new Error(`service exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    ...firstStart,
    close: () => new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    }),
  };
}

/** One autocannon run; returns requests/s and latency percentiles in ms. */
export async function load(options) {
  const result = await autocannon({ connections: 50, duration: 10, ...options });
  const non2xx = result.non2xx + result.errors + result.timeouts;
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
