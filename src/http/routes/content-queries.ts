import type { Request, Response, Router } from 'express';
import type { z } from 'zod';
import type { ReleasePreviewReads } from '../../../queries/release-preview-reads';
import type { ContentTypeDocument } from '../../../projections/read-models/content-types';
import type { ContentAsOfQueries } from '../../../queries/content-as-of';
import type { ContentQueries } from '../../../queries/content';
import { type AccessGuard, workspacePrincipal } from '../auth';
import type { WorkspaceReads } from '../workspace-reads';
import { pathParam } from '../params';
import { badRequest, ProblemError } from '../problem';
import { queryBody } from '../query-body';
import { parseInput } from '../validate';
import { type ContentFamily, releaseParameter, searchAnswer } from './content-read';
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
  /** With `?asOf=`: the time to answer for, from the type's typed versions table. */
  readonly at: Date | undefined;
  /** With `?release=` (V2 published paths): the Open release whose preview to answer. */
  readonly release: string | undefined;
}

/** A GET query's parameters that are not body members (each only when given: a path that does not take one refuses it, naming it). */
function besideMembers(req: Request): Record<string, unknown> {
  return Object.fromEntries(['asOf', 'release'].filter((name) => req.query[name] !== undefined).map((name) => [name, req.query[name]]));
}

/** The parameters a query takes beside its body: `asOf`, and on the V2 published paths `release`. */
export const previewableQuery = optionalAsOfQuery.extend({ release: releaseParameter });

/**
 * The content queries of one family: ids, aggregates and (V2) the list, each as the spec's POST
 * with the query in the body and as a GET with the same query in the query string (cacheable:
 * src/http/conditional-get.ts). Both are parsed with the same schema. `?asOf=<ISO time>` on the
 * published paths answers what the path answered then; preview paths answer 400. `?release=<id>`
 * on the V2 published paths answers as that Open release will leave the content, never cached.
 */
export function contentQueryRoutes(
  router: Router,
  access: AccessGuard,
  reads: WorkspaceReads,
  queries: ContentQueries,
  asOf: AsOfServices,
  preview: ReleasePreviewReads,
  family: ContentFamily,
): void {
  const { base, stage } = family;
  const previews = family.model === 'v2' && stage === 'published';

  const besideBody = (query: unknown, res: Response): { at: Date | undefined; release: string | undefined } => {
    const { asOf: at, release } = parseInput(previews ? previewableQuery : optionalAsOfQuery, query, 'query') as z.output<typeof previewableQuery>;
    if (release !== undefined) {
      if (at !== undefined) throw badRequest('a release is previewed as it will be published, not as of a past time: send release or asOf', [{ field: 'release', message: 'not answered with asOf' }]);
      // A preview is not the published answer, and changes with the release and its drafts under the same URL: never stored.
      res.set({ 'Release-Preview': release, 'Cache-Control': 'no-store' });
    }
    return { at: asOfTime(at, res), release };
  };

  const asOfTime = (at: Date | undefined, res: Response): Date | undefined => {
    if (at === undefined) return undefined;
    if (stage !== 'published') throw badRequest('asOf on lists, ids and aggregates is answered on the published paths only', [{ field: 'asOf', message: 'not answered on preview paths' }]);
    if (!asOf.ready()) {
      res.set('Retry-After', String(BACKFILL_RETRY_AFTER_SECONDS));
      throw new ProblemError(503, 'the item states behind as-of queries are being built from the log; retry after the Retry-After delay');
    }
    return at;
  };

  const register = <Schema extends z.ZodObject>(suffix: string, schema: Schema, answer: (context: QueryContext, body: z.output<Schema>) => Promise<unknown>) => {
    const fromQueryString = queryBody(schema, ['asOf', 'release']);
    const handle = (method: 'get' | 'post') =>
      reads(async (req: Request, res: Response) => {
        const { workspaceId } = workspacePrincipal(res);
        const type = await queries.type(workspaceId, pathParam(req, 'type'));
        const { at, release } = besideBody(method === 'post' ? req.query : besideMembers(req), res);
        const body = parseInput(schema, method === 'post' ? (req.body ?? {}) : fromQueryString(req));
        res.json(await answer({ workspaceId, type, at, release }, body));
      });
    router.post(`${base}/:type${suffix}`, access('ReadAccess'), handle('post'));
    router.get(`${base}/:type${suffix}`, access('ReadAccess'), handle('get'));
  };

  register('/ids', idsPageBody, ({ workspaceId, type, at, release }, body) => {
    if (release) return preview.ids(workspaceId, release, type, body);
    return at ? asOf.queries.ids(workspaceId, type, at, body) : queries.ids(workspaceId, type, stage, body);
  });

  register('/aggregate', aggregateBody, async ({ workspaceId, type, at, release }, body) => {
    if (release) return { value: await preview.aggregate(workspaceId, release, type, body) };
    return { value: await (at ? asOf.queries.aggregate(workspaceId, type, at, body) : queries.aggregate(workspaceId, type, stage, body)) };
  });

  register('/aggregategroup', aggregateGroupBody, async ({ workspaceId, type, at, release }, body) => {
    if (release) return { items: await preview.aggregateGroups(workspaceId, release, type, body) };
    return { items: await (at ? asOf.queries.aggregateGroups(workspaceId, type, at, body) : queries.aggregateGroups(workspaceId, type, stage, body)) };
  });

  if (family.model === 'v2') {
    register('', searchPageBody, async ({ workspaceId, type, at, release }, body) => {
      if (at && body.meta) throw badRequest('meta is answered for current lists only, not with asOf', [{ field: 'meta', message: 'leave it out with asOf' }]);
      if (release) {
        const { items, total } = await preview.search(workspaceId, release, type, body);
        const related = (itemIds: readonly string[]) => preview.related(workspaceId, release, itemIds);
        return searchAnswer(family, type, items, total, body, await queries.viewOptions(workspaceId, type, items, stage, body, related));
      }
      const { items, total } = at ? await asOf.queries.search(workspaceId, type, at, body) : await queries.search(workspaceId, type, stage, body);
      const related = at ? (itemIds: readonly string[]) => asOf.queries.relatedAt(workspaceId, itemIds, at) : undefined;
      return searchAnswer(family, type, items, total, body, await queries.viewOptions(workspaceId, type, items, stage, body, related));
    });
  }
}
