import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { AdminClient } from './admin-client';
import { listKeys } from './keys';
import type { CliOutput } from './output';

export type { CliOutput } from './output';

const USAGE = `usage: npm run cms -- <command> [options]

commands:
  projections status                     every read model's position, lag and state
  projections rebuild [name ...] [--skip-chain-check]
                                         rebuild read models from the log (all when no name);
                                         refuses a log whose hash chain is broken unless
                                         --skip-chain-check
  workspaces list
  workspaces create <name>
  keys list <workspaceId>                the workspace's keys, revoked ones included (never secrets)
  keys issue <workspaceId> <policy ...>  policies: ReadAccess, WriteAccess
  keys revoke <workspaceId> <keyId>
  query-indexes list <workspaceId> <type>
                                         the type's query indexes (declared, pinned, advised),
                                         the forbidden ones, and the query shapes the answering
                                         instance served with their cost
  query-indexes shapes <workspaceId> <type>
  query-indexes set <workspaceId> <type> <index ...>
                                         declares the type's query indexes, the whole list
                                         (docs/operations.md "Query indexes"): each index its
                                         fields in order, key or key:desc, separated by commas,
                                         e.g. color,price:desc price,category; a text index
                                         field@prefix, field@prefix-folded, field@substring
  query-indexes pin <workspaceId> <type> <index ...>
                                         keeps advised indexes for good
  query-indexes forbid|allow <workspaceId> <type> <index ...>
                                         forbids the advisor an index (dropping it if advised),
                                         or allows it again
  query-indexes clear <workspaceId> <type>
                                         drops every declared and pinned query index of the type
  export <workspaceId> [--out <file>] [--keys-out <file>]
                                         the workspace's event log as NDJSON (to stdout
                                         without --out); its keys, wrapped, only to the
                                         --keys-out file: keep that file apart
  import <file> [--keys <file> | --without-keys] [--allow-unsigned]
                                         an export into a store without any events, then
                                         builds the read models; needs the ENCRYPTION_KEY
                                         of the store the export came from. With
                                         EXPORT_SIGNING_KEY set, an unsigned export is
                                         refused unless --allow-unsigned (a warning)
  schema export [--workspace <id>] [--out <file>]
                                         the workspace's content types (with their declared
                                         and pinned query indexes), locales and webhooks
                                         (never their secrets) as a versioned JSON schema
                                         (to stdout without --out); the same schema always
                                         gives the same text (docs/schema-as-code.md)
  schema diff --file <file> [--workspace <id>]
                                         what applying the schema would do: create, update,
                                         delete or leave each object, and what differs
  schema apply --file <file> [--workspace <id>] [--dry-run] [--allow-destructive]
                                         makes the workspace match the schema through the
                                         admin API, writing only what differs (a second apply
                                         writes nothing); refuses deletions, removed fields
                                         and changed field types unless --allow-destructive.
                                         A webhook created gets a generated secret (read it
                                         with GET /webhooks/<id>), or the one in the variable
                                         its secretFromEnv names; action header values come
                                         from the variables actionHeadersFromEnv names.
                                         --workspace may be left out when the service has
                                         one workspace
  workspaces shred-key <workspaceId> --reason <text>
                                         shreds the workspace's data key: its encrypted
                                         values and secrets become unreadable for good
  workspaces new-key <workspaceId> --reason <text>
                                         a new data key after a shred (never made silently)
  erase <workspaceId> <type> <itemId> --reason <text>
                                         erases an item of a personal-data content type
                                         (shreds its key; cannot be undone)
  verify [--against <checkpoint file>]   every stream's revisions in order, every event's chain
                                         hash, every signed checkpoint (each names the one
                                         before it and matches the log), the append-only
                                         triggers, every read model at the head of the log;
                                         with --against (default: the newest file in
                                         CHECKPOINT_WITNESS_DIR), that the log extends a
                                         checkpoint kept outside the store. Opens the log
                                         read-only; exits 1 on a problem
  migrate                                creates or upgrades the event tables (their owner runs
                                         it; the service may then run as an insert-only role)
  undo <workspaceId> --actor <actor> | --request <serverRequestId> | --from <time> [--to <time>]
       [--correlation <X-Request-Id> --actor <actor>]
       --reason <text> [--dry-run]       revert every content change of a key (key:<keyId>),
                                         a request (its X-Server-Request-Id; older events
                                         by their X-Request-Id), a client's X-Request-Id
                                         of that actor, or a time window:
                                         restores each item's draft to its version before
                                         the first such change, deletes items they created,
                                         leaves items others changed since (conflicts);
                                         --dry-run lists the plan only

options:
  --url <address>     the running service (default PUBLIC_BASE_URL)
  --token <token>     the admin token (default ADMIN_TOKEN)
  --out <file>        where export and schema export write
  --keys-out <file>   where export writes the workspace's wrapped keys
  --keys <file>       the key file import restores the keys from
  --reason <text>     why erase erases (kept for audit: do not name the person)
  --against <file>    a checkpoint witness file verify proves the log extends
  --workspace <id>    the workspace schema commands work on
  --file <file>       the schema diff and apply read
  --allow-destructive lets schema apply delete and remove
  --json              'projections status', 'keys list', 'query-indexes', 'schema diff|apply' and 'undo' print JSON instead of a table

With no service answering at --url, 'projections status' and 'projections rebuild' open the
stores themselves.
export, import, verify and migrate always open the stores themselves, with the configuration from
the environment. Stop the service first: on the embedded store they refuse while it runs
(one process at a time holds DATA_DIR).`;

