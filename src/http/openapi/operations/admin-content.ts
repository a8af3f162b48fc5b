import { z } from 'zod';
import { operatorHistoryQuery, undoBody } from '../../routes/admin-content';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { dateTime } from '../shared-schemas';
import { TAGS } from '../tags';

const TAG = TAGS.admin.name;

const operatorHistory = named(
  'OperatorContentHistory',
  z.array(
    named(
      'OperatorContentHistoryEntry',
      z.object({
        version: z.number().int().describe('1-based'),
        type: z.string(),
        at: dateTime,
        actor: z.string(),
        clientInfo: z.string().nullable(),
        correlationId: z.string().describe("the request id the event was written under (the client's X-Request-Id when it sent one)"),
        serverRequestId: z.string().nullable().describe("the server's own id of that request (X-Server-Request-Id, never chosen by a client); null for events written before it was recorded or not caused by a request"),
        contentType: z.string(),
      }),
    ),
  ),
);

const undoItem = named(
  'ContentUndoItem',
  z.object({
    itemId: z.string(),
    contentType: z.string(),
    currentVersion: z.number().int().describe('the item\'s version when planned'),
    firstChange: z.number().int().describe('the version of the first matching change'),
    restoreVersion: z.number().int().nullable().describe('the version restored (the one before firstChange); null when the item is deleted or left alone'),
    action: z.enum(['restore', 'delete', 'unchanged', 'conflict']),
    publishedAction: z
      .enum(['publish', 'unpublish', 'none'])
      .describe(
        'what a restore does to the published stage, put back as it was before the first matching change: publish the content published then (a ContentPublished), ' +
          'unpublish (nothing was published then), or none (already as it was; always none for delete, unchanged and conflict)',
      ),
    laterChanges: z.array(z.object({ version: z.number().int(), type: z.string(), at: dateTime, actor: z.string() })).describe('changes by others after the first matching change (a conflict)'),
    outcome: z.enum(['restored', 'deleted', 'unchanged', 'conflict', 'failed']).optional().describe('what was done (absent in a dry run)'),
    detail: z.string().optional().describe('why it failed'),
  }),
);

export const adminContentOperations: DocumentedOperation[] = [
  {
    method: 'get',
    path: '/admin/workspaces/{workspaceId}/contents/{itemId}/history',
    operationId: 'getOperatorContentHistory',
    tag: TAG,
    summary: "Every event of a content item's stream, for operators",
    description:
      'Also for items that were deleted or whose content type was deleted (the workspace paths answer 404 for those). Nothing is hidden. ' +
      'Without a query every version is listed; fromVersion and limit answer a page of it (the stream is read a page at a time either way).',
    access: 'Admin',
    query: operatorHistoryQuery,
    parameters: { workspaceId: 'the workspace', itemId: 'the content item id' },
    responses: { 200: { description: 'oldest first', schema: operatorHistory } },
    errors: { 400: 'fromVersion or limit is not a whole number in range, or the query has another parameter', 404: 'the workspace does not exist, or holds no events of that item' },
  },
  {
    method: 'post',
    path: '/admin/workspaces/{workspaceId}/content-undo',
    operationId: 'undoContentChanges',
    tag: TAG,
    summary: 'Revert every content change of one actor, request id or time window (bulk undo)',
    description:
      'Per item with a matching change: its content before the first matching change becomes the draft again (one ContentRestored carrying the reason; an item deleted ' +
      'by a matching change comes back), and its published stage is put back as it was then in the same append (a ContentPublished of the content published then, or a ' +
      'ContentUnpublished when nothing was published then; publishedAction); an item the selection created is deleted; an item already as it was is unchanged; an item ' +
      'someone else changed after the first matching change is a conflict and left alone. The reason is also the clientInfo of every event appended. ' +
      'Each restore appends only if the item is still at the version planned (else failed). Without itemIds the log is scanned for the items.',
    access: 'Admin',
    parameters: { workspaceId: 'the workspace' },
    body: { schema: named('ContentUndoRequest', undoBody), example: { selector: { actor: 'key:0b9c6c1e' }, dryRun: true } },
    errors: { 404: 'the workspace does not exist' },
    responses: { 200: { description: 'the items with matching changes, planned (dryRun) or done', schema: named('ContentUndoResult', z.object({ dryRun: z.boolean(), items: z.array(undoItem) })) } },
  },
];
