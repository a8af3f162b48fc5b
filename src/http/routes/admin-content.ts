import { type Request, Router } from 'express';
import { z } from 'zod';
import type { ReadModelBarrier } from '../../../commands/aggregate';
import type { ContentCommands } from '../../../commands/content';
import { ContentUndo } from '../../../commands/content-undo';
import type { EventStore } from '../../../infra/eventstore/port';
import { operatorContentHistory } from '../../../queries/operator-content-history';
import type { WorkspaceQueries } from '../../../queries/workspaces';
import { commandContext } from '../auth';
import { notFoundProblem } from '../problem';
import { pathParam } from '../params';
import { parseInput } from '../validate';

const isoTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).transform((value) => new Date(value).toISOString());

/** Which changes to revert; every criterion given must match. */
export const undoSelector = z
  .object({
    actor: z.string().min(1).max(200).optional().describe('the actor of the events: key:<keyId>, app:<appId> or admin (see history)'),
    requestId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("the server's id of the request the changes were made under (X-Server-Request-Id, serverRequestId in history and the audit feed); events written before it was recorded are selected by their X-Request-Id"),
    correlationId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe("the client's X-Request-Id (requestId in history and the audit feed), which may span several requests; only with actor, since any client can send any value"),
    from: isoTime.optional().describe('changes at or after this time'),
    to: isoTime.optional().describe('changes before this time'),
  })
  .refine((selector) => Object.values(selector).some((value) => value !== undefined), { message: 'give actor, requestId, correlationId, from or to', path: ['actor'] })
  .refine((selector) => selector.correlationId === undefined || selector.actor !== undefined, {
    message: "selects only with actor: any client can send the same X-Request-Id, so alone it could sweep in another key's changes; or select one request by requestId, the server's own id",
    path: ['correlationId'],
  });

export const MAX_OPERATOR_HISTORY_LIMIT = 1000;

export const operatorHistoryQuery = z.strictObject({
  fromVersion: z.coerce.number({ error: 'must be a number' }).int().min(1).default(1).describe('the first version listed (1-based); a version past the last answers []'),
  limit: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(1)
    .max(MAX_OPERATOR_HISTORY_LIMIT)
    .optional()
    .describe('at most this many versions from fromVersion (every one when absent); an answer shorter than limit is the last page, the next starts at the last version + 1'),
});

export const MAX_UNDO_ITEMS = 500;

export const undoBody = z.object({
  selector: undoSelector,
  dryRun: z.boolean().default(false).describe('only answer what would be done'),
  reason: z.string().trim().min(1, 'is required').max(2000).optional().describe('required unless dryRun; kept in every event appended'),
  itemIds: z
    .array(z.string().min(1).max(200))
    .max(MAX_UNDO_ITEMS, `at most ${MAX_UNDO_ITEMS} per request`)
    .optional()
    .describe('revert only these items (the CLI sends the planned items in batches); without it the log is scanned for them'),
}).refine((body) => body.dryRun || body.reason !== undefined, { message: 'is required unless dryRun', path: ['reason'] });

/** An operator's view of content under /admin: any item's history (its type deleted or not) and bulk undo. */
export function adminContentRouter(events: EventStore, commands: ContentCommands, workspaces: WorkspaceQueries, readModels: ReadModelBarrier): Router {
  const router = Router();
  const undo = new ContentUndo(events, commands, readModels);
  const workspaceOf = async (req: Request) => {
    const workspaceId = pathParam(req, 'workspaceId');
    if ((await workspaces.listByIds([workspaceId])).length === 0) throw notFoundProblem(`workspace ${workspaceId} does not exist`);
    return workspaceId;
  };

  router.get('/workspaces/:workspaceId/contents/:itemId/history', async (req, res) => {
    const workspaceId = await workspaceOf(req);
    res.json(await operatorContentHistory(events, workspaceId, pathParam(req, 'itemId'), parseInput(operatorHistoryQuery, req.query, 'query')));
  });

  router.post('/workspaces/:workspaceId/content-undo', async (req, res) => {
    const workspaceId = await workspaceOf(req);
    const { selector, dryRun, reason, itemIds } = parseInput(undoBody, req.body ?? {});
    const items = itemIds ? [...new Set(itemIds)] : await undo.findItems(workspaceId, selector);
    const context = { ...commandContext(req, res), workspaceId };
    const answers = await undo.run(workspaceId, items, selector, dryRun ? null : { reason: reason!, context });
    res.json({ dryRun, items: answers });
  });

  return router;
}
