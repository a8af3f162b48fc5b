import { HIDDEN_HEADER_VALUE } from '../content-type/definition';
import { queryIndexProblems } from '../content-type/query-indexes';
import type { FieldProblem } from '../errors';
import { contentTypeDifference, operatorIndexes, queryIndexDifference } from './content-type-changes';
import { dependencyOrder } from './dependency-order';
import { canonicalEventTypes, type SchemaContentType, type SchemaDocument, type SchemaLocale, type SchemaWebhook } from './document';
import { sameJson } from './same-json';

export const SCHEMA_OBJECT_KINDS = ['locale', 'contentType', 'queryIndexes', 'webhook'] as const;
export const SCHEMA_ACTIONS = ['create', 'update', 'delete', 'unchanged'] as const;

/** One object of the schema and what applying does to it. */
export interface SchemaChange {
  readonly kind: (typeof SCHEMA_OBJECT_KINDS)[number];
  /** The content type key, locale code or webhook id. */
  readonly name: string;
  readonly action: (typeof SCHEMA_ACTIONS)[number];
  /** What differs, in words; empty when unchanged. */
  readonly changes: readonly string[];
  /** Applying it loses stored values or configuration: a deletion, a field removed or of another type. */
  readonly destructive: boolean;
}

export interface SchemaPlan {
  /** In the order applying takes them: locales, content types and their indexes, webhooks, then deletions. */
  readonly changes: readonly SchemaChange[];
  /** Why the schema cannot be applied as it is, by path in the schema; nothing is applied while there is one. */
  readonly problems: readonly FieldProblem[];
}

/** The workspace's schema as it is, every section present (what an export holds). */
export type WorkspaceSchema = Required<Pick<SchemaDocument, 'contentTypes' | 'locales' | 'webhooks'>>;

/** Webhook ids whose secret the request gives, and those among them whose stored secret differs. */
export interface GivenSecrets {
  readonly given: ReadonlySet<string>;
  readonly changed: ReadonlySet<string>;
}

interface SectionPlan {
  readonly upserts: SchemaChange[];
  readonly deletions: SchemaChange[];
}

const NO_CHANGE: SectionPlan = { upserts: [], deletions: [] };

/** What applying `desired` to a workspace whose schema is `current` does, object by object; a section `desired` leaves out is left alone. */
export function planSchema(current: WorkspaceSchema, desired: SchemaDocument, secrets: GivenSecrets): SchemaPlan {
  const problems: FieldProblem[] = [];
  const locales = desired.locales ? planLocales(current.locales, desired.locales, problems) : NO_CHANGE;
  const types = desired.contentTypes ? planContentTypes(current.contentTypes, desired.contentTypes, problems) : NO_CHANGE;
  const webhooks = desired.webhooks ? planWebhooks(current.webhooks, desired.webhooks, secrets) : NO_CHANGE;
  // Webhooks name content types, content types are translated into locales: each goes before what it needs.
  const changes = [...locales.upserts, ...types.upserts, ...webhooks.upserts, ...webhooks.deletions, ...types.deletions, ...locales.deletions];
  return { changes, problems };
}

const change = (kind: SchemaChange['kind'], name: string, action: SchemaChange['action'], changes: readonly string[] = [], destructive = false): SchemaChange => ({
  kind,
  name,
  action,
  changes,
  destructive,
});

const updateOrUnchanged = (kind: SchemaChange['kind'], name: string, changes: readonly string[], destructive = false) =>
  change(kind, name, changes.length > 0 ? 'update' : 'unchanged', changes, destructive);

function planLocales(current: readonly SchemaLocale[], desired: readonly SchemaLocale[], problems: FieldProblem[]): SectionPlan {
  const keyOf = (locale: SchemaLocale) => locale.code.toLowerCase();
  const fallbackOf = (locale: SchemaLocale) => (locale.fallbackCode === null ? [] : [locale.fallbackCode.toLowerCase()]);
  const before = new Map(current.map((locale) => [keyOf(locale), locale]));
  // A fallback is saved before the locales that fall back to it.
  const upserts = dependencyOrder(desired, keyOf, fallbackOf).map((locale) => {
    const stored = before.get(keyOf(locale));
    if (!stored) return change('locale', locale.code, 'create');
    const changes: string[] = [];
    if (stored.name !== locale.name) changes.push(`name: ${JSON.stringify(stored.name)} -> ${JSON.stringify(locale.name)}`);
    if (!sameJson(fallbackOf(stored), fallbackOf(locale))) changes.push(`fallbackCode: ${stored.fallbackCode} -> ${locale.fallbackCode}`);
    if (stored.default !== locale.default) changes.push(`default: ${stored.default} -> ${locale.default}`);
    return updateOrUnchanged('locale', stored.code, changes);
  });
  const wanted = new Set(desired.map(keyOf));
  const removed = current.filter((locale) => !wanted.has(keyOf(locale)));
  const defaultLocale = current.find((locale) => locale.default);
  if (desired.length === 0 && defaultLocale) problems.push({ field: 'locales', message: `cannot remove the default locale ${defaultLocale.code}: keep at least one locale` });
  // A locale is deleted after those that fall back to it.
  const deletions = dependencyOrder(removed, keyOf, fallbackOf)
    .reverse()
    .map((locale) => change('locale', locale.code, 'delete', ['destructive: its translations are no longer served'], true));
  return { upserts, deletions };
}

