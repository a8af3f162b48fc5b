import { z } from 'zod';
import { contentTypeInput } from '../content-type/definition';
import { MAX_FORBIDDEN_INDEXES, MAX_QUERY_INDEX_FIELDS, MAX_QUERY_INDEXES, queryIndexField, TEXT_INDEX_KINDS } from '../content-type/query-indexes';
import { findTemplateProblem } from '../json-template';
import { emailList, webhookEventTypeCode } from '../webhook/events';
import { TEMPLATE_ROOTS } from '../webhook/template';

/**
 * A workspace's schema as code (docs/schema-as-code.md): its content types with their declared
 * query indexes, its locales and its webhooks (never their secrets). `cms schema export` writes
 * it, `cms schema diff` and `apply` read it back through this parser. A change that an older
 * reader would misread raises the version; attributes added to content types keep it.
 */
export const SCHEMA_FORMAT = 'cms-schema';
export const SCHEMA_VERSION = 1;

export const MAX_SCHEMA_CONTENT_TYPES = 1000;
export const MAX_SCHEMA_LOCALES = 500;
export const MAX_SCHEMA_WEBHOOKS = 1000;

/** Ids of the objects a schema creates: what the service generates (UUIDs), or a name written by hand. */
const objectId = z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be 1-100 letters, digits, _ or -');

const schemaIndex = z.strictObject({
  fields: z.array(z.strictObject({ ...queryIndexField.shape, key: z.string().min(1).max(100) })).min(1).max(MAX_QUERY_INDEX_FIELDS),
  text: z.enum(TEXT_INDEX_KINDS).optional(),
  covering: z.literal(true).optional(),
  /** Advised indexes belong to the advisor of each environment and are not part of a schema. */
  origin: z.enum(['declared', 'pinned']).optional(),
});
export type SchemaIndex = z.infer<typeof schemaIndex>;

const schemaForbiddenIndex = schemaIndex.omit({ origin: true });

/** The name of an environment variable. */
const environmentName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, 'must be the name of an environment variable');

const schemaContentType = z
  .strictObject({
    id: objectId.optional().describe('the id a type created gets (kept from the environment exported); an existing type keeps its own'),
    /** As PUT /content-types takes it; action header values as the service shows them, `(hidden)`. */
    definition: contentTypeInput,
    queryIndexes: z
      .strictObject({
        indexes: z.array(schemaIndex).max(MAX_QUERY_INDEXES).default([]),
        forbidden: z.array(schemaForbiddenIndex).max(MAX_FORBIDDEN_INDEXES).default([]),
      })
      .default({ indexes: [], forbidden: [] }),
    actionHeadersFromEnv: z
      .record(z.string(), z.record(z.string(), environmentName))
      .optional()
      .describe('action id to header name to the environment variable the CLI reads its value from (the export shows (hidden)); never exported'),
  })
  .superRefine((type, context) => {
    for (const [actionId, headers] of Object.entries(type.actionHeadersFromEnv ?? {})) {
      const action = type.definition.actions.find((candidate) => candidate.id === actionId);
      for (const name of Object.keys(headers)) {
        if (action && Object.hasOwn(action.headers, name)) continue;
        const message = action ? `names no header of action ${actionId}: list it in the action's headers` : `names no action of the type: ${actionId}`;
        context.addIssue({ code: 'custom', path: ['actionHeadersFromEnv', actionId, name], message });
      }
    }
  });
export type SchemaContentType = z.infer<typeof schemaContentType>;

const schemaLocale = z
  .strictObject({
    code: z.string().max(50).regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'must be a culture code such as en or en-US'),
    /** Absent: the code, as the service names a locale saved without a name. */
    name: z.string().trim().max(200).optional(),
    fallbackCode: z.string().max(50).nullable().default(null),
    default: z.boolean().default(false),
  })
  .transform((locale) => ({ ...locale, name: locale.name ?? locale.code }));
export type SchemaLocale = z.infer<typeof schemaLocale>;

const schemaWebhook = z.strictObject({
  id: objectId,
  endpoint: z.string().trim().min(1).max(2000),
  /** Content type key to event type codes (0 Published ... 4 PublishedUpdated). */
  eventTypes: z.record(z.string().max(100), z.array(webhookEventTypeCode).max(100)).default({}),
  useCustomPayload: z.boolean().default(false),
  customPayload: z.record(z.string(), z.unknown()).nullable().default(null),
  description: z.string().max(2000).default(''),
  errorEmailTo: emailList.default(''),
  enabled: z.boolean().default(true),
  /** The CLI reads the webhook's secret from this variable; without it a new webhook gets a generated one. Never in an export. */
  secretFromEnv: environmentName.optional().describe('the environment variable the CLI reads the signing secret from; never exported'),
});
export type SchemaWebhook = z.infer<typeof schemaWebhook>;

