import { Router } from 'express';
import { z } from 'zod';
import type { ReleaseCommands } from '../../../commands/releases';
import type { ReleaseHistoryQueries } from '../../../queries/release-history';
import { RELEASE_ENTRIES_PAGE, type ReleaseQueries } from '../../../queries/releases';
import { MAX_RELEASE_ITEMS } from '../../domain/release/decider';
import { RELEASE_ACTIONS } from '../../domain/release/events';
import { type AccessGuard, commandContext, workspacePrincipal } from '../auth';
import { pathParam } from '../params';
import { ProblemError } from '../problem';
import { parseInput } from '../validate';

export const MAX_RELEASE_PAGE_SIZE = 100;

export const createReleaseBody = z.strictObject({ name: z.string().trim().min(1).max(200) });

export const releaseItemBody = z.strictObject({
  contentType: z.string().min(1).max(100),
  action: z.enum(RELEASE_ACTIONS, { error: `must be one of ${RELEASE_ACTIONS.join(', ')}` }),
  version: z.number().int('must be a whole number').min(1).optional().describe('pins the release to the draft of this version; absent: the item as it is now, refused at publish if it changes'),
});

export const releaseItemsBody = z.strictObject({
  items: z
    .array(releaseItemBody.extend({ itemId: z.string().min(1).max(200) }))
    .min(1)
    .max(MAX_RELEASE_ITEMS),
});

export const scheduleReleaseBody = z.strictObject({
  publishAt: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date-time' })
    .transform((value) => new Date(value).toISOString())
    .nullable()
    .describe('when the release publishes itself (sub-second precision); null clears the schedule'),
});

const instant = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).transform((value) => new Date(value).toISOString());

export const itemScheduleBody = z
  .strictObject({
    itemId: z.string().min(1).max(200),
    contentType: z.string().min(1).max(100),
    publishAt: instant.nullish().describe('publishes the draft as it is now at this time'),
    unpublishAt: instant.nullish().describe('unpublishes the item at this time'),
  })
  .superRefine((body, context) => {
    if (body.publishAt == null && body.unpublishAt == null) context.addIssue({ code: 'custom', path: ['publishAt'], message: 'give publishAt, unpublishAt or both' });
    if (body.publishAt != null && body.unpublishAt != null && body.unpublishAt <= body.publishAt) context.addIssue({ code: 'custom', path: ['unpublishAt'], message: 'must be after publishAt' });
  });

export const revertReleaseBody = z.strictObject({ reason: z.string().trim().min(1).max(500) });

export const releaseListQuery = z.strictObject({
  page: z.coerce.number({ error: 'must be a number' }).int().min(1).default(1),
  pageSize: z.coerce.number({ error: 'must be a number' }).int().min(1).max(MAX_RELEASE_PAGE_SIZE).default(20),
});

export const MAX_RELEASE_ENTRIES_PAGE_SIZE = 200;

export const releaseDetailQuery = z.strictObject({
  page: z.coerce.number({ error: 'must be a number' }).int().min(1).default(RELEASE_ENTRIES_PAGE.page),
  pageSize: z.coerce.number({ error: 'must be a number' }).int().min(1).max(MAX_RELEASE_ENTRIES_PAGE_SIZE).default(RELEASE_ENTRIES_PAGE.pageSize),
});

export const MAX_RELEASE_HISTORY_PAGE_SIZE = 200;

export const releaseHistoryQuery = z.strictObject({
  page: z.coerce.number({ error: 'must be a number' }).int().min(1).default(1),
  pageSize: z.coerce.number({ error: 'must be a number' }).int().min(1).max(MAX_RELEASE_HISTORY_PAGE_SIZE).default(50),
});

const boundedId = (value: string, field: string) => parseInput(z.object({ [field]: z.string().min(1).max(200) }), { [field]: value }, 'params')[field]!;

export interface ReleaseServices {
  readonly commands: ReleaseCommands;
  readonly queries: ReleaseQueries;
  readonly history: ReleaseHistoryQueries;
  /** False while the releases read model is being built from the log (a store upgraded to it). */
  readonly ready: () => boolean;
}

const BACKFILL_RETRY_AFTER_SECONDS = 5;

