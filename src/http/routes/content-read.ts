import type { Request, Router } from 'express';
import type { ContentItemDocument, Stage } from '../../../projections/read-models/content-items';
import type { ContentTypeDocument } from '../../../projections/read-models/content-types';
import type { ContentQueries } from '../../../queries/content';
import { PLAIN_VIEW, toV1, toV2, type ViewOptions } from '../../../queries/content-views';
import { type AccessGuard, workspacePrincipal } from '../auth';
import type { WorkspaceReads } from '../workspace-reads';
import { pathParam } from '../params';
import { parseInput } from '../validate';
import { aggregateBody, aggregateGroupBody, idsPageBody, searchPageBody, viewBody } from './content-schemas';

export interface ContentFamily {
  /** `/contents`, `/preview-contents`, `/v2/contents` or `/v2/preview-contents`. */
  readonly base: string;
  readonly model: 'v1' | 'v2';
  readonly stage: Stage;
}

export function render(family: ContentFamily, document: ContentItemDocument, type: ContentTypeDocument, options: ViewOptions = PLAIN_VIEW) {
  return family.model === 'v1' ? toV1(document, type, options) : toV2(document, type, options);
}

/** A page of the V2 search: the items in the path's model, with the totals. */
export function searchAnswer(
  family: ContentFamily,
  type: ContentTypeDocument,
  items: readonly ContentItemDocument[],
  total: number,
  page: { readonly page: number; readonly pageSize: number },
  options: ViewOptions,
) {
  const totalPages = Math.ceil(total / page.pageSize);
  return {
    items: items.map((document) => render(family, document, type, options)),
    total,
    page: page.page,
    pageSize: page.pageSize,
    totalPages,
    hasMorePages: page.page < totalPages,
  };
}

/** The read endpoints every content family has: ids, aggregates, one item; V1 item views, V2 search. Queries take a place of their workspace's reads. */
export function contentReadRoutes(router: Router, access: AccessGuard, reads: WorkspaceReads, queries: ContentQueries, family: ContentFamily): void {
  const { base, stage } = family;
  const context = async (req: Request, res: Parameters<typeof workspacePrincipal>[0]) => {
    const { workspaceId } = workspacePrincipal(res);
    return { workspaceId, type: await queries.type(workspaceId, pathParam(req, 'type')) };
  };

  router.post(
    `${base}/:type/ids`,
    access('ReadAccess'),
    reads(async (req, res) => {
      const { workspaceId, type } = await context(req, res);
      const body = parseInput(idsPageBody, req.body ?? {});
      res.json(await queries.ids(workspaceId, type, stage, body));
    }),
  );

  router.post(
    `${base}/:type/aggregate`,
    access('ReadAccess'),
    reads(async (req, res) => {
      const { workspaceId, type } = await context(req, res);
      res.json({ value: await queries.aggregate(workspaceId, type, stage, parseInput(aggregateBody, req.body)) });
    }),
  );

  router.post(
    `${base}/:type/aggregategroup`,
    access('ReadAccess'),
    reads(async (req, res) => {
      const { workspaceId, type } = await context(req, res);
      res.json({ items: await queries.aggregateGroups(workspaceId, type, stage, parseInput(aggregateGroupBody, req.body)) });
    }),
  );

  if (family.model === 'v2') {
    router.post(
      `${base}/:type`,
      access('ReadAccess'),
      reads(async (req, res) => {
        const { workspaceId, type } = await context(req, res);
        const body = parseInput(searchPageBody, req.body ?? {});
        const { items, total } = await queries.search(workspaceId, type, stage, body);
        const options = await queries.viewOptions(workspaceId, type, items, stage, body);
        res.json(searchAnswer(family, type, items, total, body, options));
      }),
    );
  }

  router.get(`${base}/:type/:id`, access('ReadAccess'), async (req, res) => {
    const { workspaceId, type } = await context(req, res);
    res.json(render(family, await queries.item(workspaceId, type.key, pathParam(req, 'id'), stage), type));
  });

  if (family.model === 'v1') {
    router.post(`${base}/:type/:id`, access('ReadAccess'), async (req, res) => {
      const { workspaceId, type } = await context(req, res);
      const body = parseInput(viewBody, req.body ?? {});
      const document = await queries.item(workspaceId, type.key, pathParam(req, 'id'), stage);
      res.json(render(family, document, type, await queries.viewOptions(workspaceId, type, [document], stage, body)));
    });
  }
}
