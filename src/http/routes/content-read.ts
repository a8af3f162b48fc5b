import type { Request, Router } from 'express';
import { z } from 'zod';
import type { ContentItemDocument, Stage } from '../../../projections/read-models/content-items';
import type { ContentTypeDocument } from '../../../projections/read-models/content-types';
import type { ContentQueries } from '../../../queries/content';
import type { ReleasePreview } from '../../../queries/release-preview';
import { itemMetadata, PLAIN_VIEW, toV1, toV2, type ViewOptions } from '../../../queries/content-views';
import { type AccessGuard, workspacePrincipal } from '../auth';
import { pathParam } from '../params';
import { parseInput, takesNoQuery } from '../validate';
import { optionalAsOfQuery } from './content-history-schemas';

/** The query of a V2 item read: `?meta=true` adds its `sys` (`asOf` is answered by the history routes). */
export const itemQuery = optionalAsOfQuery.extend({ meta: z.enum(['true', 'false']).optional() });
/** `?release=<id>` on the V2 published reads: the content as that Open release will publish it. */
export const releaseParameter = z.uuid({ error: 'must be a release id' }).optional();
export const previewQuery = itemQuery.extend({ release: releaseParameter });
import { viewBody } from './content-schemas';

export interface ContentFamily {
  /** `/contents`, `/preview-contents`, `/v2/contents` or `/v2/preview-contents`. */
  readonly base: string;
  readonly model: 'v1' | 'v2';
  readonly stage: Stage;
}

export function render(family: ContentFamily, document: ContentItemDocument, type: ContentTypeDocument, options: ViewOptions = PLAIN_VIEW, meta = false) {
  if (family.model === 'v1') return toV1(document, type, options);
  const item = toV2(document, type, options);
  return meta ? { ...item, sys: itemMetadata(document) } : item;
}

/** A page of the V2 search: the items in the path's model, with the totals. */
export function searchAnswer(
  family: ContentFamily,
  type: ContentTypeDocument,
  items: readonly ContentItemDocument[],
  total: number,
  page: { readonly page: number; readonly pageSize: number; readonly meta?: boolean },
  options: ViewOptions,
) {
  const totalPages = Math.ceil(total / page.pageSize);
  return {
    items: items.map((document) => render(family, document, type, options, page.meta)),
    total,
    page: page.page,
    pageSize: page.pageSize,
    totalPages,
    hasMorePages: page.page < totalPages,
  };
}

/** V2 item reads take `?meta=true` (published ones also `?release=`); V1 ones no parameter (`asOf` is answered before them). */
function itemReadQuery(family: ContentFamily, query: unknown): { meta: boolean; release?: string } {
  if (family.model === 'v1') {
    parseInput(optionalAsOfQuery, query, 'query');
    return { meta: false };
  }
  const { meta, release } = parseInput(family.stage === 'published' ? previewQuery : itemQuery, query, 'query') as z.output<typeof previewQuery>;
  return release === undefined ? { meta: meta === 'true' } : { meta: meta === 'true', release };
}

/** The item reads of a content family: the item, and (V1) its view translated and with relations expanded. */
export function contentItemRoutes(router: Router, access: AccessGuard, queries: ContentQueries, preview: ReleasePreview, family: ContentFamily): void {
  const { base, stage } = family;
  const context = async (req: Request, res: Parameters<typeof workspacePrincipal>[0]) => {
    const { workspaceId } = workspacePrincipal(res);
    return { workspaceId, type: await queries.type(workspaceId, pathParam(req, 'type')) };
  };

  // `?asOf=` is answered by the history routes before this one: any other parameter is refused, naming it.
  router.get(`${base}/:type/:id`, access('ReadAccess'), async (req, res) => {
    const { meta, release } = itemReadQuery(family, req.query);
    const { workspaceId, type } = await context(req, res);
    const itemId = pathParam(req, 'id');
    if (release === undefined) return void res.json(render(family, await queries.item(workspaceId, type.key, itemId, stage), type, PLAIN_VIEW, meta));
    // A preview is not the published answer, and changes with the release and its drafts under the same URL: never stored.
    res.set({ 'Release-Preview': release, 'Cache-Control': 'no-store' });
    const previewed = await preview.item(workspaceId, release, type.key, itemId);
    res.json(render(family, previewed ?? (await queries.item(workspaceId, type.key, itemId, stage)), type, PLAIN_VIEW, meta));
  });

  if (family.model === 'v1') {
    router.post(`${base}/:type/:id`, access('ReadAccess'), takesNoQuery, async (req, res) => {
      const { workspaceId, type } = await context(req, res);
      const body = parseInput(viewBody, req.body ?? {});
      const document = await queries.item(workspaceId, type.key, pathParam(req, 'id'), stage);
      res.json(render(family, document, type, await queries.viewOptions(workspaceId, type, [document], stage, body)));
    });
  }
}
