import { z } from 'zod';
import { eraseBody } from '../../routes/content-erase';
import { dataKeyActionBody } from '../../routes/admin-data-key';
import { workspacePolicy } from '../../../domain/api-key/events';
import { quarantineQuery, rebuildBody, skipBody } from '../../routes/admin-projections';
import { createWorkspaceBody, installAppBody, issueKeyBody, registerAppBody, signingSecretBody } from '../../routes/admin';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { dateTime, successSchema, workspaceInfoListSchema, workspaceInfoSchema } from '../shared-schemas';
import { TAGS } from '../tags';
import { queryIndexState } from './admin-query-indexes';

const TAG = TAGS.admin.name;
const NO_WORKSPACE = { 404: 'the workspace does not exist' };

const workspacePolicySchema = named('WorkspacePolicy', workspacePolicy);
const issuedKey = named(
  'IssuedApiKey',
  z.object({ id: z.string(), key: z.string().describe('shown once: only its hash is stored'), policies: z.array(workspacePolicySchema) }),
);
const listedKeys = named(
  'ApiKeyList',
  z.array(
    named(
      'ListedApiKey',
      z.object({
        id: z.string(),
        name: z.string().nullable(),
        policies: z.array(workspacePolicySchema),
        createdAt: dateTime,
        revokedAt: dateTime.nullable().describe('null while the key works'),
      }),
    ),
  ),
);
const totpSecret = named('TotpSecret', z.object({ secret: z.string().describe('base32'), otpauthUrl: z.string() }));
const registeredApp = named('RegisteredApp', z.object({ id: z.string(), key: z.string().describe("the app's credential, shown once") }));

const rebuildStatus = named(
  'RebuildStatus',
  z.object({
    id: z.string(),
    projections: z.array(z.string()).describe('the read models rebuilt: those asked for, with every read model they read while projecting (replayed with them)'),
    state: z.enum(['running', 'succeeded', 'failed']),
    phase: z.enum(['replaying', 'indexing', 'catching-up', 'switching', 'done']),
    eventsProcessed: z.number().int(),
    position: z.string(),
    head: z.string(),
    fraction: z.number().describe('0 to 1, by log position'),
    startedAt: dateTime,
    finishedAt: dateTime.nullable(),
    error: z.string().nullable(),
  }),
);
const contentTablesStatus = named(
  'ContentTablesStatus',
  z.object({
    tables: z.array(
      z.object({
        workspaceId: z.string(),
        contentType: z.string(),
        state: z.enum(['serving', 'building', 'removing']).describe('building: content queries of the type use the JSONB read model until its new table is switched in'),
        servingTable: z.string().nullable(),
        wantedTable: z.string().nullable(),
        queryIndexes: queryIndexState,
      }),
    ),
    build: z
      .object({
        contentTypes: z.array(z.string()).describe('workspaceId:contentType of each table the pass builds'),
        tables: z.array(z.string()),
        state: z.enum(['running', 'succeeded', 'failed']),
        phase: z.enum(['replaying', 'indexing', 'catching-up', 'switching', 'done']),
        eventsRead: z.number().int(),
        eventsApplied: z.number().int().describe('events of the types built'),
        position: z.string(),
        head: z.string(),
        fraction: z.number().describe('0 to 1, by log position'),
        startedAt: dateTime,
        finishedAt: dateTime.nullable(),
        error: z.string().nullable(),
      })
      .nullable()
      .describe('the latest build of typed content tables since the service started'),
    failures: z
      .array(
        z.object({
          contentType: z.string().describe('workspaceId:contentType'),
          table: z.string().nullable(),
          attempts: z.number().int(),
          error: z.string(),
          retryAt: dateTime,
        }),
      )
      .describe("content types whose table failed to build on its own (others' tables are built meanwhile); their queries read the JSONB read model until it is built"),
  }),
);
const quarantinedEvent = named(
  'QuarantinedEvent',
  z.object({
    id: z.string().describe('projection@position'),
    projection: z.string().describe('the read model that could not apply the event'),
    eventId: z.string(),
    position: z.string(),
    stream: z.string(),
    eventType: z.string(),
    workspaceId: z.string().nullable(),
    error: z.string().describe("the store's or projector's message (it names the limit hit, never a value)"),
    quarantinedAt: dateTime,
    resolution: z
      .object({ outcome: z.enum(['skipped', 'rebuilt']), at: dateTime })
      .nullable()
      .describe('null while the read model lacks the event; skipped by an operator, or applied by a rebuild'),
  }),
);
const projectionsStatus = named(
  'ProjectionsStatus',
  z.object({
    head: z.string().describe('position of the last event in the log'),
    running: z.boolean(),
    projections: z.array(
      z.object({
        name: z.string(),
        collections: z.array(z.string()),
        checkpoint: z.string().nullable().describe('the log position up to which the read model has applied events'),
        atHead: z.boolean(),
        lagEvents: z.number().int().describe('events after the checkpoint, counted up to 1,000'),
        lagSeconds: z.number().describe('age of the oldest event not yet applied; 0 at the head'),
        version: z.number().int().describe('the version of the read model this service builds'),
        storedVersion: z
          .number()
          .int()
          .nullable()
          .describe('the version that built the read model the store holds: another than `version` after an upgrade that changed it, until its backfill is switched in; null when none was built'),
      }),
    ),
    rebuild: rebuildStatus.nullable().describe('the latest rebuild since the service started'),
    contentTables: contentTablesStatus.describe('the typed read model of each content type'),
  }),
);

