import type { Request, Response, Router } from 'express';
import type { ContentCommands } from '../../../commands/content';
import type { ContentTypeDocument } from '../../../projections/read-models/content-types';
import type { ContentQueries } from '../../../queries/content';
import type { ContentHistoryQueries } from '../../../queries/content-history';
import type { StageAtVersion } from '../../../queries/content-timeline';
import { createPatch } from '../../domain/json-patch';
import { type AccessGuard, commandContext, workspacePrincipal } from '../auth';
import type { WorkspaceReads } from '../workspace-reads';
import { pathParam } from '../params';
import { notFoundProblem } from '../problem';
import { parseInput, takesNoQuery } from '../validate';
import { type ContentFamily, render } from './content-read';
import { asOfQuery, diffQuery, restoreBody } from './content-history-schemas';

/**
 * History of an item, from its own stream (CONTRACT.md additions): its events, its stage at a
 * version or at a time (published paths answer published states, preview paths drafts),
 * restore and diff. Registered before the family's read routes: `GET .../:id?asOf=` is
 * answered here, a plain `GET .../:id` passes on to them.
 */
export function contentHistoryRoutes(
  router: Router,
  access: AccessGuard,
  reads: WorkspaceReads,
  queries: ContentQueries,
  history: ContentHistoryQueries,
  commands: ContentCommands,
  family: ContentFamily,
): void {
  const { base, stage } = family;
  const context = async (req: Request, res: Response) => {
    const { workspaceId } = workspacePrincipal(res);
    return { workspaceId, type: await queries.type(workspaceId, pathParam(req, 'type')), itemId: pathParam(req, 'id') };
  };
  /** The stage at version `n` with its values (404 for a version that is not a whole number). */
  const atVersion = async (workspaceId: string, type: ContentTypeDocument, itemId: string, n: string): Promise<StageAtVersion> => {
    const version = Number(n);
    if (!Number.isInteger(version)) throw notFoundProblem(`no version ${n}`);
    const timeline = await history.timeline(workspaceId, type.key, itemId);
    return history.withValues(workspaceId, itemId, readable(type, timeline.atVersion(stage, version), timeline.latest));
  };

  router.get(
    `${base}/:type/:id/history`,
    access('ReadAccess'),
    takesNoQuery,
    reads(async (req, res) => {
      const { workspaceId, type, itemId } = await context(req, res);
      res.json(await history.history(workspaceId, type.key, itemId));
    }),
  );

  router.get(`${base}/:type/:id/versions/:n`, access('ReadAccess'), takesNoQuery, async (req, res) => {
    const { workspaceId, type, itemId } = await context(req, res);
    const found = await atVersion(workspaceId, type, itemId, pathParam(req, 'n'));
    const { document } = found;
    res.json({
      version: found.version,
      at: found.at,
      stage: found.stage,
      updatedAt: document.updatedAt,
      publishedAt: document.publishedAt,
      item: render(family, document, type),
    });
  });

  router.post(`${base}/:type/:id/versions/:n/restore`, access('WriteAccess'), takesNoQuery, async (req, res) => {
    const { workspaceId, type, itemId } = await context(req, res);
    const { reason, clientInfo } = parseInput(restoreBody, req.body ?? {});
    const found = await atVersion(workspaceId, type, itemId, pathParam(req, 'n'));
    const { fields, translations } = found.document;
    const restored = { content: { fields, translations }, fromVersion: found.version, stage, reason: reason || null };
    await commands.restore(workspaceId, type.key, itemId, restored, commandContext(req, res, clientInfo));
    // The draft as the read model now holds it (the command waited for it).
    const draft = await queries.item(workspaceId, type.key, itemId, 'draft');
    res.json({ version: draft.version, restoredFrom: found.version, item: render(family, draft, type) });
  });

  router.get(`${base}/:type/:id/diff`, access('ReadAccess'), async (req, res) => {
    const { workspaceId, type, itemId } = await context(req, res);
    const { from, to } = parseInput(diffQuery, req.query, 'query');
    const timeline = await history.timeline(workspaceId, type.key, itemId);
    const found = [from, to].map((version) => readable(type, timeline.atVersion(stage, version), timeline.latest));
    const [before, after] = await Promise.all(found.map((version) => history.withValues(workspaceId, itemId, version)));
    res.json(createPatch(render(family, before!.document, type), render(family, after!.document, type)));
  });

  router.get(
    `${base}/:type/:id`,
    (req, _res, next) => next(req.query.asOf === undefined ? 'route' : undefined),
    access('ReadAccess'),
    async (req, res) => {
      const { workspaceId, type, itemId } = await context(req, res);
      const { asOf } = parseInput(asOfQuery, req.query, 'query');
      const timeline = await history.timeline(workspaceId, type.key, itemId);
      const found = await history.withValues(workspaceId, itemId, readable(type, timeline.asOf(stage, asOf), timeline.latest));
      res.set('Content-Location', `${req.baseUrl}${base}/${encodeURIComponent(type.key)}/${encodeURIComponent(itemId)}/versions/${found.version}`);
      res.json(render(family, found.document, type));
    },
  );
}

/** With versioning disabled only the current version is readable; the events stay for audit. */
function readable(type: ContentTypeDocument, found: StageAtVersion, latest: number): StageAtVersion {
  if (type.versioningDisabled && found.version !== latest) throw notFoundProblem(`versioning is disabled for ${type.key}: only version ${latest} is readable`);
  return found;
}
