import { parseArgs } from 'node:util';
import { SingleBar } from 'cli-progress';
import pino from 'pino';
import { readModelProjectors } from '../../projections/read-models';
import { rebuildReadModels } from '../../projections/rebuild';
import { loadConfig, type Config } from '../config';
import { buildContainer, TOKENS } from '../container';

const USAGE = `usage: npm run cms -- <command> [options]

commands:
  projections status                     checkpoint of every read model against the log head
  projections rebuild [name ...]         rebuild read models from the log (all when no name)
  workspaces list
  workspaces create <name>
  keys issue <workspaceId> <policy ...>  policies: ReadAccess, WriteAccess
  keys revoke <workspaceId> <keyId>

options:
  --url <address>     the running service (default PUBLIC_BASE_URL)
  --token <token>     the admin token (default ADMIN_TOKEN)

With no service answering at --url, 'projections rebuild' opens the stores itself
(stop the service first: the embedded store admits one process).`;

class AdminClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string | undefined,
  ) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    if (!this.token) throw new Error('the admin token is needed: pass --token or set ADMIN_TOKEN');
    const response = await fetch(`${this.baseUrl}/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => ({}))) as { detail?: string };
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${answer.detail ?? ''}`.trim());
    return answer as T;
  }

  async reachable(): Promise<boolean> {
    try {
      await fetch(`${this.baseUrl}/health/live`, { signal: AbortSignal.timeout(2000) });
      return true;
    } catch {
      return false;
    }
  }
}

interface RebuildStatus {
  state: 'running' | 'succeeded' | 'failed';
  phase: string;
  eventsProcessed: number;
  fraction: number;
  error: string | null;
}

function progressBar(output: CliOutput): SingleBar {
  return new SingleBar({
    stream: output.progress,
    // Also when piped to a log: a progress line every second instead of a redrawn bar.
    noTTYOutput: true,
    notTTYSchedule: 1000,
    format: 'rebuild [{bar}] {percentage}% | {events} events | {phase} | ETA {eta_formatted}',
    hideCursor: true,
    etaBuffer: 50,
  });
}

async function rebuildThroughService(admin: AdminClient, names: string[], output: CliOutput): Promise<void> {
  await admin.call('POST', '/projections/rebuild', { projections: names });
  const bar = progressBar(output);
  bar.start(1000, 0, { events: 0, phase: 'replaying' });
  for (;;) {
    const status = await admin.call<RebuildStatus>('GET', '/projections/rebuild');
    bar.update(Math.round(status.fraction * 1000), { events: status.eventsProcessed, phase: status.phase });
    if (status.state !== 'running') {
      bar.stop();
      if (status.state === 'failed') throw new Error(`rebuild failed: ${status.error}`);
      output.log(`rebuilt from ${status.eventsProcessed} events`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function rebuildOffline(config: Config, names: string[], output: CliOutput): Promise<void> {
  const unknown = names.filter((name) => !readModelProjectors.some((projector) => projector.name === name));
  if (unknown.length > 0) throw new Error(`unknown projection: ${unknown.join(', ')}`);
  const projectors = names.length === 0 ? readModelProjectors : readModelProjectors.filter((projector) => names.includes(projector.name));
  const container = await buildContainer(config, pino({ level: 'warn' }));
  const bar = progressBar(output);
  bar.start(1000, 0, { events: 0, phase: 'replaying' });
  let processed = 0;
  try {
    await rebuildReadModels(container.resolve(TOKENS.eventStore), container.resolve(TOKENS.readStore), projectors, null, (progress) => {
      processed = progress.eventsProcessed;
      const fraction = progress.head.prepare === 0n ? 1 : Number(progress.position.prepare) / Number(progress.head.prepare);
      bar.update(Math.round((progress.phase === 'done' ? 1 : fraction) * 1000), { events: processed, phase: progress.phase });
    });
  } finally {
    bar.stop();
    for (const close of container.resolve(TOKENS.closers)) await close();
  }
  output.log(`rebuilt ${projectors.map((projector) => projector.name).join(', ')} from ${processed} events (offline)`);
}

/** Where the CLI writes: the terminal, or a test's buffer. */
export interface CliOutput {
  log(line: string): void;
  /** Progress bars draw here (a TTY stream in real use). */
  readonly progress: NodeJS.WritableStream;
}

export async function runCli(argv: string[], environment: NodeJS.ProcessEnv, output: CliOutput): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { url: { type: 'string' }, token: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [area, action, ...rest] = positionals;
  if (values.help || !area) {
    output.log(USAGE);
    return;
  }
  const config = loadConfig(environment);
  const admin = new AdminClient((values.url ?? config.publicBaseUrl).replace(/\/+$/, ''), values.token ?? config.adminToken);
  const print = (value: unknown) => output.log(JSON.stringify(value, null, 2));

  switch (`${area} ${action ?? ''}`.trim()) {
    case 'projections status':
      return print(await admin.call('GET', '/projections'));
    case 'projections rebuild':
      return (await admin.reachable()) ? rebuildThroughService(admin, rest, output) : rebuildOffline(config, rest, output);
    case 'workspaces list':
      return print(await admin.call('GET', '/workspaces'));
    case 'workspaces create':
      if (!rest[0]) throw new Error('workspaces create needs a name');
      return print(await admin.call('POST', '/workspaces', { name: rest.join(' ') }));
    case 'keys issue':
      if (!rest[0] || rest.length < 2) throw new Error('keys issue needs a workspace id and at least one policy');
      return print(await admin.call('POST', `/workspaces/${rest[0]}/api-keys`, { name: 'cli', policies: rest.slice(1) }));
    case 'keys revoke':
      if (!rest[0] || !rest[1]) throw new Error('keys revoke needs a workspace id and a key id');
      return print(await admin.call('DELETE', `/workspaces/${rest[0]}/api-keys/${rest[1]}`));
    default:
      throw new Error(`unknown command: ${positionals.join(' ')}\n\n${USAGE}`);
  }
}
