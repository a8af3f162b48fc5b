import { Router } from 'express';
import { z } from 'zod';
import type { WorkspaceKeyCommands } from '../../../commands/workspace-keys';
import type { WorkspaceQueries } from '../../../queries/workspaces';
import { commandContext } from '../auth';
import { pathParam } from '../params';
import { notFoundProblem } from '../problem';
import { parseInput } from '../validate';

export const dataKeyActionBody = z.object({
  reason: z.string({ error: 'is required' }).trim().min(1, 'is required').max(500, 'must be at most 500 characters'),
});

/** Operator actions on a workspace's data key: shred it (with a reason and an event), and create a new one on purpose. */
export function adminDataKeyRouter(keys: WorkspaceKeyCommands, workspaces: WorkspaceQueries): Router {
  const router = Router();
  const workspaceOf = async (workspaceId: string) => {
    if (!(await workspaces.get(workspaceId))) throw notFoundProblem(`workspace ${workspaceId} does not exist`);
    return workspaceId;
  };

  router.post('/workspaces/:workspaceId/data-key/shred', async (req, res) => {
    const workspaceId = await workspaceOf(pathParam(req, 'workspaceId'));
    const { reason } = parseInput(dataKeyActionBody, req.body ?? {});
    await keys.shred(workspaceId, reason, commandContext(req, res));
    res.json({ success: true });
  });

  router.post('/workspaces/:workspaceId/data-key', async (req, res) => {
    const workspaceId = await workspaceOf(pathParam(req, 'workspaceId'));
    const { reason } = parseInput(dataKeyActionBody, req.body ?? {});
    await keys.createAfterShred(workspaceId, reason, commandContext(req, res));
    res.status(201).json({ success: true });
  });

  return router;
}
