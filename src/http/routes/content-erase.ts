import type { Router } from 'express';
import { z } from 'zod';
import type { ContentCommands } from '../../../commands/content';
import type { ContentQueries } from '../../../queries/content';
import { type AccessGuard, commandContext, workspacePrincipal } from '../auth';
import { pathParam } from '../params';
import { parseInput, takesNoQuery } from '../validate';
import type { ContentFamily } from './content-read';

/** Why an item is erased: kept in the erasure event for audit, so it must not name the person. */
export const eraseBody = z.strictObject({
  reason: z.string({ error: 'is required' }).trim().min(1, 'is required').max(500, 'must be at most 500 characters'),
  clientInfo: z.string().max(2000).nullish(),
});

/** `POST {base}/{type}/{id}/erase` (published paths, V1 and V2): erasure of a personal-data item (docs/api.md). */
export function contentEraseRoutes(router: Router, access: AccessGuard, commands: ContentCommands, queries: ContentQueries, family: ContentFamily): void {
  router.post(`${family.base}/:type/:id/erase`, access('WriteAccess'), takesNoQuery, async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const type = await queries.type(workspaceId, pathParam(req, 'type'));
    const body = parseInput(eraseBody, req.body ?? {});
    await commands.erase(workspaceId, type.key, pathParam(req, 'id'), body.reason, commandContext(req, res, body.clientInfo));
    res.json({ success: true });
  });
}
