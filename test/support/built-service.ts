import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { BUILT_MAIN, ensureBuilt, REPO_ROOT } from './build';
import { freePort } from './free-port';
import { copyPgliteTemplate } from './pglite-template';

/** Variables of the test's own environment that would point the service at another store. */
const STORE_VARIABLES = ['DATABASE_URL', 'EVENT_STORE', 'READ_STORE', 'BLOB_STORE', 'EVENTSTORE_URL', 'MONGODB_URL', 'S3_ENDPOINT', 'DATA_DIR', 'ADMIN_TOKEN'];
// A first start on a busy 2-core machine (the CI run with two test workers) has taken over 30 s.
const READY_TIMEOUT_MS = 60_000;
/** Output kept for the error message of a service that fails. */
const OUTPUT_KEPT = 20_000;

export interface FirstStart {
  readonly readKey: string;
  readonly writeKey: string;
  readonly workspaceId: string;
}

export interface BuiltService {
  readonly url: string;
  readonly process: ChildProcess;
  /** The keys printed on a first start; null on later starts. */
  readonly firstStart: FirstStart | null;
  /** From spawning the process to /health/ready answering 200. */
  readonly readyAfterMs: number;
  /** Resolves with the exit code (null when a signal ended it) and the signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What it printed so far (the last part). */
  output(): string;
}

/**
 * The built service (`node dist/src/main.js`, built first when out of date) in its own process,
 * on a free port, with only the store `environment` given: a test may kill it like an operator would.
 * It is started when /health/ready answers 200 and, on a `firstStart`, it has printed its keys.
 */
export async function startBuiltService(environment: Record<string, string>, options: { firstStart?: boolean } = {}): Promise<BuiltService> {
  if (options.firstStart && environment.DATA_DIR && !environment.DATABASE_URL) await copyPgliteTemplate(join(environment.DATA_DIR, 'pglite'));
  const { child, exited, url, output, startedAt } = await spawnBuilt(BUILT_MAIN, [], environment);

  const key = (name: string) => new RegExp(`${name}:\\s+(\\S+)`).exec(output())?.[1];
  const keys = (): FirstStart | null => {
    const [readKey, writeKey, workspaceId] = [key('read key'), key('write key'), key('default workspace')];
    return readKey && writeKey && workspaceId ? { readKey, writeKey, workspaceId } : null;
  };
  const deadline = startedAt + READY_TIMEOUT_MS;
  let ended = false;
  void exited.then(() => (ended = true));
  while (!((!options.firstStart || keys()) && (await isReady(url)))) {
    if (ended || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the built service did not become ready:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const readyAfterMs = Date.now() - startedAt;
  return {
    url,
    process: child,
    firstStart: keys(),
    readyAfterMs,
    exited,
    output,
  };
}

/** A built entry (the service or the CLI) run to its end with only the store `environment`: its exit code and what it printed. */
export async function runBuilt(entry: string, args: string[], environment: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const { exited, output } = await spawnBuilt(entry, args, environment);
  const { code } = await exited;
  return { code, output: output() };
}

async function spawnBuilt(entry: string, args: string[], environment: Record<string, string>) {
  await ensureBuilt();
  const port = await freePort();
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !STORE_VARIABLES.includes(name)));
  const startedAt = Date.now();
  const child = spawn(process.execPath, [entry, ...args], {
    cwd: REPO_ROOT,
    env: { ...inherited, LOG_LEVEL: 'warn', RATE_LIMIT_PER_SECOND: '0', ...environment, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { child, exited, url: `http://127.0.0.1:${port}`, output: () => output, startedAt };
}

async function isReady(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/health/ready`, { signal: AbortSignal.timeout(2000) })).status === 200;
  } catch {
    return false;
  }
}
