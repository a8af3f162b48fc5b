import { z } from 'zod';
import { findTemplateProblem } from '../json-template';
import { customHeaders, outboundUrlProblem } from '../outbound-request';
import { fieldRuleProblems, normalizedRules } from './field-rules';

export const FIELD_TYPES = ['Text', 'RichText', 'Number', 'Boolean', 'DateTime', 'Relation', 'References', 'Media', 'Json', 'Encrypted'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

const identifier = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,99}$/, 'must start with a letter and contain only letters, digits and _ (at most 100)');

/** An optional member; null is the same as absent. */
const optional = <Schema extends z.ZodType>(schema: Schema) => schema.nullish().transform((value) => value ?? undefined);

const fieldShape = {
  key: identifier,
  type: z.enum(FIELD_TYPES),
  name: z.string().max(200).nullish().transform((value) => value ?? ''),
  required: z.boolean().default(false),
  translatable: z.boolean().default(false),
  sortIndex: z.number().int().default(0),
  /** Relation and References fields: the content type key the relation points to, when restricted. */
  relationContentType: identifier.nullish().transform((value) => value ?? null),
  /**
   * Extensions, each optional (absent in definitions saved before them): validation rules and a
   * default. Which apply to which type, and their bounds, are checked when a type is saved
   * (./field-rules.ts), not here, so a definition in the log never fails to replay.
   */
  unique: optional(z.boolean()),
  default: optional(z.unknown()),
  min: optional(z.union([z.number(), z.string()])),
  max: optional(z.union([z.number(), z.string()])),
  minLength: optional(z.number().int()),
  maxLength: optional(z.number().int()),
  pattern: optional(z.string()),
  enum: optional(z.array(z.union([z.string(), z.number()]))),
};

/** A field definition as events carry it: members no longer known are dropped, so every stored definition replays. */
export const fieldDefinition = z.object(fieldShape);

/** A field definition as a client writes it: an unknown member (a misspelt or unsupported rule) is a 400 naming it, never dropped. */
const fieldDefinitionInput = z.strictObject(fieldShape);
export type FieldDefinition = z.infer<typeof fieldDefinition>;

export const PAYLOAD_MODES = ['None', 'IdOnly', 'FullEntity', 'CustomTemplate'] as const;
const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
/** What GET shows for an action header value, and what a PUT sends to keep the value stored before. */
export const HIDDEN_HEADER_VALUE = '(hidden)';

/** What an action's navigateUrl may use; its customTemplate may also use callbackUrl. */
export const NAVIGATE_TEMPLATE_ROOTS = ['id', 'contentType', 'workspaceId', 'fields'] as const;
export const ACTION_TEMPLATE_ROOTS = [...NAVIGATE_TEMPLATE_ROOTS, 'callbackUrl'] as const;

export const actionDefinition = z
  .object({
    id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/, 'must be 1-100 letters, digits, _ or -'),
    name: z.string().max(200).default(''),
    url: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }),
    method: z.enum(HTTP_METHODS).optional(),
    useCallback: z.boolean().default(false),
    payloadMode: z.enum(PAYLOAD_MODES).default('IdOnly'),
    customTemplate: z.unknown().optional(),
    headers: z.record(z.string(), z.string()).default({}),
    navigateUrl: z.string().max(2000).nullish().transform((value) => value ?? null),
  })
  .transform((action) => ({
    ...action,
    method: action.method ?? (action.payloadMode === 'None' ? 'GET' : 'POST'),
    customTemplate: action.customTemplate ?? null,
  }))
  .superRefine((action, context) => {
    if (action.payloadMode === 'CustomTemplate' && action.customTemplate === null) {
      context.addIssue({ code: 'custom', path: ['customTemplate'], message: 'is required with payloadMode CustomTemplate' });
    }
    if (action.payloadMode === 'None' && action.method !== 'GET') {
      context.addIssue({ code: 'custom', path: ['method'], message: 'must be GET with payloadMode None' });
    }
    const templateProblem = findTemplateProblem(action.customTemplate, ACTION_TEMPLATE_ROOTS);
    if (templateProblem) context.addIssue({ code: 'custom', path: ['customTemplate', ...jsonPathSegments(templateProblem.path)], message: templateProblem.message });
    const linkProblem = action.navigateUrl === null ? null : findTemplateProblem(action.navigateUrl, NAVIGATE_TEMPLATE_ROOTS);
    if (linkProblem) context.addIssue({ code: 'custom', path: ['navigateUrl'], message: linkProblem.message });
  });
