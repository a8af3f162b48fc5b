import { Router, type Request } from 'express';
import { z } from 'zod';
import type { ActionCommands } from '../../../commands/actions';
import type { ContentActions } from '../../../projections/processes/content-actions';
import type { ActionQueries } from '../../../queries/actions';
import { type AccessGuard, commandContext, workspacePrincipal } from '../auth';
import { requestIds } from '../request-id';
import { ProblemError } from '../problem';
import { parseInput } from '../validate';

export interface ActionServices {
  readonly actions: ContentActions;
  readonly commands: ActionCommands;
  readonly queries: ActionQueries;
}

const MAX_CALLBACK_TEXT = 256 * 1024;

export const actionPath = z.object({
  contentTypeKey: z.string().min(1),
  contentId: z.uuid({ error: 'must be a GUID' }),
  actionId: z.string().min(1),
});

export const callbackPath = z.object({
  workspaceId: z.string().min(1),
  operationId: z.uuid({ error: 'must be a GUID' }),
});

export const callbackBody = z.object({
  success: z.boolean({ error: 'is required and must be true or false' }),
  result: z.string().max(MAX_CALLBACK_TEXT).nullish().transform((value) => value ?? null),
  error: z.string().max(MAX_CALLBACK_TEXT).nullish().transform((value) => value ?? null),
  message: z.string().max(2000).nullish().transform((value) => value ?? null),
  progress: z.number({ error: 'must be a number' }).int('must be a whole number').min(0).max(100).nullish().transform((value) => value ?? null),
});

/** Content actions: execute, navigate, status, and the anonymous callback of the external service. */
export function actionsRouter(access: AccessGuard, services: ActionServices): Router {
  const { actions, commands, queries } = services;
  const router = Router();
  const actionOf = (req: Request) => parseInput(actionPath, req.params, 'path');

  router.get('/actions/:contentTypeKey/:contentId/:actionId/execute', access('ReadAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const { contentTypeKey, contentId, actionId } = actionOf(req);
    const outcome = await actions.execute(workspaceId, contentTypeKey, contentId, actionId, commandContext(req, res));
    switch (outcome.mode) {
      case 'synchronous': {
        const { mode: _mode, ...answer } = outcome;
        res.json(answer);
        return;
      }
      case 'callback':
        res.json({ operationId: outcome.operationId, callbackUrl: outcome.callbackUrl });
        return;
      case 'refused':
        throw new ProblemError(502, `${outcome.reason}; execution ${outcome.operationId} ended Failed`, undefined, {
          operationId: outcome.operationId,
          statusCode: outcome.statusCode,
        });
    }
  });

  router.get('/actions/:contentTypeKey/:contentId/:actionId/navigate', access('ReadAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const { contentTypeKey, contentId, actionId } = actionOf(req);
    res.json({ url: await queries.navigateUrl(workspaceId, contentTypeKey, contentId, actionId) });
  });

  router.get('/actions/:contentTypeKey/:contentId/:actionId/status', access('ReadAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const { contentTypeKey, contentId, actionId } = actionOf(req);
    res.json(await queries.status(workspaceId, contentTypeKey, contentId, actionId));
  });

  // Anonymous: the unguessable operation id stands in for a credential.
  router.post('/actions/callback/:workspaceId/:operationId', async (req, res) => {
    const { workspaceId, operationId } = parseInput(callbackPath, req.params, 'path');
    const report = parseInput(callbackBody, req.body ?? {});
    const operation = await queries.operation(workspaceId, operationId);
    await commands.report(operation, report, { workspaceId, actor: 'action-callback', ...requestIds(res), readYourWrites: true });
    res.json(await queries.status(workspaceId, operation.contentType, operation.contentId, operation.actionId));
  });

  return router;
}
