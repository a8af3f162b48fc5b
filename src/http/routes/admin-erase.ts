import { Router } from 'express';
import type { ContentCommands } from '../../../commands/content';
import type { WorkspaceQueries } from '../../../queries/workspaces';
import { commandContext } from '../auth';
import { pathParam } from '../params';
import { notFoundProblem } from '../problem';
import { parseInput } from '../validate';
import { eraseBody } from './content-erase';

/** Erasure by an operator (`cms erase`), as the workspace's own erase endpoint does it; the actor is `admin`. */
export function adminEraseRouter(content: ContentCommands, workspaces: WorkspaceQueries): Router {
  const router = Router();
  router.post('/workspaces/:workspaceId/contents/:type/:id/erase', async (req, res) => {
    const workspaceId = pathParam(req, 'workspaceId');
    if (!(await workspaces.get(workspaceId))) throw notFoundProblem(`workspace ${workspaceId} does not exist`);
    const body = parseInput(eraseBody, req.body ?? {});
    await content.erase(workspaceId, pathParam(req, 'type'), pathParam(req, 'id'), body.reason, { ...commandContext(req, res, body.clientInfo), workspaceId });
    res.json({ success: true });
  });
  return router;
}
