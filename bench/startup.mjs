// A newcomer's first hour, timed: a fresh clone of this repository (its committed HEAD) in a
// temporary folder, `npm ci` there, then `npm start` to the first 200 of /health/ready (a
// first start: it compiles dist/ and sets up an empty store), a restart on the same data, a
// restart after one source file changed, and `npm run cms -- --help`.
// Usage: node bench/startup.mjs [runs of cms --help, default 3]
import { execFile, spawn } from 'node:child_process';
import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO = join(import.meta.dirname, '..');
const helpRuns = Number(process.argv[2] ?? 3);
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

async function timed(work) {
  const startedAt = Date.now();
  await work();
  return Date.now() - startedAt;
}

/** `npm start` in `folder` until /health/ready answers 200, then SIGTERM to its process group. */
async function startUntilReady(folder, dataDir, port) {
  const startedAt = Date.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: folder,
    detached: true,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, ADMIN_TOKEN: 'bench-admin-token-0123456789', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (;;) {
    try {
      const answer = await fetch(`http://127.0.0.1:${port}/health/ready`, { signal: AbortSignal.timeout(1000) });
      if (answer.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - startedAt > 300_000) throw new Error('npm start did not become ready within 300 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const readyAfter = Date.now() - startedAt;
  process.kill(-child.pid, 'SIGTERM');
  await exited;
  return readyAfter;
}

const folder = await mkdtemp(join(tmpdir(), 'cms-clone-'));
const dataDir = join(folder, 'data');
const port = 18000 + Math.floor(Math.random() * 1000);
try {
  const clone = await timed(() => run('git', ['clone', '--quiet', REPO, folder]));
  const install = await timed(() => run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: folder, maxBuffer: 64 * 1024 * 1024 }));
  const firstStart = await startUntilReady(folder, dataDir, port);
  const restart = await startUntilReady(folder, dataDir, port);
  await appendFile(join(folder, 'src', 'logger.ts'), '\n');
  const restartAfterEdit = await startUntilReady(folder, dataDir, port);
  const helps = [];
  for (let index = 0; index < helpRuns; index += 1) helps.push(await timed(() => run('npm', ['run', '--silent', 'cms', '--', '--help'], { cwd: folder })));

  console.log(`load average at the end: ${loadavg().map((load) => load.toFixed(1)).join(' ')}`);
  console.log('| step | wall time |');
  console.log('|---|---|');
  console.log(`| git clone | ${seconds(clone)} |`);
  console.log(`| npm ci | ${seconds(install)} |`);
  console.log(`| npm start, first start (compiles dist/, sets up the store) to /health/ready 200 | ${seconds(firstStart)} |`);
  console.log(`| fresh clone to first answer (clone + npm ci + first start) | ${seconds(clone + install + firstStart)} |`);
  console.log(`| npm start again, nothing changed | ${seconds(restart)} |`);
  console.log(`| npm start after one source file changed | ${seconds(restartAfterEdit)} |`);
  console.log(`| npm run cms -- --help (best of ${helpRuns}) | ${seconds(Math.min(...helps))} |`);
} finally {
  await rm(folder, { recursive: true, force: true });
}
