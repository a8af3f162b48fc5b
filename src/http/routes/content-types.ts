import { Router } from 'express';
import type { ContentTypeCommands } from '../../../commands/content-types';
import { toContentTypeView, type ContentTypeQueries } from '../../../queries/content-types';
import { contentTypeInput } from '../../domain/content-type/definition';
import { type AccessGuard, commandContext, workspacePrincipal } from '../auth';
import { notFoundProblem, ProblemError } from '../problem';
import { MAX_CHECKED_PER_STAGE, type TypeChangeReport } from '../../../commands/content-type-changes';
import { z } from 'zod';
import { pathParam } from '../params';
import { parseInput } from '../validate';

const flag = z.enum(['true', 'false']).transform((value) => value === 'true').default(false);

/** PUT /content-types: `confirmBreakingChanges` saves a change that breaks stored items (POST /content-types/check shows which). */
export const saveContentTypeQuery = z.strictObject({ confirmBreakingChanges: flag });

/** What a change that breaks stored items is answered: what breaks, and how to go on. */
function breakingDetail(report: TypeChangeReport): string {
  const listed = report.problems.map(({ field, rule, stage, items }) => {
    const counted = `${items} ${stage} item${items === 1 ? '' : 's'}`;
    if (rule === 'required') return `${field}: no value in ${counted}`;
    if (rule === 'unique') return `${field}: a value shared by ${counted}`;
    return `${field}: ${counted} break "${rule}"`;
  });
  if (!report.complete) listed.push(`a stage holds more than ${MAX_CHECKED_PER_STAGE} items, not all were checked`);
  return `this change of ${report.contentType} breaks stored items (${listed.join('; ')}). Send it again with ?confirmBreakingChanges=true to save it anyway (the items keep their values until their next save, which must then follow the rules), or POST it to /content-types/check to see this report without saving`;
}

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
    const { confirmBreakingChanges } = parseInput(saveContentTypeQuery, req.query, 'query');
    const definition = parseInput(contentTypeInput, req.body);
    const report = await commands.checkChange(workspaceId, definition);
    if (report.breaking && !confirmBreakingChanges) throw new ProblemError(409, breakingDetail(report), undefined, { report });
    await commands.save(workspaceId, definition, commandContext(req, res));
    const saved = await queries.get(workspaceId, definition.key);
    if (!saved) throw new Error(`content type ${definition.key} was saved but is not readable`);
    res.json(toContentTypeView(saved));
  });

  router.post('/content-types/check', access('WriteAccess'), async (req, res) => {
    res.json(await commands.checkChange(workspacePrincipal(res).workspaceId, parseInput(contentTypeInput, req.body)));
  });

  router.delete('/content-types/:key', access('WriteAccess'), async (req, res) => {
    await commands.delete(workspacePrincipal(res).workspaceId, pathParam(req, 'key'), commandContext(req, res));
    res.json({ success: true });
  });

  return router;
}