export const schemaDocument = z
  .strictObject({
    format: z.literal(SCHEMA_FORMAT, { error: `must be ${SCHEMA_FORMAT}` }),
    version: z.literal(SCHEMA_VERSION, { error: `must be ${SCHEMA_VERSION}: the only version this service reads` }),
    // A section left out is left as it is in the workspace; an export writes all three.
    contentTypes: z.array(schemaContentType).max(MAX_SCHEMA_CONTENT_TYPES).optional(),
    locales: z.array(schemaLocale).max(MAX_SCHEMA_LOCALES).optional(),
    webhooks: z.array(schemaWebhook).max(MAX_SCHEMA_WEBHOOKS).optional(),
  })
  .superRefine((schema, context) => {
    const keys = new Set<string>();
    const typeIds = new Set<string>();
    (schema.contentTypes ?? []).forEach((type, index) => {
      if (keys.has(type.definition.key)) context.addIssue({ code: 'custom', path: ['contentTypes', index, 'definition', 'key'], message: `duplicate content type: ${type.definition.key}` });
      keys.add(type.definition.key);
      if (type.id !== undefined && typeIds.has(type.id)) context.addIssue({ code: 'custom', path: ['contentTypes', index, 'id'], message: `duplicate content type id: ${type.id}` });
      if (type.id !== undefined) typeIds.add(type.id);
    });
    const locales = schema.locales ?? [];
    const codes = new Set<string>();
    locales.forEach((locale, index) => {
      if (codes.has(locale.code.toLowerCase())) context.addIssue({ code: 'custom', path: ['locales', index, 'code'], message: `duplicate locale: ${locale.code}` });
      codes.add(locale.code.toLowerCase());
    });
    locales.forEach((locale, index) => {
      if (locale.fallbackCode !== null && !codes.has(locale.fallbackCode.toLowerCase())) {
        context.addIssue({ code: 'custom', path: ['locales', index, 'fallbackCode'], message: `names no locale of the schema: ${locale.fallbackCode}` });
      }
    });
    const fallbacks = new Map(locales.map((locale) => [locale.code.toLowerCase(), locale.fallbackCode?.toLowerCase() ?? null]));
    locales.forEach((locale, index) => {
      if (fallsBackToItself(locale.code.toLowerCase(), fallbacks)) context.addIssue({ code: 'custom', path: ['locales', index, 'fallbackCode'], message: 'forms a cycle of fallbacks' });
    });
    const defaults = locales.filter((locale) => locale.default).length;
    if (locales.length > 0 && defaults !== 1) context.addIssue({ code: 'custom', path: ['locales'], message: `must have exactly one default locale, not ${defaults}` });
    const ids = new Set<string>();
    (schema.webhooks ?? []).forEach((webhook, index) => {
      if (ids.has(webhook.id)) context.addIssue({ code: 'custom', path: ['webhooks', index, 'id'], message: `duplicate webhook: ${webhook.id}` });
      ids.add(webhook.id);
      // Without a content types section the types are those of the workspace, which the service checks.
      for (const key of Object.keys(webhook.eventTypes)) {
        if (schema.contentTypes && !keys.has(key)) context.addIssue({ code: 'custom', path: ['webhooks', index, 'eventTypes', key], message: `names no content type of the schema: ${key}` });
      }
      if (webhook.useCustomPayload && webhook.customPayload === null) context.addIssue({ code: 'custom', path: ['webhooks', index, 'customPayload'], message: 'is required with useCustomPayload' });
      const template = webhook.customPayload ? findTemplateProblem(webhook.customPayload, TEMPLATE_ROOTS) : null;
      if (template) context.addIssue({ code: 'custom', path: ['webhooks', index, `customPayload${template.path}`], message: template.message });
    });
  });
/** Whether following the fallbacks from `code` comes back to it. */
function fallsBackToItself(code: string, fallbacks: ReadonlyMap<string, string | null>): boolean {
  const visited = new Set<string>();
  for (let next = fallbacks.get(code) ?? null; next !== null && !visited.has(next); next = fallbacks.get(next) ?? null) {
    if (next === code) return true;
    visited.add(next);
  }
  return false;
}

export type SchemaDocument = z.infer<typeof schemaDocument>;
/** A schema as written, before defaults. */
export type SchemaDocumentInput = z.input<typeof schemaDocument>;

/** A webhook's event types in one spelling: content types by key, each's codes ascending and once. */
export function canonicalEventTypes<Code extends number>(eventTypes: Readonly<Record<string, readonly Code[]>>): Record<string, Code[]> {
  return Object.fromEntries(
    Object.keys(eventTypes)
      .sort()
      .map((key) => [key, [...new Set(eventTypes[key])].sort((a, b) => a - b)]),
  );
}
