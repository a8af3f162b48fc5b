import { Router } from 'express';
import { Secret, TOTP } from 'otpauth';
import { z } from 'zod';
import type { AppCommands } from '../../../commands/apps';
import type { WorkspaceCommands } from '../../../commands/workspaces';
import { toWorkspaceInfo, type WorkspaceQueries } from '../../../queries/workspaces';
import { workspacePolicy } from '../../domain/api-key/events';
import { stringMap } from '../../domain/app/events';
import { commandContext } from '../auth';
import { notFoundProblem } from '../problem';
import { pathParam } from '../params';
import { parseInput } from '../validate';

export const createWorkspaceBody = z.object({
  name: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200),
  ownerUserId: z.string().max(200).nullish(),
  planType: z.string().max(100).nullish(),
  planRecords: z.number().int().nonnegative().nullish(),
  expirationDate: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).nullish()
    .transform((value) => (value ? new Date(value).toISOString() : value)),
});

export const issueKeyBody = z.object({
  name: z.string().max(200).nullish(),
  policies: z.array(workspacePolicy, { error: 'is required' }).min(1, 'must hold at least one policy'),
});

export const signingSecretBody = z.object({ secret: z.string({ error: 'is required' }).min(16, 'must be at least 16 characters').max(500) });

export const registerAppBody = z.object({
  name: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200),
  parameters: stringMap.default({}),
  fieldMapping: stringMap.default({}),
});

export const installAppBody = z.object({
  userId: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200),
  parameters: stringMap.default({}),
  fieldMapping: stringMap.default({}),
});

/** The admin API of CONTRACT.md; the router is mounted behind the admin-token check. */
export function adminRouter(workspaces: WorkspaceCommands, workspaceQueries: WorkspaceQueries, apps: AppCommands): Router {
  const router = Router();

  router.post('/workspaces', async (req, res) => {
    const input = parseInput(createWorkspaceBody, req.body);
    const workspaceId = await workspaces.create(input, commandContext(req, res));
    const created = await workspaceQueries.get(workspaceId);
    res.status(201).json(created ? toWorkspaceInfo(created) : { id: workspaceId });
  });

  router.get('/workspaces', async (_req, res) => {
    res.json(await workspaceQueries.list());
  });

  router.post('/workspaces/:workspaceId/api-keys', async (req, res) => {
    const input = parseInput(issueKeyBody, req.body);
    const issued = await workspaces.issueApiKey(pathParam(req, 'workspaceId'), input.name ?? null, input.policies, commandContext(req, res));
    res.status(201).json(issued);
  });

  router.get('/workspaces/:workspaceId/api-keys', async (req, res) => {
    const workspaceId = pathParam(req, 'workspaceId');
    if (!(await workspaceQueries.get(workspaceId))) throw notFoundProblem(`workspace ${workspaceId} does not exist`);
    res.json(await workspaceQueries.apiKeys(workspaceId));
  });

  router.delete('/workspaces/:workspaceId/api-keys/:keyId', async (req, res) => {
    await workspaces.revokeApiKey(pathParam(req, 'workspaceId'), pathParam(req, 'keyId'), commandContext(req, res));
    res.json({ success: true });
  });

  router.post('/workspaces/:workspaceId/totp', async (req, res) => {
    const workspace = await workspaceQueries.get(pathParam(req, 'workspaceId'));
    if (!workspace) throw notFoundProblem(`workspace ${pathParam(req, 'workspaceId')} does not exist`);
    const secret = new Secret({ size: 20 });
    await workspaces.setTotpSecret(workspace.id, secret.base32, commandContext(req, res));
    const totp = new TOTP({ issuer: 'Headless CMS', label: workspace.name, algorithm: 'SHA1', digits: 6, period: 30, secret });
    res.status(201).json({ secret: secret.base32, otpauthUrl: totp.toString() });
  });

  router.put('/workspaces/:workspaceId/scheduler-signing-secret', async (req, res) => {
    const { secret } = parseInput(signingSecretBody, req.body);
    await workspaces.setSchedulerSigningSecret(pathParam(req, 'workspaceId'), secret, commandContext(req, res));
    res.json({ success: true });
  });

  router.post('/apps', async (req, res) => {
    const input = parseInput(registerAppBody, req.body);
    res.status(201).json(await apps.register(input, commandContext(req, res)));
  });

  router.put('/apps/:appId/installations/:workspaceId', async (req, res) => {
    const input = parseInput(installAppBody, req.body);
    await apps.install(pathParam(req, 'appId'), pathParam(req, 'workspaceId'), input, commandContext(req, res));
    res.json({ success: true });
  });

  return router;
}