export type ActionDefinition = z.infer<typeof actionDefinition>;

/** What a content type key may be: no other text can name one. */
export const CONTENT_TYPE_KEY = /^[A-Za-z][A-Za-z0-9]{0,99}$/;

function contentTypeShape<Field extends z.ZodType>(field: Field) {
  return {
    name: z.string().trim().min(1, 'is required').max(200),
    key: z.string().regex(CONTENT_TYPE_KEY, 'must be alphanumeric, start with a letter, at most 100 characters'),
    icon: z.string().max(200).nullish().transform((value) => value ?? null),
    groupName: z.string().max(200).nullish().transform((value) => value ?? null),
    fieldTitleKey: z.string().nullish().transform((value) => value ?? null),
    sortIndex: z.number().int().default(0),
    versioningDisabled: z.boolean().default(false),
    /** Extension: every value of the type's items is stored sealed under a key of the item's own, so an item can be erased (docs/architecture.md). */
    personalData: z.boolean().default(false),
    fields: z.array(field).max(500),
    actions: z.array(actionDefinition).max(100).default([]),
  };
}

const storedContentTypeShape = contentTypeShape(fieldDefinition);

/** A content type as carried by its events (and as the read model keeps it). */
export const contentTypeDefinition = z.object(storedContentTypeShape).superRefine(checkContentType);
export type ContentTypeDefinition = z.infer<typeof contentTypeDefinition>;

/** What GET answers beside the definition; a client may send a type back as it read it, and these are ignored. */
const ignored = () => z.unknown().optional().describe('ignored: a type may be sent back as a read shows it');
const READ_ONLY_MEMBERS = { id: ignored(), createdAt: ignored(), updatedAt: ignored() };

/**
 * A definition as a client saves it (PUT /content-types): a member the definition does not take
 * is refused, and every action's url and headers pass the outbound rules. Stored events are read
 * with `contentTypeDefinition`, which checks neither, so definitions saved before these rules
 * still replay (their actions then fail when called).
 */
export const contentTypeInput = z
  .strictObject({ ...contentTypeShape(fieldDefinitionInput), ...READ_ONLY_MEMBERS })
  .transform(({ id: _id, createdAt: _createdAt, updatedAt: _updatedAt, ...definition }): ContentTypeDefinition => definition)
  .superRefine(checkContentType)
  .superRefine((type, context) => {
    type.fields.forEach((field, index) => {
      for (const problem of fieldRuleProblems(field)) context.addIssue({ code: 'custom', path: ['fields', index, ...jsonPathSegments(`.${problem.field}`)], message: problem.message });
    });
    type.actions.forEach((action, index) => {
      const urlProblem = outboundUrlProblem(action.url);
      if (urlProblem) context.addIssue({ code: 'custom', path: ['actions', index, 'url'], message: urlProblem });
      const headers = customHeaders.safeParse(action.headers);
      for (const issue of headers.error?.issues ?? []) context.addIssue({ code: 'custom', path: ['actions', index, 'headers', ...issue.path], message: issue.message });
    });
  })
  .transform((type) => ({ ...type, fields: type.fields.map(normalizedRules) }));

function checkContentType(type: z.output<z.ZodObject<typeof storedContentTypeShape>>, context: z.RefinementCtx): void {
  reportDuplicates(type.fields.map((field) => field.key), 'fields', 'key', context);
  reportDuplicates(type.actions.map((action) => action.id), 'actions', 'id', context);
  if (type.fieldTitleKey !== null && !type.fields.some((field) => field.key === type.fieldTitleKey)) {
    context.addIssue({ code: 'custom', path: ['fieldTitleKey'], message: `names no field of this type: ${type.fieldTitleKey}` });
  }
  type.fields.forEach((field, index) => {
    if (field.relationContentType !== null && field.type !== 'Relation' && field.type !== 'References') {
      context.addIssue({ code: 'custom', path: ['fields', index, 'relationContentType'], message: 'is only allowed on Relation and References fields' });
    }
  });
}

/** `.body[2].title` as zod path segments. */
function jsonPathSegments(path: string): (string | number)[] {
  return [...path.matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)].map(([, key, index]) => (index === undefined ? key! : Number(index)));
}

function reportDuplicates(values: string[], list: string, property: string, context: z.RefinementCtx): void {
  const seen = new Set<string>();
  values.forEach((value, index) => {
    if (seen.has(value)) context.addIssue({ code: 'custom', path: [list, index, property], message: `duplicate ${property}: ${value}` });
    seen.add(value);
  });
}
