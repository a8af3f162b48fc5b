import { z } from 'zod';
import { actionPath, callbackBody, callbackPath } from '../../routes/actions';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { dateTime } from '../shared-schemas';
import { TAGS } from '../tags';

const TAG = TAGS.contentActions.name;
const NO_SUBJECT = 'the content type, the action or the item does not exist';

const executionRecord = named(
  'ActionExecution',
  z.object({
    operationId: z.string(),
    status: z.union([z.literal(0), z.literal(1), z.literal(-1)]).describe('0 Running, 1 Succeeded, -1 Failed'),
    result: z.string().nullable().describe('when Succeeded'),
    progress: z.number().int().nullable().describe('0-100, as reported by the external service'),
    message: z.string().nullable(),
    error: z.string().nullable().describe('when Failed'),
    updatedAt: dateTime,
  }),
);
const execution = named(
  'ActionExecutionStarted',
  z.union([
    z.object({
      success: z.boolean().describe('synchronous mode: the external service answered 2xx'),
      statusCode: z.number().int().describe('0 when it could not be reached'),
      result: z.string().nullable().describe('its answer, on success'),
      error: z.string().nullable().describe('why it failed'),
      durationMs: z.number().int(),
    }),
    z.object({
      operationId: z.string().describe('callback mode: poll GET .../status'),
      callbackUrl: z.string().describe('{PUBLIC_BASE_URL}/actions/callback/{workspaceId}/{operationId}'),
    }),
  ]),
);

export const actionOperations: DocumentedOperation[] = [
  {
    method: 'get',
    path: '/actions/{contentTypeKey}/{contentId}/{actionId}/execute',
    operationId: 'executeAction',
    tag: TAG,
    summary: 'Run a content action for an item',
    description:
      "Without useCallback the external service is called and its answer returned. With useCallback a Running record is created, the service is called with a callback address, and the answer is the operation id. See docs/actions.md.",
    access: 'ReadAccess',
    pathSchema: actionPath,
    responses: { 200: { description: 'the outcome (synchronous) or the operation (callback mode)', schema: execution } },
    errors: {
      404: NO_SUBJECT,
      409: 'callback mode: the action is still Running for this item',
      502: 'callback mode: the external service refused the call; the record ended Failed (operationId and statusCode are extension members)',
    },
  },
  {
    method: 'get',
    path: '/actions/{contentTypeKey}/{contentId}/{actionId}/navigate',
    operationId: 'getActionNavigateUrl',
    tag: TAG,
    summary: "The action's navigateUrl filled in for the item",
    access: 'ReadAccess',
    pathSchema: actionPath,
    responses: { 200: { description: 'the address', schema: named('ActionNavigateUrl', z.object({ url: z.string() })) } },
    errors: { 404: `${NO_SUBJECT}, or the action has no navigateUrl` },
  },
  {
    method: 'get',
    path: '/actions/{contentTypeKey}/{contentId}/{actionId}/status',
    operationId: 'getActionStatus',
    tag: TAG,
    summary: 'The latest execution record (callback mode); records live 7 days',
    access: 'ReadAccess',
    pathSchema: actionPath,
    responses: { 200: { description: 'the record', schema: executionRecord } },
    errors: { 404: 'no execution record exists' },
  },
  {
    method: 'post',
    path: '/actions/callback/{workspaceId}/{operationId}',
    operationId: 'reportActionProgress',
    tag: TAG,
    summary: 'Progress and completion reported by the external service',
    description: 'Anonymous: the unguessable operation id stands in for a credential. progress below 100 only updates progress and message; otherwise success decides Succeeded or Failed.',
    access: 'Anonymous',
    pathSchema: callbackPath,
    body: { schema: named('ActionCallbackRequest', callbackBody), example: { success: true, result: 'translated into 3 languages', message: 'done', progress: 100 } },
    responses: { 200: { description: 'the updated record', schema: executionRecord } },
    errors: { 404: 'the operation does not exist or has expired', 409: 'the operation has already completed' },
  },
];
