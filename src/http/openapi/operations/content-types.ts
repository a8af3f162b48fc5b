import { z } from 'zod';
import { contentTypeInput, FIELD_TYPES, PAYLOAD_MODES } from '../../../domain/content-type/definition';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { dateTime, successSchema } from '../shared-schemas';
import { TAGS } from '../tags';
import { saveContentTypeQuery } from '../../routes/content-types';

const TAG = TAGS.contentTypes.name;

const fieldDefinition = named(
  'FieldDefinition',
  z.object({
    key: z.string(),
    type: z.enum(FIELD_TYPES),
    name: z.string(),
    required: z.boolean(),
    translatable: z.boolean(),
    sortIndex: z.number().int(),
    relationContentType: z.string().nullable().describe('Relation and References fields: the content type the relation points to, when restricted; must name a content type of the workspace (or this one)'),
    unique: z.boolean().optional().describe('extension (Text, Number, DateTime, Relation, Media): no two items of the type hold the same value in one stage (draft, published)'),
    default: z.unknown().optional().describe('extension (Text, RichText, Number, Boolean, DateTime, Json): the value a new item gets when its save leaves the field out'),
    min: z.union([z.number(), z.string()]).optional().describe('extension (Number: a number; DateTime: a date-time): the smallest value allowed'),
    max: z.union([z.number(), z.string()]).optional().describe('extension (Number, DateTime): the largest value allowed'),
    minLength: z.number().int().optional().describe('extension (Text, RichText): the fewest characters a value may have'),
    maxLength: z.number().int().optional().describe('extension (Text, RichText): the most characters a value may have'),
    pattern: z.string().optional().describe('extension (Text): an RE2 regular expression a value must contain a match of (anchor with ^ and $); at most 200 characters and 100 program instructions'),
    enum: z.array(z.union([z.string(), z.number()])).optional().describe('extension (Text, Number): the values allowed, 1 to 100'),
  }),
);

const breakingProblem = named(
  'BreakingProblem',
  z.object({
    field: z.string(),
    rule: z.string().describe('required, unique, or what the rule says of the value (must be at most 5)'),
    stage: z.enum(['draft', 'published']),
    items: z.number().int().describe('how many items of the stage break it'),
    examples: z.array(z.string()).describe('ids of up to 5 of them'),
  }),
);

export const typeChangeReportSchema = named(
  'ContentTypeChangeReport',
  z.object({
    contentType: z.string(),
    changedFields: z.array(z.string()).describe('fields whose rules change (new fields included): only their stored values are checked'),
    checked: z.number().int().describe('draft and published documents read'),
    complete: z.boolean().describe('false when a stage holds more than 10,000 items: the rest were not read'),
    problems: z.array(breakingProblem),
    breaking: z.boolean().describe('a save needs ?confirmBreakingChanges=true: stored items break, or the check was not complete'),
  }),
);

const actionDefinition = named(
  'ActionDefinition',
  z.object({
    id: z.string(),
    name: z.string(),
    url: z.string(),
    method: z.string(),
    useCallback: z.boolean(),
    payloadMode: z.enum(PAYLOAD_MODES),
    customTemplate: z.unknown().describe('JSON template with {{id}}, {{contentType}}, {{workspaceId}}, {{callbackUrl}}, {{fields.KEY}}; null unless payloadMode is CustomTemplate'),
    headers: z
      .record(z.string(), z.string())
      .describe('values show as (hidden); sending (hidden) keeps the stored value only while url is unchanged'),
    navigateUrl: z.string().nullable(),
  }),
);

export const contentTypeSchema = named(
  'ContentType',
  z.object({
    id: z.string(),
    name: z.string(),
    key: z.string(),
    icon: z.string().nullable(),
    groupName: z.string().nullable(),
    fieldTitleKey: z.string().nullable(),
    sortIndex: z.number().int(),
    versioningDisabled: z.boolean(),
    personalData: z.boolean().describe('extension: the items hold personal data; their values are stored sealed under a key per item, so an item can be erased (POST .../erase)'),
    fields: z.array(fieldDefinition),
    actions: z.array(actionDefinition),
    createdAt: dateTime,
    updatedAt: dateTime,
  }),
);

const keyParameter = { key: 'the content type key' };

export const contentTypeOperations: DocumentedOperation[] = [
  {
    method: 'get',
    path: '/content-types',
    operationId: 'listContentTypes',
    tag: TAG,
    summary: 'List content types with their field schemas',
    access: 'ReadAccess',
    responses: { 200: { description: 'by sortIndex, then key', schema: named('ContentTypeList', z.array(contentTypeSchema)) } },
  },
  {
    method: 'get',
    path: '/content-types/{key}',
    operationId: 'getContentType',
    tag: TAG,
    summary: 'Get a content type',
    access: 'ReadAccess',
    parameters: keyParameter,
    responses: { 200: { description: 'the content type', schema: contentTypeSchema } },
    errors: { 404: 'the content type does not exist' },
  },
  {
    method: 'put',
    path: '/content-types',
    operationId: 'saveContentType',
    tag: TAG,
    summary: 'Create or update a content type (matched by key)',
    description: 'Content actions are configured here too, in `actions` (see docs/actions.md).',
    access: 'WriteAccess',
    body: {
      schema: named('ContentTypeDefinition', contentTypeInput),
      example: {
        name: 'Article',
        key: 'Article',
        fieldTitleKey: 'title',
        fields: [
          { key: 'title', type: 'Text', name: 'Title', required: true, translatable: true },
          { key: 'body', type: 'RichText', name: 'Body' },
          { key: 'publishedOn', type: 'DateTime', name: 'Published on', sortIndex: 2 },
        ],
        actions: [{ id: 'translate', name: 'Translate', url: 'https://actions.example.com/translate', useCallback: true, payloadMode: 'IdOnly' }],
      },
    },
    query: saveContentTypeQuery,
    parameters: { confirmBreakingChanges: 'true: save a change of field rules that stored items break (they keep their values until their next save)' },
    responses: { 200: { description: 'the saved content type', schema: contentTypeSchema } },
    errors: {
      409: 'a new content type would pass the workspace quota (CONTENT_TYPES_PER_WORKSPACE, 100 by default; saving an existing type is never refused by it); or a change of field rules breaks stored items and confirmBreakingChanges is not true: the problem carries the report in `report` (ContentTypeChangeReport)',
    },
  },
  {
    method: 'post',
    path: '/content-types/check',
    operationId: 'checkContentTypeChange',
    tag: TAG,
    summary: 'Check what saving a content type would do to its stored items (a dry run: nothing is saved)',
    description: 'The definition is checked as PUT /content-types checks it (400 alike); then the stored items of the fields whose rules change are checked against the new rules (see docs/field-types.md, "Changing the rules of a type with items").',
    access: 'WriteAccess',
    body: { schema: named('ContentTypeDefinition', contentTypeInput), example: { name: 'Article', key: 'Article', fields: [{ key: 'title', type: 'Text', required: true, maxLength: 120 }] } },
    responses: { 200: { description: 'the report', schema: typeChangeReportSchema } },
  },
  {
    method: 'delete',
    path: '/content-types/{key}',
    operationId: 'deleteContentType',
    tag: TAG,
    summary: 'Delete an empty content type',
    access: 'WriteAccess',
    parameters: keyParameter,
    responses: { 200: { description: 'deleted', schema: successSchema } },
    errors: { 404: 'the content type does not exist', 409: 'the content type still has content items' },
  },
];
