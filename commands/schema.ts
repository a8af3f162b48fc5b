import { HIDDEN_HEADER_VALUE } from '../src/domain/content-type/definition';
import { conflict, invalidFields } from '../src/domain/errors';
import { ownValue } from '../src/domain/own-value';
import type { SchemaContentType, SchemaDocument, SchemaLocale, SchemaWebhook } from '../src/domain/schema/document';
import { operatorIndexes } from '../src/domain/schema/content-type-changes';
import { planSchema, type SchemaChange, type SchemaPlan, type WorkspaceSchema } from '../src/domain/schema/plan';
import type { CommandContext } from './aggregate';
import type { ContentTypeCommands } from './content-types';
import type { LocaleCommands } from './locales';
import type { WebhookCommands } from './webhooks';

/** Webhook id to the secret a request gives it (read by the CLI from the variable its secretFromEnv names). */
export type WebhookSecrets = Readonly<Record<string, string>>;

export interface SchemaReads {
  /** The workspace's schema as an export shows it. */
  current(workspaceId: string): Promise<WorkspaceSchema>;
  /** The signing secret of a webhook of the workspace. */
  webhookSecret(workspaceId: string, webhookId: string): Promise<string>;
}

/**
 * Schema as code (docs/schema-as-code.md): plans what a schema changes in a workspace, object by
 * object, and applies it through the commands every other write takes, so it is recorded as the
 * same events. Only what differs is written: applying a schema twice appends nothing the second
 * time. Every problem is found before the first write; a deletion, a field removed or retyped
 * is applied only when allowed.
 */
export class SchemaCommands {
  constructor(
    private readonly reads: SchemaReads,
    private readonly contentTypes: ContentTypeCommands,
    private readonly locales: LocaleCommands,
    private readonly webhooks: WebhookCommands,
  ) {}

  plan(workspaceId: string, desired: SchemaDocument, secrets: WebhookSecrets): Promise<SchemaPlan> {
    return this.prepare(workspaceId, desired, secrets).then(({ plan }) => plan);
  }

  async apply(workspaceId: string, desired: SchemaDocument, secrets: WebhookSecrets, allowDestructive: boolean, context: CommandContext): Promise<SchemaPlan> {
    const { plan, schema } = await this.prepare(workspaceId, desired, secrets);
    if (plan.problems.length > 0) throw invalidFields(plan.problems.map((problem) => ({ ...problem, field: `schema.${problem.field}` })));
    const destructive = [...plan.changes.filter((change) => change.destructive).map(describe), ...(await this.rulesBreakingItems(workspaceId, plan, schema))];
    if (destructive.length > 0 && !allowDestructive) {
      throw conflict(`the schema makes ${destructive.length} destructive change(s), applied only when allowed (allowDestructive): ${destructive.join('; ')}`);
    }
    for (const change of plan.changes) await this.perform(workspaceId, change, schema, secrets, context);
    return plan;
  }

  /** The updated types whose new field rules stored items break (docs/field-types.md, "Changing the rules of a type with items"), described. */
  private async rulesBreakingItems(workspaceId: string, plan: SchemaPlan, schema: SchemaDocument): Promise<string[]> {
    const breaking: string[] = [];
    for (const change of plan.changes.filter((candidate) => candidate.kind === 'contentType' && candidate.action === 'update')) {
      const type = find(schema.contentTypes, (entry: SchemaContentType) => entry.definition.key === change.name);
      const report = await this.contentTypes.storedItemsReport(workspaceId, type.definition);
      if (report.breaking) breaking.push(`update contentType ${change.name} (stored items break its rules: ${report.problems.map((problem) => `${problem.field} ${problem.rule} in ${problem.items} ${problem.stage} item(s)`).join(', ') || 'not all items could be checked'})`);
    }
    return breaking;
  }