export const adminOperations: DocumentedOperation[] = [
  {
    method: 'post',
    path: '/admin/workspaces',
    operationId: 'createWorkspace',
    tag: TAG,
    summary: 'Create a workspace',
    access: 'Admin',
    body: {
      schema: named('CreateWorkspaceRequest', createWorkspaceBody),
      example: { name: 'Marketing site', ownerUserId: 'user-42', planType: 'Pro', planRecords: 100000, expirationDate: '2027-01-01T00:00:00Z' },
    },
    responses: { 201: { description: 'the workspace, id generated', schema: workspaceInfoSchema } },
  },
  {
    method: 'get',
    path: '/admin/workspaces',
    operationId: 'listWorkspaces',
    tag: TAG,
    summary: 'List every workspace',
    access: 'Admin',
    responses: { 200: { description: 'oldest first', schema: workspaceInfoListSchema } },
  },
  {
    method: 'post',
    path: '/admin/workspaces/{workspaceId}/api-keys',
    operationId: 'issueApiKey',
    tag: TAG,
    summary: 'Issue a workspace key',
    access: 'Admin',
    body: { schema: named('IssueApiKeyRequest', issueKeyBody), example: { name: 'website build', policies: ['ReadAccess'] } },
    responses: { 201: { description: 'the key; keep it, it cannot be shown again', schema: issuedKey } },
    errors: NO_WORKSPACE,
  },
  {
    method: 'get',
    path: '/admin/workspaces/{workspaceId}/api-keys',
    operationId: 'listApiKeys',
    tag: TAG,
    summary: "List a workspace's keys, revoked ones included; never their secrets",
    access: 'Admin',
    responses: { 200: { description: 'oldest first', schema: listedKeys } },
    errors: NO_WORKSPACE,
  },
  {
    method: 'delete',
    path: '/admin/workspaces/{workspaceId}/api-keys/{keyId}',
    operationId: 'revokeApiKey',
    tag: TAG,
    summary: 'Revoke a workspace key; it stops working at once',
    access: 'Admin',
    responses: { 200: { description: 'revoked', schema: successSchema } },
    errors: { 404: 'the workspace or the key does not exist' },
  },
  {
    method: 'post',
    path: '/admin/workspaces/{workspaceId}/totp',
    operationId: 'createTotpSecret',
    tag: TAG,
    summary: 'Set a new one-time-password secret, which gates decrypting fields',
    description: 'RFC 6238: SHA-1, 6 digits, 30-second step, one step of skew accepted. Replaces any previous secret.',
    access: 'Admin',
    responses: { 201: { description: 'the secret, to load into an authenticator', schema: totpSecret } },
    errors: NO_WORKSPACE,
  },
  {
    method: 'post',
    path: '/admin/workspaces/{workspaceId}/contents/{type}/{id}/erase',
    operationId: 'eraseContentAsAdmin',
    tag: TAG,
    summary: 'Erase a content item of a personal-data content type (what `cms erase` calls)',
    description:
      "As POST /contents/{type}/{id}/erase, by the operator (actor admin): shreds the item's key and records a ContentErased event with the reason. Cannot be undone.",
    access: 'Admin',
    parameters: { workspaceId: 'the workspace', type: 'the content type key', id: 'the content item id' },
    body: { schema: eraseBody, example: { reason: 'erasure request 2026-118 (GDPR art. 17)' } },
    responses: { 200: { description: 'erased', schema: successSchema } },
    errors: {
      400: 'no reason, or one over 500 characters',
      404: 'no such workspace, content type or item',
      409: 'the content type is not a personal-data type',
    },
  },
  {
    method: 'post',
    path: '/admin/workspaces/{workspaceId}/data-key/shred',
    operationId: 'shredWorkspaceDataKey',
    tag: TAG,
    summary: "Shred the workspace's data key: everything encrypted with it becomes unreadable for good",
    description:
      'Records a WorkspaceDataKeyShredded event (who, when, reason), then deletes the key. Encrypted fields, the TOTP secret, webhook, action and ' +
      'scheduler secrets of the workspace become unreadable: decrypt and check answer 410, and nothing is encrypted (410) until a new key is ' +
      'created with POST /admin/workspaces/{workspaceId}/data-key. Cannot be undone (save an old key file, and it can: docs/operations.md).',
    access: 'Admin',
    body: { schema: named('DataKeyActionRequest', dataKeyActionBody), example: { reason: 'workspace closed, contract ended 2026-11-01' } },
    responses: { 200: { description: 'shredded', schema: successSchema } },
    errors: { 400: 'no reason', ...NO_WORKSPACE },
  },
  {
    method: 'post',
    path: '/admin/workspaces/{workspaceId}/data-key',
    operationId: 'createWorkspaceDataKey',
    tag: TAG,
    summary: 'Create a new data key after a shred (explicit; never done silently)',
    description: 'Records a WorkspaceDataKeyCreated event. Values encrypted with the shredded key stay unreadable; set the TOTP and other secrets again.',
    access: 'Admin',
    body: { schema: dataKeyActionBody, example: { reason: 'workspace reopened' } },
    responses: { 201: { description: 'created', schema: successSchema } },
    errors: { 400: 'no reason', 409: 'the workspace has a data key', ...NO_WORKSPACE },
  },
  {
    method: 'put',
    path: '/admin/workspaces/{workspaceId}/scheduler-signing-secret',
    operationId: 'setSchedulerSigningSecret',
    tag: TAG,
    summary: "Sign the workspace's scheduler callbacks from now on",
    access: 'Admin',
    body: { schema: named('SchedulerSigningSecretRequest', signingSecretBody), example: { secret: 'a-long-random-signing-secret' } },
    responses: { 200: { description: 'set', schema: successSchema } },
    errors: NO_WORKSPACE,
  },
  {
    method: 'post',
    path: '/admin/apps',
    operationId: 'registerApp',
    tag: TAG,
    summary: 'Register an app',
    access: 'Admin',
    body: {
      schema: named('RegisterAppRequest', registerAppBody),
      example: { name: 'Translator', parameters: { region: 'eu' }, fieldMapping: { title: 'headline' } },
    },
    responses: { 201: { description: "the app's id and key", schema: registeredApp } },
  },
  {
    method: 'put',
    path: '/admin/apps/{appId}/installations/{workspaceId}',
    operationId: 'installApp',
    tag: TAG,
    summary: 'Install an app in a workspace for a user',
    access: 'Admin',
    body: {
      schema: named('InstallAppRequest', installAppBody),
      example: { userId: 'user-42', parameters: { region: 'us' }, fieldMapping: {} },
    },
    responses: { 200: { description: 'installed', schema: successSchema } },
    errors: { 404: 'the app or the workspace does not exist' },
  },
  {
    method: 'get',
    path: '/admin/projections',
    operationId: 'getProjectionsStatus',
    tag: TAG,
    summary: 'Read-model projections: checkpoints against the head of the log',
    access: 'Admin',
    responses: { 200: { description: 'each projection and the latest rebuild', schema: projectionsStatus } },
  },
  {
    method: 'post',
    path: '/admin/projections/rebuild',
    operationId: 'startRebuild',
    tag: TAG,
    summary: 'Rebuild read models from the log, in the background',
    description: 'An empty or missing list rebuilds every projection. Poll GET /admin/projections/rebuild.',
    access: 'Admin',
    body: { schema: named('RebuildRequest', rebuildBody), example: { projections: ['content_types'] }, optional: true },
    responses: { 202: { description: 'the rebuild started', schema: rebuildStatus } },
    errors: { 409: 'a rebuild is running, or this instance does not project (another holds the lease)' },
  },
  {
    method: 'get',
    path: '/admin/projections/quarantine',
    operationId: 'listQuarantinedEvents',
    tag: TAG,
    summary: 'Events a read model could not apply',
    description:
      'When a store refuses an event for one read model (or its projector throws on it), that read model sets the event aside and goes on, and so does every other read model of every workspace. Each such event is listed here, counted in the metric projection_quarantined_events and logged; skip it or rebuild the read model once the cause is fixed.',
    access: 'Admin',
    query: quarantineQuery,
    responses: { 200: { description: 'the entries, oldest first', schema: named('QuarantinedEventList', z.object({ entries: z.array(quarantinedEvent) })) } },
  },
  {
    method: 'post',
    path: '/admin/projections/quarantine/{id}/skip',
    operationId: 'skipQuarantinedEvent',
    tag: TAG,
    summary: 'Accept a read model without a quarantined event',
    description: 'Recorded in the log (QuarantinedEventSkipped, in the workspace audit feed of the event).',
    access: 'Admin',
    parameters: { id: 'the entry id (projection@position)' },
    body: { schema: named('SkipQuarantinedEvent', skipBody), example: { reason: 'the item was erased since' } },
    responses: { 200: { description: 'the entry, resolved', schema: quarantinedEvent } },
    errors: { 404: 'no such entry', 409: 'the entry is resolved already' },
  },
  {
    method: 'post',
    path: '/admin/projections/quarantine/{id}/retry',
    operationId: 'retryQuarantinedEvent',
    tag: TAG,
    summary: "Rebuild the entry's read model, applying the event again",
    description:
      'Starts a rebuild of the read model (blue/green, as POST /admin/projections/rebuild), recorded in the log (QuarantinedEventRetried). When it succeeds, its open entries up to the swap are resolved as rebuilt; when the event fails again, the rebuild fails and the entry stays open.',
    access: 'Admin',
    parameters: { id: 'the entry id (projection@position)' },
    responses: { 202: { description: 'the rebuild started', schema: rebuildStatus } },
    errors: { 404: 'no such entry', 409: 'the entry is resolved already, a rebuild is running, or this instance does not project' },
  },
  {
    method: 'get',
    path: '/admin/projections/rebuild',
    operationId: 'getRebuildStatus',
    tag: TAG,
    summary: 'The latest rebuild',
    access: 'Admin',
    responses: { 200: { description: 'its progress or outcome', schema: rebuildStatus } },
    errors: { 404: 'no rebuild has run since the service started' },
  },
];