export async function runCli(argv: string[], environment: NodeJS.ProcessEnv, output: CliOutput): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      token: { type: 'string' },
      out: { type: 'string' },
      'keys-out': { type: 'string' },
      keys: { type: 'string' },
      'without-keys': { type: 'boolean', default: false },
      'allow-unsigned': { type: 'boolean', default: false },
      reason: { type: 'string' },
      json: { type: 'boolean', default: false },
      actor: { type: 'string' },
      request: { type: 'string' },
      correlation: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      'skip-chain-check': { type: 'boolean', default: false },
      against: { type: 'string' },
      workspace: { type: 'string' },
      file: { type: 'string' },
      'allow-destructive': { type: 'boolean', default: false },
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
      return (await import('./export-workspace')).exportWorkspace(config, { workspaceId: action, out: values.out, keysOut: values['keys-out'], unexpected: rest }, output);
    case 'import':
      return (await import('./import-workspace')).importWorkspace(config, { file: action, keys: values.keys, withoutKeys: values['without-keys'], allowUnsigned: values['allow-unsigned'], unexpected: rest }, output);
    case 'verify':
      return (await import('./verify-store')).verifyStore(config, { against: values.against, unexpected: positionals.slice(1) }, output);
    case 'migrate':
      return (await import('./migrate-log')).migrateLog(config, { unexpected: positionals.slice(1) }, output);
  }
  const admin = new AdminClient((values.url ?? config.publicBaseUrl).replace(/\/+$/, ''), values.token ?? config.adminToken);
  const print = (value: unknown) => output.log(JSON.stringify(value, null, 2));
  if (area === 'erase') return (await import('./erase')).eraseItem(admin, [action, ...rest], values.reason, output);

  if (area === 'schema') {
    const options = { action, workspace: values.workspace, file: values.file, out: values.out, dryRun: values['dry-run'], allowDestructive: values['allow-destructive'], json: values.json, unexpected: rest };
    return (await import('./schema')).schemaCommand(admin, options, environment, output);
  }

  if (area === 'query-indexes') return (await import('./query-indexes')).queryIndexesCommand(admin, action, rest, values.json, output);

  if (area === 'undo') {
    const selector = { actor: values.actor, requestId: values.request, correlationId: values.correlation, from: values.from, to: values.to };
    const options = { workspaceId: action, selector, reason: values.reason, dryRun: values['dry-run'], json: values.json };
    return (await import('./content-undo')).undoContentChanges(admin, options, output);
  }
  switch (`${area} ${action ?? ''}`.trim()) {
    case 'projections status':
      return (await import('./projection-status')).showProjectionStatus(config, admin, values.json, output);
    case 'projections rebuild': {
      const { rebuildOffline, rebuildThroughService } = await import('./rebuild');
      const options = { skipChainCheck: values['skip-chain-check'] };
      return (await admin.reachable()) ? rebuildThroughService(admin, rest, options, output) : rebuildOffline(config, rest, options, output);
    }
    case 'workspaces list':
      return print(await admin.call('GET', '/workspaces'));
    case 'workspaces create':
      if (!rest[0]) throw new Error('workspaces create needs a name');
      return print(await admin.call('POST', '/workspaces', { name: rest.join(' ') }));
    case 'workspaces shred-key':
    case 'workspaces new-key': {
      if (!rest[0] || rest.length > 1) throw new Error(`${area} ${action} needs one workspace id`);
      if (!values.reason?.trim()) throw new Error(`${area} ${action} needs --reason <text>`);
      const path = `/workspaces/${encodeURIComponent(rest[0])}/data-key${action === 'shred-key' ? '/shred' : ''}`;
      await admin.call('POST', path, { reason: values.reason });
      return output.log(action === 'shred-key' ? `shredded the data key of workspace ${rest[0]}` : `created a new data key for workspace ${rest[0]}`);
    }
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
