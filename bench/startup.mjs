// A newcomer's first hour, timed: a fresh clone of this repository (its committed HEAD) in a
// temporary folder, `npm ci` there, then `npm start` to the first 200 of /health/ready (a
// first start: it compiles dist/ and sets up an empty store), a restart on the same data, a
// restart after one source file changed, and `npm run cms -- --help`. Each step reports its
// wall time and the CPU time of its processes (user + system, children included): on a shared
// machine the CPU time is the figure that carries over to an idle one.
// Linux only (/proc, GNU /usr/bin/time). Usage: node bench/startup.mjs [runs of cms --help, default 3]
import { execFile, execFileSync, spawn } from 'node:child_process';
import { appendFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const REPO = join(import.meta.dirname, '..');
const helpRuns = Number(process.argv[2] ?? 3);
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']));
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/** Runs a command to its end under GNU time: wall and CPU milliseconds. */
async function timed(command, args, cwd) {
  const { stderr } = await run('/usr/bin/time', ['-f', '%e %U %S', command, ...args], { cwd, maxBuffer: 64 * 1024 * 1024 });
  const [wall, user, system] = stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { wall: wall * 1000, cpu: (user + system) * 1000 };
}

/** CPU time so far of every process in a process group, with their finished children. */
async function groupCpuMs(groupId) {
  let ticks = 0;
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command name: state, ppid, pgrp, ... utime (12th), stime, cutime, cstime.
    if (Number(fields[2]) === groupId) ticks += fields.slice(11, 15).map(Number).reduce((sum, value) => sum + value, 0);
  }
  return (ticks / TICKS_PER_SECOND) * 1000;
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
  const readyAfter = { wall: Date.now() - startedAt, cpu: await groupCpuMs(child.pid) };
  process.kill(-child.pid, 'SIGTERM');
  await exited;
  return readyAfter;
}

const folder = await mkdtemp(join(tmpdir(), 'cms-clone-'));
const dataDir = join(folder, 'data');
const port = 18000 + Math.floor(Math.random() * 1000);
try {
  const clone = await timed('git', ['clone', '--quiet', REPO, folder]);
  const install = await timed('npm', ['ci', '--no-audit', '--no-fund'], folder);
  const firstStart = await startUntilReady(folder, dataDir, port);
  const restart = await startUntilReady(folder, dataDir, port);
  await appendFile(join(folder, 'src', 'logger.ts'), '\n');
  const restartAfterEdit = await startUntilReady(folder, dataDir, port);
  const helps = [];
  for (let index = 0; index < helpRuns; index += 1) helps.push(await timed('npm', ['run', '--silent', 'cms', '--', '--help'], folder));
  const help = helps.reduce((best, next) => (next.wall < best.wall ? next : best));
  const total = { wall: clone.wall + install.wall + firstStart.wall, cpu: clone.cpu + install.cpu + firstStart.cpu };

  console.log(`load average at the end: ${loadavg().map((load) => load.toFixed(1)).join(' ')}`);
  console.log('| step | wall time | CPU time |');
  console.log('|---|---|---|');
  const row = (step, figures) => console.log(`| ${step} | ${seconds(figures.wall)} | ${seconds(figures.cpu)} |`);
  row('git clone', clone);
  row('npm ci', install);
  row('npm start, first start (compiles dist/, sets up the store) to /health/ready 200', firstStart);
  row('**fresh clone to first answer** (the three above)', total);
  row('**npm start again**, nothing changed, to /health/ready 200', restart);
  row('npm start after one source file changed', restartAfterEdit);
  row(`**npm run cms -- --help** (best of ${helpRuns})`, help);
} finally {
  await rm(folder, { recursive: true, force: true });
}
