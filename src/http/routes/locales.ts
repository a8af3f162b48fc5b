import { Router } from 'express';
import { z } from 'zod';
import type { LocaleCommands } from '../../../commands/locales';
import type { LocaleQueries } from '../../../queries/locales';
import { type AccessGuard, commandContext, workspacePrincipal } from '../auth';
import { pathParam } from '../params';
import { parseInput } from '../validate';

const cultureCode = z
  .string({ error: 'is required' })
  .trim()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'must be a culture code such as en or en-US');

export const saveLocaleBody = z.strictObject({
  code: cultureCode,
  name: z.string().trim().max(200).nullish(),
  fallbackCode: z.string().trim().max(50).nullish(),
  default: z.boolean().optional(),
});

export function localesRouter(access: AccessGuard, commands: LocaleCommands, queries: LocaleQueries): Router {
  const router = Router();

  router.get('/locales', access('ReadAccess'), async (_req, res) => {
    res.json(await queries.list(workspacePrincipal(res).workspaceId));
  });

  router.put('/locales', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const input = parseInput(saveLocaleBody, req.body);
    await commands.save(workspaceId, input, commandContext(req, res));
    const saved = (await queries.list(workspaceId)).find((locale) => locale.code.toLowerCase() === input.code.toLowerCase());
    res.json(saved);
  });

  router.delete('/locales/:code', access('WriteAccess'), async (req, res) => {
    await commands.delete(workspacePrincipal(res).workspaceId, pathParam(req, 'code'), commandContext(req, res));
    res.json({ success: true });
  });

  return router;
}