function planContentTypes(current: readonly SchemaContentType[], desired: readonly SchemaContentType[], problems: FieldProblem[]): SectionPlan {
  const before = new Map(current.map((type) => [type.definition.key, type]));
  desired.forEach((type, index) => problems.push(...typeProblems(type, before.get(type.definition.key), `contentTypes.${index}`)));
  const relationsOf = (type: SchemaContentType) => type.definition.fields.flatMap((field) => (field.relationContentType ? [field.relationContentType] : []));
  const upserts: SchemaChange[] = [];
  // A type is saved after the types its relations point to (a cycle is broken where it closes).
  for (const type of dependencyOrder(desired, (entry) => entry.definition.key, relationsOf)) {
    const key = type.definition.key;
    const stored = before.get(key);
    if (stored) {
      const { changes, destructive } = contentTypeDifference(stored.definition, type.definition);
      upserts.push(updateOrUnchanged('contentType', key, changes, destructive));
    } else {
      upserts.push(change('contentType', key, 'create', [`${type.definition.fields.length} fields`]));
    }
    const now = stored ? operatorIndexes(stored.queryIndexes.indexes, stored.queryIndexes.forbidden) : { indexes: [], forbidden: [] };
    const wanted = operatorIndexes(type.queryIndexes.indexes, type.queryIndexes.forbidden);
    if (now.indexes.length + now.forbidden.length + wanted.indexes.length + wanted.forbidden.length === 0) continue;
    const { changes } = queryIndexDifference(now, wanted);
    upserts.push(stored ? updateOrUnchanged('queryIndexes', key, changes) : change('queryIndexes', key, 'create', changes));
  }
  const wanted = new Set(desired.map((type) => type.definition.key));
  const deletions = current
    .filter((type) => !wanted.has(type.definition.key))
    .map((type) => change('contentType', type.definition.key, 'delete', ['destructive: refused while the type has content items'], true));
  return { upserts, deletions };
}

/** Query indexes that name no indexable field, and hidden action headers the workspace holds no value for. */
function typeProblems(type: SchemaContentType, stored: SchemaContentType | undefined, at: string): FieldProblem[] {
  const problems = queryIndexProblems(operatorIndexes(type.queryIndexes.indexes, []).indexes, type.definition, `${at}.queryIndexes.indexes`);
  type.definition.actions.forEach((action, index) => {
    const storedAction = stored?.definition.actions.find((candidate) => candidate.id === action.id);
    for (const [name, value] of Object.entries(action.headers)) {
      if (value !== HIDDEN_HEADER_VALUE || (storedAction?.url === action.url && Object.hasOwn(storedAction.headers, name))) continue;
      problems.push({
        field: `${at}.definition.actions.${index}.headers.${name}`,
        message: `is ${HIDDEN_HEADER_VALUE}, which keeps the value the workspace holds for action ${action.id} at this url, and it holds none: name a variable holding it in actionHeadersFromEnv`,
      });
    }
  });
  return problems;
}

function planWebhooks(current: readonly SchemaWebhook[], desired: readonly SchemaWebhook[], secrets: GivenSecrets): SectionPlan {
  const before = new Map(current.map((webhook) => [webhook.id, webhook]));
  const upserts = desired.map((webhook) => {
    const stored = before.get(webhook.id);
    if (!stored) return change('webhook', webhook.id, 'create', [secrets.given.has(webhook.id) ? 'secret: the one given' : 'secret: generated']);
    const [now, wanted] = [webhookSettings(stored), webhookSettings(webhook)];
    const changed: string[] = (Object.keys(wanted) as (keyof typeof wanted)[]).filter((name) => !sameJson(now[name], wanted[name]));
    if (secrets.changed.has(webhook.id)) changed.push('secret');
    return updateOrUnchanged('webhook', webhook.id, changed.map((name) => `${name} changed`));
  });
  const wanted = new Set(desired.map((webhook) => webhook.id));
  const deletions = current
    .filter((webhook) => !wanted.has(webhook.id))
    .map((webhook) => change('webhook', webhook.id, 'delete', ['destructive: its secret is gone for good'], true));
  return { upserts, deletions };
}

/** What a webhook's save sets, in one spelling. */
export const webhookSettings = (webhook: SchemaWebhook) => ({
  endpoint: webhook.endpoint,
  eventTypes: canonicalEventTypes(webhook.eventTypes),
  useCustomPayload: webhook.useCustomPayload,
  customPayload: webhook.customPayload,
  description: webhook.description,
  errorEmailTo: webhook.errorEmailTo,
  enabled: webhook.enabled,
});