  private async prepare(workspaceId: string, desired: SchemaDocument, secrets: WebhookSecrets) {
    const current = await this.reads.current(workspaceId);
    const schema = { ...desired, ...(desired.contentTypes ? { contentTypes: await this.withStoredHeadersHidden(workspaceId, desired.contentTypes) } : {}) };
    const given = new Set(Object.keys(secrets));
    const changed = new Set<string>();
    for (const webhook of current.webhooks) {
      const secret = ownValue(secrets, webhook.id);
      if (secret !== undefined && secret !== (await this.reads.webhookSecret(workspaceId, webhook.id))) changed.add(webhook.id);
    }
    const plan = planSchema(current, schema, { given, changed });
    const endpoints = (desired.webhooks ?? []).flatMap((webhook, index) => {
      const problem = this.webhooks.endpointProblem(webhook.endpoint);
      return problem ? [{ field: `webhooks.${index}.endpoint`, message: problem }] : [];
    });
    // A relation may name a type the schema creates (types are saved in dependency order) or one the workspace has.
    const typeKeys = new Set([...current.contentTypes.map((type) => type.definition.key), ...(desired.contentTypes ?? []).map((type) => type.definition.key)]);
    const targets = (desired.contentTypes ?? []).flatMap((type, typeIndex) =>
      type.definition.fields.flatMap((field, fieldIndex) =>
        field.relationContentType !== null && !typeKeys.has(field.relationContentType)
          ? [{ field: `contentTypes.${typeIndex}.definition.fields.${fieldIndex}.relationContentType`, message: `names no content type of the schema or the workspace: ${field.relationContentType}` }]
          : [],
      ),
    );
    return { plan: { ...plan, problems: [...plan.problems, ...endpoints, ...targets] }, schema };
  }

  /**
   * A header value written out that equals the value stored for the action at the same url is
   * compared, and saved, as HIDDEN_HEADER_VALUE: the stored value is kept and nothing changes.
   */
  private async withStoredHeadersHidden(workspaceId: string, types: readonly SchemaContentType[]): Promise<SchemaContentType[]> {
    return Promise.all(
      types.map(async (type) => {
        const written = type.definition.actions.some((action) => Object.values(action.headers).some((value) => value !== HIDDEN_HEADER_VALUE));
        if (!written) return type;
        const stored = await this.contentTypes.storedActionHeaders(workspaceId, type.definition.key);
        const actions = type.definition.actions.map((action) => {
          const kept = stored.get(action.id);
          if (kept?.url !== action.url) return action;
          const headers = Object.fromEntries(Object.entries(action.headers).map(([name, value]) => [name, ownValue(kept.headers, name) === value ? HIDDEN_HEADER_VALUE : value]));
          return { ...action, headers };
        });
        return { ...type, definition: { ...type.definition, actions } };
      }),
    );
  }

  private async perform(workspaceId: string, change: SchemaChange, schema: SchemaDocument, secrets: WebhookSecrets, context: CommandContext): Promise<void> {
    if (change.action === 'unchanged') return;
    const { kind, name } = change;
    if (change.action === 'delete') {
      if (kind === 'webhook') return this.webhooks.change('DeleteWebhook', workspaceId, name, context);
      if (kind === 'contentType') return this.contentTypes.delete(workspaceId, name, context);
      return this.locales.delete(workspaceId, name, context);
    }
    if (kind === 'locale') {
      const locale = find(schema.locales, (entry: SchemaLocale) => entry.code.toLowerCase() === name.toLowerCase());
      // Only a locale made default says so: the one it replaces stops being default by that save.
      return this.locales.save(workspaceId, { code: locale.code, name: locale.name, fallbackCode: locale.fallbackCode, ...(locale.default ? { default: true } : {}) }, context);
    }
    if (kind === 'webhook') {
      const webhook = find(schema.webhooks, (entry: SchemaWebhook) => entry.id === name);
      const target = change.action === 'create' ? { newId: name } : { id: name };
      const { id: _id, secretFromEnv: _variable, ...settings } = webhook;
      await this.webhooks.save(workspaceId, { ...target, ...settings, secret: ownValue(secrets, name) ?? null }, context);
      return;
    }
    const type = find(schema.contentTypes, (entry: SchemaContentType) => entry.definition.key === name);
    if (kind === 'contentType') return this.contentTypes.save(workspaceId, type.definition, context, type.id);
    const wanted = operatorIndexes(type.queryIndexes.indexes, type.queryIndexes.forbidden);
    return this.contentTypes.declareQueryIndexes(workspaceId, name, [...wanted.indexes], [...wanted.forbidden], context);
  }
}

/** The planned object in its section (a plan names only objects of the schema it was made from). */
function find<T>(entries: readonly T[] | undefined, matches: (entry: T) => boolean): T {
  const found = entries?.find(matches);
  if (found === undefined) throw new Error('the schema plan names an object the schema does not hold');
  return found;
}

const describe = (change: SchemaChange) => `${change.action} ${change.kind} ${change.name}${change.action === 'update' ? ` (${change.changes.filter((line) => line.includes('destructive')).join(', ')})` : ''}`;
