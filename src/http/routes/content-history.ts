import type { Router } from 'express';
import type { ContentItemDocument } from '../../../projections/read-models/content-items';
import type { ContentQueries } from '../../../queries/content';
import type { ContentHistoryQueries } from '../../../queries/content-history';
import { type AccessGuard, workspacePrincipal } from '../auth';
import { pathParam } from '../params';
import { notFoundProblem } from '../problem';
import { type ContentFamily, render } from './content-read';

/** History and versions of an item, from its own stream (CONTRACT.md additions). */
export function contentHistoryRoutes(router: Router, access: AccessGuard, queries: ContentQueries, history: ContentHistoryQueries, family: ContentFamily): void {
  router.get(`${family.base}/:type/:id/history`, access('ReadAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const type = await queries.type(workspaceId, pathParam(req, 'type'));
    res.json(await history.history(workspaceId, type.key, pathParam(req, 'id')));
  });

  router.get(`${family.base}/:type/:id/versions/:n`, access('ReadAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const type = await queries.type(workspaceId, pathParam(req, 'type'));
    const itemId = pathParam(req, 'id');
    const version = Number(pathParam(req, 'n'));
    if (!Number.isInteger(version)) throw notFoundProblem(`no version ${pathParam(req, 'n')}`);
    const { state, at, latest, createdAt } = await history.atVersion(workspaceId, type.key, itemId, version);
    // With versioning disabled only the current state is readable; the events stay for audit.
    if (type.versioningDisabled && version !== latest) throw notFoundProblem(`versioning is disabled for ${type.key}: only version ${latest} is readable`);
    const content = state.draft ?? state.published;
    if (!content) throw notFoundProblem(`content item ${itemId} had no content at version ${version}`);
    const document: ContentItemDocument = {
      id: itemId,
      workspaceId,
      contentType: type.key,
      itemId,
      stage: family.stage,
      fields: content.fields,
      translations: content.translations as ContentItemDocument['translations'],
      createdAt,
      updatedAt: at,
      publishedAt: null,
      version,
    };
    res.json({ version, at, item: render(family, document, type) });
  });
}
