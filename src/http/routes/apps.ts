import { Router } from 'express';
import { z } from 'zod';
import type { AppCommands } from '../../../commands/apps';
import type { AppQueries } from '../../../queries/apps';
import { stringMap } from '../../domain/app/events';
import { type AccessGuard, appPrincipal, commandContext } from '../auth';
import { pathParam } from '../params';
import { notFoundProblem } from '../problem';
import { parseInput } from '../validate';

export const installedWorkspacesQuery = z.object({
  userId: z.string().trim().min(1, 'must not be empty').max(200).optional(),
});

export interface AppServices {
  readonly commands: AppCommands;
  readonly queries: AppQueries;
}

/** The spec's Apps endpoints: an app key sees and changes only its own app. */
export function appsRouter(access: AccessGuard, { commands, queries }: AppServices): Router {
  const router = Router();

  router.get('/apps', access('App.ReadAccess'), async (_req, res) => {
    const { appId } = appPrincipal(res);
    const settings = await queries.settings(appId);
    if (!settings) throw notFoundProblem(`app ${appId} does not exist`);
    res.json(settings);
  });

  router.post('/apps', access('WriteAccess', { appMayWrite: true }), async (req, res) => {
    const { appId } = appPrincipal(res);
    await commands.mergeParameters(appId, parseInput(stringMap, req.body), commandContext(req, res));
    res.json({ success: true });
  });

  // The fixed paths are declared before the parameterised /apps/:userId/... route.
  router.get('/apps/workspaces', access('App.ReadAccess'), async (req, res) => {
    const { userId } = parseInput(installedWorkspacesQuery, req.query, 'query');
    res.json(await queries.installedWorkspaces(appPrincipal(res).appId, userId));
  });

  router.get('/apps/workspaces/all', access('App.ReadAccess'), async (_req, res) => {
    res.json(await queries.installedWorkspaces(appPrincipal(res).appId));
  });

  router.get('/apps/:userId/workspaces/:workspaceId', access('App.UserAccess'), async (req, res) => {
    const userId = pathParam(req, 'userId');
    const workspaceId = pathParam(req, 'workspaceId');
    const settings = await queries.userSettings(appPrincipal(res).appId, userId, workspaceId);
    if (!settings) throw notFoundProblem(`the app is not installed in workspace ${workspaceId} for user ${userId}`);
    res.json(settings);
  });

  return router;
}
