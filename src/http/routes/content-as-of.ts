import type { Request, RequestHandler, Response, Router } from 'express';
import type { ContentAsOfQueries } from '../../../queries/content-as-of';
import type { ContentQueries } from '../../../queries/content';
import { type AccessGuard, workspacePrincipal } from '../auth';
import type { WorkspaceReads } from '../workspace-reads';
import { pathParam } from '../params';
import { badRequest, ProblemError } from '../problem';
import { parseInput } from '../validate';
import { asOfQuery } from './content-history-schemas';
import { type ContentFamily, searchAnswer } from './content-read';
import { aggregateBody, aggregateGroupBody, idsPageBody, searchPageBody } from './content-schemas';

/** The as-of read model and whether it may answer: a read model still being backfilled is empty. */
export interface AsOfServices {
  readonly queries: ContentAsOfQueries;
  readonly ready: () => boolean;
}

const BACKFILL_RETRY_AFTER_SECONDS = 5;

/** Only requests that carry `?asOf=` are answered here; the others pass on to the family's read routes. */
const withAsOf: RequestHandler = (req, _res, next) => next(req.query.asOf === undefined ? 'route' : undefined);

/**
 * `?asOf=<ISO time>` on the published list (V2), ids and aggregate queries: what the path
 * answered at that time, from the published_versions read model. Registered before the
 * family's read routes. Preview paths answer 400: drafts have no as-of lists.
 */
export function contentAsOfRoutes(router: Router, access: AccessGuard, reads: WorkspaceReads, queries: ContentQueries, asOf: AsOfServices, family: ContentFamily): void {
  const { base, stage } = family;
  const context = async (req: Request, res: Response) => {
    const { workspaceId } = workspacePrincipal(res);
    const type = await queries.type(workspaceId, pathParam(req, 'type'));
    if (stage !== 'published') throw badRequest('asOf on lists, ids and aggregates is answered on the published paths only', [{ field: 'asOf', message: 'not answered on preview paths' }]);
    const at = parseInput(asOfQuery, req.query, 'query').asOf;
    if (!asOf.ready()) {
      res.set('Retry-After', String(BACKFILL_RETRY_AFTER_SECONDS));
      throw new ProblemError(503, 'the read model of published versions is being built from the log; retry after the Retry-After delay');
    }
    return { workspaceId, type, at };
  };

  router.post(`${base}/:type/ids`, withAsOf, access('ReadAccess'), reads(async (req, res) => {
    const { workspaceId, type, at } = await context(req, res);
    res.json(await asOf.queries.ids(workspaceId, type, at, parseInput(idsPageBody, req.body ?? {})));
  }));

  router.post(`${base}/:type/aggregate`, withAsOf, access('ReadAccess'), reads(async (req, res) => {
    const { workspaceId, type, at } = await context(req, res);
    res.json({ value: await asOf.queries.aggregate(workspaceId, type, at, parseInput(aggregateBody, req.body)) });
  }));

  router.post(`${base}/:type/aggregategroup`, withAsOf, access('ReadAccess'), reads(async (req, res) => {
    const { workspaceId, type, at } = await context(req, res);
    res.json({ items: await asOf.queries.aggregateGroups(workspaceId, type, at, parseInput(aggregateGroupBody, req.body)) });
  }));

  if (family.model === 'v2') {
    router.post(`${base}/:type`, withAsOf, access('ReadAccess'), reads(async (req, res) => {
      const { workspaceId, type, at } = await context(req, res);
      const body = parseInput(searchPageBody, req.body ?? {});
      const { items, total } = await asOf.queries.search(workspaceId, type, at, body);
      const options = await queries.viewOptions(workspaceId, type, items, stage, body, (itemIds) => asOf.queries.relatedAt(workspaceId, itemIds, at));
      res.json(searchAnswer(family, type, items, total, body, options));
    }));
  }
}
