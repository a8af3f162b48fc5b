import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { AdminClient } from './admin-client';
import { listKeys } from './keys';
import type { CliOutput } from './output';

export type { CliOutput } from './output';

const USAGE = `usage: npm run cms -- <command> [options]

commands:
  projections status                     every read model's position, lag and state
  projections rebuild [name ...]         rebuild read models from the log (all when no name)
  workspaces list
  workspaces create <name>
  keys list <workspaceId>                the workspace's keys, revoked ones included (never secrets)
  keys issue <workspaceId> <policy ...>  policies: ReadAccess, WriteAccess
  keys revoke <workspaceId> <keyId>
  export <workspaceId> [--out <file>]    the workspace's event log and its wrapped data key
                                         as NDJSON (to stdout without --out)
  import <file>                          an export into a store without any events, then
                                         builds the read models; needs the ENCRYPTION_KEY
                                         of the store the export came from
  verify                                 every stream's revisions in order, every event's chain
                                         hash and the latest signed checkpoint, every read model
                                         at the head of the log; exits 1 on a problem
  migrate                                creates or upgrades the event tables (their owner runs
                                         it; the service may then run as an insert-only role)

options:
  --url <address>     the running service (default PUBLIC_BASE_URL)
  --token <token>     the admin token (default ADMIN_TOKEN)
  --out <file>        where export writes
  --json              'projections status' and 'keys list' print JSON instead of a table

With no service answering at --url, 'projections status' and 'projections rebuild' open the
stores themselves.
export, import, verify and migrate always open the stores themselves, with the configuration from
the environment. Stop the service first: the embedded store admits one process.`;

export async function runCli(argv: string[], environment: NodeJS.ProcessEnv, output: CliOutput): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      out: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [area, action, ...rest] = positionals;
  if (values.help || !area) {
    output.log(USAGE);
    return;
  }
  const config = loadConfig(environment);
  // The commands that open the stores load them (and the whole service) only when run, so that
  // --help and the admin API commands start at once.
  switch (area) {
    case 'export':
      return (await import('./export-workspace')).exportWorkspace(config, { workspaceId: action, out: values.out, unexpected: rest }, output);
    case 'import':
      return (await import('./import-workspace')).importWorkspace(config, { file: action, unexpected: rest }, output);
    case 'verify':
      return (await import('./verify-store')).verifyStore(config, { unexpected: positionals.slice(1) }, output);
    case 'migrate':
      return (await import('./migrate-log')).migrateLog(config, { unexpected: positionals.slice(1) }, output);
  }
  const admin = new AdminClient((values.url ?? config.publicBaseUrl).replace(/\/+$/, ''), values.token ?? config.adminToken);
  const print = (value: unknown) => output.log(JSON.stringify(value, null, 2));

  switch (`${area} ${action ?? ''}`.trim()) {
    case 'projections status':
      return (await import('./projection-status')).showProjectionStatus(config, admin, values.json, output);
    case 'projections rebuild': {
      const { rebuildOffline, rebuildThroughService } = await import('./rebuild');
      return (await admin.reachable()) ? rebuildThroughService(admin, rest, output) : rebuildOffline(config, rest, output);
    }
    case 'workspaces list':
      return print(await admin.call('GET', '/workspaces'));
    case 'workspaces create':
      if (!rest[0]) throw new Error('workspaces create needs a name');
      return print(await admin.call('POST', '/workspaces', { name: rest.join(' ') }));
    case 'keys list':
      return listKeys(admin, rest[0], values.json, output);
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
