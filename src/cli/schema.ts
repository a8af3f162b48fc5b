import { readFile, writeFile } from 'node:fs/promises';
import type { FieldProblem } from '../domain/errors';
import { ownValue } from '../domain/own-value';
import { schemaDocument, type SchemaDocumentInput } from '../domain/schema/document';
import type { SchemaChange, SchemaPlan } from '../domain/schema/plan';
import type { AdminClient } from './admin-client';
import type { CliOutput } from './output';
import { printSchemaPlan } from './schema-plan-output';

export interface SchemaOptions {
  readonly action: string | undefined;
  readonly workspace: string | undefined;
  readonly file: string | undefined;
  readonly out: string | undefined;
  readonly dryRun: boolean;
  readonly allowDestructive: boolean;
  readonly json: boolean;
  readonly unexpected: readonly string[];
}

type AnsweredPlan = SchemaPlan & { readonly workspaceId: string; readonly applied: boolean };

/**
 * `schema export|diff|apply`: a workspace's content types, query indexes, locales and webhooks
 * as a file, and that file compared with or applied to a workspace of a running service,
 * through the admin API (docs/schema-as-code.md).
 */
export async function schemaCommand(admin: AdminClient, options: SchemaOptions, environment: NodeJS.ProcessEnv, output: CliOutput): Promise<void> {
  if (options.unexpected.length > 0) throw new Error(`schema ${options.action ?? ''} takes no arguments besides its options: ${options.unexpected.join(' ')}`);
  if (options.action === 'export') return exportSchema(admin, options, output);
  if (options.action !== 'diff' && options.action !== 'apply') throw new Error(`unknown schema command: ${options.action ?? '(none)'}; export, diff or apply`);
  if (!options.file) throw new Error(`schema ${options.action} needs --file <schema.json>`);
  const written = await readSchema(options.file);
  const body = { schema: withActionHeadersFromEnvironment(written, environment), webhookSecrets: secretsFromEnvironment(written, environment) };
  const path = `/workspaces/${encodeURIComponent(await workspaceOf(admin, options.workspace))}/schema`;
  const plan = await admin.call<AnsweredPlan>('POST', `${path}/plan`, body);
  const destructive = plan.changes.filter((change) => change.destructive);
  const refused = options.action === 'apply' && destructive.length > 0 && !options.allowDestructive;
  if (options.action === 'diff' || options.dryRun || refused || plan.problems.length > 0 || !plan.changes.some(changes)) {
    report(plan, options, output);
    if (plan.problems.length > 0) throw new Error(`the schema cannot be applied: ${plan.problems.length} problem(s), listed above`);
    if (refused) throw new Error(`refused: ${destructive.length} destructive change(s), listed above; apply them with --allow-destructive`);
    if (options.action === 'apply' && !options.json) output.log(options.dryRun ? 'dry run: nothing was changed' : 'nothing to change');
    return;
  }
  const applied = await admin.call<AnsweredPlan>('PUT', path, { ...body, allowDestructive: options.allowDestructive });
  report(applied, options, output);
}

async function exportSchema(admin: AdminClient, options: SchemaOptions, output: CliOutput): Promise<void> {
  const workspaceId = await workspaceOf(admin, options.workspace);
  const exported = await admin.call<SchemaDocumentInput>('GET', `/workspaces/${encodeURIComponent(workspaceId)}/schema`);
  const text = JSON.stringify(exported, null, 2);
  if (!options.out) return output.log(text);
  await writeFile(options.out, `${text}\n`);
  const count = (list: readonly unknown[] | undefined) => list?.length ?? 0;
  output.log(`wrote the schema of workspace ${workspaceId} to ${options.out}: ${count(exported.contentTypes)} content types, ${count(exported.locales)} locales, ${count(exported.webhooks)} webhooks (without their secrets)`);
}

/** The file parsed as the service will: a schema of another format or version, or a wrong value, is named here first. */
async function readSchema(file: string): Promise<SchemaDocumentInput> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read the schema ${file}: ${(error as Error).message}`, { cause: error });
  }
  const checked = schemaDocument.safeParse(parsed);
  if (!checked.success) {
    const problems = checked.error.issues.slice(0, 20).map((issue) => `  ${issue.path.join('.') || '(the file)'}: ${issue.message}`);
    throw new Error(`${file} is not a schema this service reads:\n${problems.join('\n')}`);
  }
  // Sent as written: the service parses it again and fills the same defaults.
  return parsed as SchemaDocumentInput;
}

/** Each webhook's secret from the variable its secretFromEnv names; one named but unset is an error before anything is sent. */
function secretsFromEnvironment(schema: SchemaDocumentInput, environment: NodeJS.ProcessEnv): Record<string, string> {
  const secrets: Record<string, string> = {};
  for (const webhook of schema.webhooks ?? []) {
    if (webhook.secretFromEnv) secrets[webhook.id] = variableValue(environment, webhook.secretFromEnv, `webhook ${webhook.id}, its secret`);
  }
  return secrets;
}

/** The schema with each header value that actionHeadersFromEnv names read from its variable; one named but unset is an error before anything is sent. */
function withActionHeadersFromEnvironment(schema: SchemaDocumentInput, environment: NodeJS.ProcessEnv): SchemaDocumentInput {
  const contentTypes = schema.contentTypes?.map((type) => {
    const fromEnvironment = type.actionHeadersFromEnv;
    if (!fromEnvironment) return type;
    const actions = type.definition.actions?.map((action) => {
      const headers = { ...action.headers };
      for (const [name, variable] of Object.entries(ownValue(fromEnvironment, action.id) ?? {})) headers[name] = variableValue(environment, variable, `action ${action.id} of ${type.definition.key}, header ${name}`);
      return { ...action, headers };
    });
    return { ...type, definition: { ...type.definition, actions } };
  });
  return contentTypes ? { ...schema, contentTypes } : schema;
}

function variableValue(environment: NodeJS.ProcessEnv, variable: string, what: string): string {
  const value = ownValue(environment, variable);
  if (!value) throw new Error(`${what}: the schema reads it from ${variable}, which is not set`);
  return value;
}

/** The workspace named, or the only one there is. */
async function workspaceOf(admin: AdminClient, given: string | undefined): Promise<string> {
  if (given) return given;
  const workspaces = await admin.call<{ id: string; name: string }[]>('GET', '/workspaces');
  if (workspaces.length === 1) return workspaces[0]!.id;
  const listed = workspaces.slice(0, 10).map((workspace) => `${workspace.id} (${workspace.name})`);
  throw new Error(`the service has ${workspaces.length} workspaces: name one with --workspace <id>${listed.length > 0 ? `: ${listed.join(', ')}` : ''}`);
}

const changes = (change: SchemaChange) => change.action !== 'unchanged';

function report(plan: AnsweredPlan, options: SchemaOptions, output: CliOutput): void {
  if (options.json) return output.log(JSON.stringify(plan, null, 2));
  printSchemaPlan(plan.changes, plan.applied, output);
  printProblems(plan.problems, output);
}

function printProblems(problems: readonly FieldProblem[], output: CliOutput): void {
  if (problems.length === 0) return;
  output.log('problems (nothing is applied while there is one):');
  for (const problem of problems) output.log(`  ${problem.field}: ${problem.message}`);
}
