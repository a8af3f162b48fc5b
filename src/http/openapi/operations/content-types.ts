import { z } from 'zod';
import { contentTypeDefinition, FIELD_TYPES, PAYLOAD_MODES } from '../../../domain/content-type/definition';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { dateTime, successSchema } from '../shared-schemas';
import { TAGS } from '../tags';

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
    relationContentType: z.string().nullable().describe('Relation fields: the content type the relation points to, when restricted'),
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
      schema: named('ContentTypeDefinition', contentTypeDefinition),
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
    responses: { 200: { description: 'the saved content type', schema: contentTypeSchema } },
    errors: { 409: 'a new content type would pass the workspace quota (CONTENT_TYPES_PER_WORKSPACE, 100 by default); saving an existing type is never refused by it' },
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
