import { z } from 'zod';
import { schemaDocument } from '../../../domain/schema/document';
import { SCHEMA_ACTIONS, SCHEMA_OBJECT_KINDS } from '../../../domain/schema/plan';
import { schemaApplyBody, schemaPlanBody } from '../../routes/admin-schema';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { TAGS } from '../tags';

const TAG = TAGS.admin.name;
const PATH = '/admin/workspaces/{workspaceId}/schema';
const PARAMETERS = { workspaceId: 'the workspace' };

const workspaceSchema = named('WorkspaceSchema', schemaDocument);

const schemaPlan = named(
  'SchemaPlan',
  z.object({
    workspaceId: z.string(),
    applied: z.boolean().describe('true when the answer is of an apply, which made these changes'),
    changes: z
      .array(
        named(
          'SchemaChange',
          z.object({
            kind: z.enum(SCHEMA_OBJECT_KINDS),
            name: z.string().describe('the content type key, locale code or webhook id'),
            action: z.enum(SCHEMA_ACTIONS),
            changes: z.array(z.string()).describe('what differs, in words'),
            destructive: z.boolean().describe('a deletion, a field removed or of another type: applied only with allowDestructive'),
          }),
        ),
      )
      .describe('in the order an apply takes them: locales, content types and their query indexes, webhooks, then deletions'),
    problems: z.array(z.object({ field: z.string(), message: z.string() })).describe('why the schema cannot be applied as it is; an apply refuses it with 400 while there is one'),
  }),
);

const example = {
  schema: {
    format: 'cms-schema',
    version: 1,
    contentTypes: [
      {
        definition: { name: 'Article', key: 'Article', fieldTitleKey: 'title', fields: [{ key: 'title', type: 'Text', required: true }, { key: 'category', type: 'Text' }] },
        queryIndexes: { indexes: [{ fields: [{ key: 'category', direction: 'asc' }, { key: 'title', direction: 'asc' }] }] },
      },
    ],
    locales: [{ code: 'en', name: 'English', default: true }, { code: 'fr', name: 'Français', fallbackCode: 'en' }],
    webhooks: [{ id: 'site-rebuild', endpoint: 'https://hooks.example.com/rebuild', eventTypes: { Article: [0, 1] } }],
  },
  webhookSecrets: { 'site-rebuild': 'wh_0123456789abcdefghijklmnopqrstuv' },
};

export const adminSchemaOperations: DocumentedOperation[] = [
  {
    method: 'get',
    path: PATH,
    operationId: 'exportWorkspaceSchema',
    tag: TAG,
    summary: "A workspace's content types, query indexes, locales and webhooks as a schema (never secrets)",
    description:
      'What `cms schema export` writes (docs/schema-as-code.md), version 1: content types (each its id, its definition as PUT /content-types takes it, its declared and pinned query indexes and the forbidden ones), ' +
      'locales, and webhooks without their secrets, each list in a fixed order. Advised query indexes are left out (each environment has its own workload); action header values show as (hidden). ' +
      'The same schema always gives the same answer. A section left out of a schema sent to plan or apply is left as it is in the workspace.',
    access: 'Admin',
    parameters: PARAMETERS,
    responses: { 200: { description: 'the schema', schema: workspaceSchema } },
    errors: { 404: 'the workspace does not exist' },
  },
  {
    method: 'post',
    path: `${PATH}/plan`,
    operationId: 'planWorkspaceSchema',
    tag: TAG,
    summary: 'What applying a schema would change, object by object, without changing anything',
    access: 'Admin',
    parameters: PARAMETERS,
    body: { schema: named('SchemaPlanRequest', schemaPlanBody), example },
    responses: { 200: { description: 'the plan, and the problems that keep it from being applied', schema: schemaPlan } },
    errors: { 404: 'the workspace does not exist' },
  },
  {
    method: 'put',
    path: PATH,
    operationId: 'applyWorkspaceSchema',
    tag: TAG,
    summary: 'Make a workspace match a schema: creates, updates and (when allowed) deletes what differs, nothing else',
    description:
      'Each change goes through the command its own endpoint uses and is recorded as the same events (clientInfo `schema apply`); an object that matches appends nothing, so applying a schema twice appends nothing the second time. ' +
      'Every problem is found before the first write. A failure on the way (a content type that still has items) stops there; what was applied stays, and applying again continues.',
    access: 'Admin',
    parameters: PARAMETERS,
    body: { schema: named('SchemaApplyRequest', schemaApplyBody), example: { ...example, allowDestructive: false } },
    responses: { 200: { description: 'the plan that was applied', schema: schemaPlan } },
    errors: {
      404: 'the workspace does not exist',
      409: 'the schema makes a destructive change and allowDestructive is not set; or a content type to delete still has items; or a new object would pass a workspace quota',
    },
  },
];