/** Content releases (docs/releases.md): every write needs WriteAccess, reads ReadAccess. */
export function releasesRouter(access: AccessGuard, { commands, queries, history, ready }: ReleaseServices): Router {
  const router = Router();
  // A release written meanwhile would be saved but not found by the read that answers it.
  router.use('/v2/releases', (_req, res, next) => {
    if (ready()) return next();
    res.set('Retry-After', String(BACKFILL_RETRY_AFTER_SECONDS));
    next(new ProblemError(503, 'the read model of releases is being built from the log; retry after the Retry-After delay'));
  });
  const releaseId = (req: Parameters<typeof pathParam>[0]) => boundedId(pathParam(req, 'id'), 'id');

  router.post('/v2/releases', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const body = parseInput(createReleaseBody, req.body);
    res.status(201).json(await queries.get(workspaceId, await commands.create(workspaceId, body.name, commandContext(req, res))));
  });

  router.get('/v2/releases', access('ReadAccess'), async (req, res) => {
    res.json(await queries.list(workspacePrincipal(res).workspaceId, parseInput(releaseListQuery, req.query, 'query')));
  });

  router.post('/v2/releases/item-schedules', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const body = parseInput(itemScheduleBody, req.body);
    const times = { publishAt: body.publishAt ?? null, unpublishAt: body.unpublishAt ?? null };
    const ids = await commands.scheduleItem(workspaceId, { itemId: body.itemId, contentType: body.contentType }, times, commandContext(req, res));
    res.status(201).json({ releases: await Promise.all(ids.map((id) => queries.get(workspaceId, id))) });
  });

  router.get('/v2/releases/:id', access('ReadAccess'), async (req, res) => {
    res.json(await queries.get(workspacePrincipal(res).workspaceId, releaseId(req), parseInput(releaseDetailQuery, req.query, 'query')));
  });

  router.get('/v2/releases/:id/history', access('ReadAccess'), async (req, res) => {
    res.json(await history.page(workspacePrincipal(res).workspaceId, releaseId(req), parseInput(releaseHistoryQuery, req.query, 'query')));
  });

  router.get('/v2/releases/:id/items/:itemId', access('ReadAccess'), async (req, res) => {
    res.json(await queries.entry(workspacePrincipal(res).workspaceId, releaseId(req), boundedId(pathParam(req, 'itemId'), 'itemId')));
  });

  router.put('/v2/releases/:id/items/:itemId', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const id = releaseId(req);
    const body = parseInput(releaseItemBody, req.body);
    await commands.setItems(workspaceId, id, [{ itemId: boundedId(pathParam(req, 'itemId'), 'itemId'), ...body }], commandContext(req, res));
    res.json(await queries.get(workspaceId, id));
  });

  router.post('/v2/releases/:id/items', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const id = releaseId(req);
    await commands.setItems(workspaceId, id, parseInput(releaseItemsBody, req.body).items, commandContext(req, res));
    res.json(await queries.get(workspaceId, id));
  });

  router.delete('/v2/releases/:id/items/:itemId', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const id = releaseId(req);
    await commands.removeItem(workspaceId, id, boundedId(pathParam(req, 'itemId'), 'itemId'), commandContext(req, res));
    res.json(await queries.get(workspaceId, id));
  });

  router.post('/v2/releases/:id/validate', access('ReadAccess'), async (req, res) => {
    const previews = await commands.preview(workspacePrincipal(res).workspaceId, releaseId(req));
    const problems = previews.flatMap((preview) => (preview.problem === null ? [] : [{ itemId: preview.itemId, problem: preview.problem }]));
    res.json({ valid: problems.length === 0, problems });
  });

  router.post('/v2/releases/:id/publish', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const id = releaseId(req);
    await commands.publish(workspaceId, id, commandContext(req, res));
    res.json(await queries.get(workspaceId, id));
  });

  router.put('/v2/releases/:id/schedule', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const id = releaseId(req);
    await commands.schedule(workspaceId, id, parseInput(scheduleReleaseBody, req.body).publishAt, commandContext(req, res));
    res.json(await queries.get(workspaceId, id));
  });

  router.post('/v2/releases/:id/cancel', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const id = releaseId(req);
    await commands.cancel(workspaceId, id, commandContext(req, res));
    res.json(await queries.get(workspaceId, id));
  });

  router.post('/v2/releases/:id/revert', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const id = releaseId(req);
    const body = parseInput(revertReleaseBody, req.body);
    await commands.revert(workspaceId, id, body.reason, commandContext(req, res));
    res.json(await queries.get(workspaceId, id));
  });

  return router;
}
