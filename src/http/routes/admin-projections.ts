import { Router } from 'express';
import { z } from 'zod';
import type { Clock } from '../../../infra/clock';
import type { EventStore } from '../../../infra/eventstore/port';
import type { ReadStore } from '../../../infra/readstore/port';
import type { ProjectionDaemon } from '../../../projections/daemon';
import { projectionStatuses } from '../../../projections/status';
import type { ContentTableBuilder } from '../../../projections/content-tables/builder';
import { contentTableStatuses } from '../../../projections/content-tables/status';
import { NotProjectingHereError, RebuildRunningError, UnknownProjectionError, type RebuildCoordinator } from '../../../projections/rebuild-coordinator';
import { QuarantineCommands, QuarantineEntryNotFoundError, QuarantineEntryResolvedError } from '../../../commands/projection-quarantine';
import { openQuarantine, PROJECTION_QUARANTINE, type QuarantinedEvent } from '../../../projections/quarantine';
import { commandContext } from '../auth';
import { pathParam } from '../params';
import { badRequest, notFoundProblem, ProblemError } from '../problem';
import { parseInput } from '../validate';

export const rebuildBody = z.object({
  projections: z.array(z.string().max(100)).max(100).default([]),
  skipChainCheck: z
    .boolean()
    .default(false)
    .describe("rebuild even from a log whose hash chain is broken (by default a rebuild checks every event's chain hash and fails at the first break)"),
});

export const quarantineQuery = z.object({ state: z.enum(['open', 'all']).default('open').describe('open: the events still missing from their read model') });
export const skipBody = z.object({ reason: z.string().trim().min(1, 'is required: say why the read model may go on without the event').max(500) });

/** The command's answer, with its refusals as problems: 404 for an unknown entry, 409 for a resolved one or a rebuild already running. */
async function quarantineAnswer<T>(command: () => Promise<T>): Promise<T> {
  try {
    return await command();
  } catch (error) {
    if (error instanceof QuarantineEntryNotFoundError) throw notFoundProblem(error.message);
    if (error instanceof QuarantineEntryResolvedError || error instanceof RebuildRunningError || error instanceof NotProjectingHereError) throw new ProblemError(409, error.message);
    throw error;
  }
}

/** Projection status, rebuilds and quarantined events, under /admin. */
export function adminProjectionsRouter(
  events: EventStore,
  readStore: ReadStore,
  daemon: ProjectionDaemon,
  rebuilds: RebuildCoordinator,
  contentTables: ContentTableBuilder,
  quarantine: QuarantineCommands,
  clock: Clock,
): Router {
  const router = Router();

  router.get('/projections', async (_req, res) => {
    const { head, projections } = await projectionStatuses(events, readStore, daemon.projectors, clock);
    const contentTableList = await contentTableStatuses(readStore, (entry) => contentTables.queryIndexState(entry));
    res.json({ head, running: daemon.running, projections, rebuild: rebuilds.status, contentTables: { tables: contentTableList, build: contentTables.status, failures: contentTables.failures } });
  });

  router.post('/projections/rebuild', (req, res) => {
    const { projections, skipChainCheck } = parseInput(rebuildBody, req.body ?? {});
    try {
      res.status(202).json(rebuilds.start(projections, { skipChainCheck }));
    } catch (error) {
      if (error instanceof UnknownProjectionError) throw badRequest(error.message, [{ field: 'projections', message: error.message }]);
      if (error instanceof RebuildRunningError || error instanceof NotProjectingHereError) throw new ProblemError(409, error.message);
      throw error;
    }
  });

  router.get('/projections/quarantine', async (req, res) => {
    const { state } = parseInput(quarantineQuery, req.query);
    const entries = state === 'open' ? await openQuarantine(readStore) : await readStore.list<QuarantinedEvent>(PROJECTION_QUARANTINE, { sort: [{ field: 'id', direction: 'asc' }] });
    res.json({ entries });
  });

  router.post('/projections/quarantine/:id/skip', async (req, res) => {
    const { reason } = parseInput(skipBody, req.body ?? {});
    res.json(await quarantineAnswer(() => quarantine.skip(pathParam(req, 'id'), reason, commandContext(req, res))));
  });

  router.post('/projections/quarantine/:id/retry', async (req, res) => {
    res.status(202).json(await quarantineAnswer(() => quarantine.retry(pathParam(req, 'id'), commandContext(req, res))));
  });

  router.get('/projections/rebuild', (_req, res) => {
    if (!rebuilds.status) throw notFoundProblem('no rebuild has run since the service started');
    res.json(rebuilds.status);
  });

  return router;
}
