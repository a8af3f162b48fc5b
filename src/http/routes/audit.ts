import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { positionFromString } from '../../../infra/eventstore/port';
import { SERVICE_FEED } from '../../../projections/read-models/audit-entries';
import type { AuditFeedQueries, AuditFilter } from '../../../queries/audit-feed';
import type { WorkspaceQueries } from '../../../queries/workspaces';
import { type AccessGuard, workspacePrincipal } from '../auth';
import type { WorkspaceReads } from '../workspace-reads';
import { pathParam } from '../params';
import { notFoundProblem } from '../problem';
import { parseInput } from '../validate';

export const NDJSON = 'application/x-ndjson';
const DEFAULT_PAGE = 100;
const MAX_PAGE = 1000;
/** Entries read per query while an NDJSON export streams: the memory it holds at once. */
const EXPORT_PAGE = 1000;
const MAX_TYPES = 50;

const isoTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).transform((value) => new Date(value).toISOString());

export const auditQuery = z.object({
  actorKind: z.enum(['apiKey', 'app', 'admin', 'system', 'sharedAccessKey', 'other']).optional(),
  actorId: z.string().min(1).max(200).optional(),
  type: z
    .string()
    .max(2000)
    .transform((value) => value.split(',').map((type) => type.trim()).filter((type) => type !== ''))
    .pipe(z.array(z.string().max(100)).min(1, 'must name at least one event type').max(MAX_TYPES, `at most ${MAX_TYPES} event types`))
    .optional(),
  stream: z.string().min(1).max(500).optional(),
  itemId: z.string().min(1).max(200).optional(),
  from: isoTime.optional(),
  to: isoTime.optional(),
  after: z.string().regex(/^\d{1,20}\/\d{1,20}$/, 'must be a position from an earlier page (commit/prepare)').optional(),
  limit: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1).max(MAX_PAGE, `at most ${MAX_PAGE}`).default(DEFAULT_PAGE),
});

/** GET /audit for a key holding AuditAccess: its own workspace's feed, one of the workspace's costly reads. */
export function auditRouter(access: AccessGuard, reads: WorkspaceReads, feed: AuditFeedQueries): Router {
  const router = Router();
  router.get(
    '/audit',
    access('AuditAccess'),
    reads(async (req, res) => {
      await serveFeed(req, res, feed, workspacePrincipal(res).workspaceId);
    }),
  );
  return router;
}

/** GET /admin/workspaces/{id}/audit: any workspace's feed, for the admin (mounted behind the admin-token check). */
export function adminAuditRouter(feed: AuditFeedQueries, workspaces: WorkspaceQueries): Router {
  const router = Router();
  router.get('/workspaces/:workspaceId/audit', async (req, res) => {
    const workspaceId = pathParam(req, 'workspaceId');
    if (!(await workspaces.get(workspaceId))) throw notFoundProblem(`workspace ${workspaceId} does not exist`);
    await serveFeed(req, res, feed, workspaceId);
  });
  return router;
}

/** GET /admin/audit: the service's own feed (alerts about the event log, events of no workspace), for the admin. */
export function serviceAuditRouter(feed: AuditFeedQueries): Router {
  const router = Router();
  router.get('/audit', async (req, res) => {
    await serveFeed(req, res, feed, SERVICE_FEED);
  });
  return router;
}

/** A page as JSON, or with `Accept: application/x-ndjson` every entry after `after`, one per line, read page by page. */
async function serveFeed(req: Request, res: Response, feed: AuditFeedQueries, workspaceId: string): Promise<void> {
  const { after, limit, types, ...rest } = parseQuery(req);
  const filter: AuditFilter = { ...rest, ...(types ? { types } : {}) };
  const start = after ? positionFromString(after) : null;
  if (req.accepts(['application/json', NDJSON]) !== NDJSON) {
    res.json(await feed.page(workspaceId, filter, start, limit));
    return;
  }
  res.status(200).type(NDJSON);
  let cursor = start;
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  try {
    while (!closed) {
      const page = await feed.page(workspaceId, filter, cursor, EXPORT_PAGE);
      if (page.items.length > 0 && !res.write(page.items.map((entry) => `${JSON.stringify(entry)}\n`).join(''))) await drained(res);
      if (!page.hasMore) break;
      cursor = positionFromString(page.next!);
    }
    res.end();
  } catch (error) {
    // The status line is gone: a cut-off stream is all the client can be told.
    res.destroy(error as Error);
  }
}

/** Resolves when the response can take more, or is closed. */
function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done).off('close', done);
      resolve();
    };
    res.on('drain', done).on('close', done);
  });
}

function parseQuery(req: Request) {
  const { type, ...query } = parseInput(auditQuery, req.query, 'query');
  return { ...query, types: type };
}
