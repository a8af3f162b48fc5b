import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import type { ContentTypeDocument } from '../../../projections/read-models/content-types';
import type { ContentAsOfQueries } from '../../../queries/content-as-of';
import type { ContentQueries } from '../../../queries/content';
import { type AccessGuard, workspacePrincipal } from '../auth';
import type { WorkspaceReads } from '../workspace-reads';
import { pathParam } from '../params';
import { badRequest, ProblemError } from '../problem';
import { queryBody } from '../query-body';
import { parseInput } from '../validate';
import { type ContentFamily, searchAnswer } from './content-read';
import { optionalAsOfQuery } from './content-history-schemas';
import { aggregateBody, aggregateGroupBody, idsPageBody, searchPageBody } from './content-schemas';

/** The as-of read model and whether it may answer: a read model still being backfilled is empty. */
export interface AsOfServices {
  readonly queries: ContentAsOfQueries;
  readonly ready: () => boolean;
}

const BACKFILL_RETRY_AFTER_SECONDS = 5;

interface QueryContext {
  readonly workspaceId: string;
  readonly type: ContentTypeDocument;
  /** With `?asOf=`: the time to answer for, from the published_versions read model. */
  readonly at: Date | undefined;
}

/**
 * The content queries of one family: ids, aggregates and (V2) the list, each as the spec's POST
 * with the query in the body and as a GET with the same query in the query string (cacheable:
 * src/http/conditional-get.ts). Both are parsed with the same schema. `?asOf=<ISO time>` on the
 * published paths answers what the path answered then; preview paths answer 400.
 */
export function contentQueryRoutes(router: Router, access: AccessGuard, reads: WorkspaceReads, queries: ContentQueries, asOf: AsOfServices, family: ContentFamily): void {
  const { base, stage } = family;

  const asOfTime = (query: unknown, res: Response): Date | undefined => {
    const at = parseInput(optionalAsOfQuery, query, 'query').asOf;
    if (at === undefined) return undefined;
    if (stage !== 'published') throw badRequest('asOf on lists, ids and aggregates is answered on the published paths only', [{ field: 'asOf', message: 'not answered on preview paths' }]);
    if (!asOf.ready()) {
      res.set('Retry-After', String(BACKFILL_RETRY_AFTER_SECONDS));
      throw new ProblemError(503, 'the read model of published versions is being built from the log; retry after the Retry-After delay');
    }
    return at;
  };

  const register = <Schema extends z.ZodObject>(suffix: string, schema: Schema, answer: (context: QueryContext, body: z.output<Schema>) => Promise<unknown>) => {
    const fromQueryString = queryBody(schema, ['asOf']);
    const handle = (method: 'get' | 'post') =>
      reads(async (req: Request, res: Response) => {
        const { workspaceId } = workspacePrincipal(res);
        const type = await queries.type(workspaceId, pathParam(req, 'type'));
        const at = asOfTime(method === 'post' ? req.query : { asOf: req.query.asOf }, res);
        const body = parseInput(schema, method === 'post' ? (req.body ?? {}) : fromQueryString(req));
        res.json(await answer({ workspaceId, type, at }, body));
      });
    router.post(`${base}/:type${suffix}`, access('ReadAccess'), handle('post'));
    router.get(`${base}/:type${suffix}`, access('ReadAccess'), handle('get'));
  };

  register('/ids', idsPageBody, ({ workspaceId, type, at }, body) => (at ? asOf.queries.ids(workspaceId, type, at, body) : queries.ids(workspaceId, type, stage, body)));

  register('/aggregate', aggregateBody, async ({ workspaceId, type, at }, body) => ({
    value: await (at ? asOf.queries.aggregate(workspaceId, type, at, body) : queries.aggregate(workspaceId, type, stage, body)),
  }));

  register('/aggregategroup', aggregateGroupBody, async ({ workspaceId, type, at }, body) => ({
    items: await (at ? asOf.queries.aggregateGroups(workspaceId, type, at, body) : queries.aggregateGroups(workspaceId, type, stage, body)),
  }));

  if (family.model === 'v2') {
    register('', searchPageBody, async ({ workspaceId, type, at }, body) => {
      const { items, total } = at ? await asOf.queries.search(workspaceId, type, at, body) : await queries.search(workspaceId, type, stage, body);
      const related = at ? (itemIds: readonly string[]) => asOf.queries.relatedAt(workspaceId, itemIds, at) : undefined;
      return searchAnswer(family, type, items, total, body, await queries.viewOptions(workspaceId, type, items, stage, body, related));
    });
  }
}
