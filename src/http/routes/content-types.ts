import { Router } from 'express';
import type { ContentTypeCommands } from '../../../commands/content-types';
import { toContentTypeView, type ContentTypeQueries } from '../../../queries/content-types';
import { contentTypeInput } from '../../domain/content-type/definition';
import { type AccessGuard, commandContext, workspacePrincipal } from '../auth';
import { notFoundProblem } from '../problem';
import { pathParam } from '../params';
import { parseInput } from '../validate';

export function contentTypesRouter(access: AccessGuard, commands: ContentTypeCommands, queries: ContentTypeQueries): Router {
  const router = Router();

  router.get('/content-types', access('ReadAccess'), async (_req, res) => {
    res.json(await queries.list(workspacePrincipal(res).workspaceId));
  });

  router.get('/content-types/:key', access('ReadAccess'), async (req, res) => {
    const document = await queries.get(workspacePrincipal(res).workspaceId, pathParam(req, 'key'));
    if (!document) throw notFoundProblem(`content type ${pathParam(req, 'key')} does not exist`);
    res.json(toContentTypeView(document));
  });

  router.put('/content-types', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const definition = parseInput(contentTypeInput, req.body);
    await commands.save(workspaceId, definition, commandContext(req, res));
    const saved = await queries.get(workspaceId, definition.key);
    if (!saved) throw new Error(`content type ${definition.key} was saved but is not readable`);
    res.json(toContentTypeView(saved));
  });

  router.delete('/content-types/:key', access('WriteAccess'), async (req, res) => {
    await commands.delete(workspacePrincipal(res).workspaceId, pathParam(req, 'key'), commandContext(req, res));
    res.json({ success: true });
  });

  return router;
}
