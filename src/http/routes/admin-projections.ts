import { Router } from 'express';
import { z } from 'zod';
import type { Clock } from '../../../infra/clock';
import type { EventStore } from '../../../infra/eventstore/port';
import type { ReadStore } from '../../../infra/readstore/port';
import type { ProjectionDaemon } from '../../../projections/daemon';
import { projectionStatuses } from '../../../projections/status';
import type { ContentTableBuilder } from '../../../projections/content-tables/builder';
import { contentTableStatuses } from '../../../projections/content-tables/status';
import { RebuildRunningError, UnknownProjectionError, type RebuildCoordinator } from '../../../projections/rebuild-coordinator';
import { badRequest, notFoundProblem, ProblemError } from '../problem';
import { parseInput } from '../validate';

export const rebuildBody = z.object({
  projections: z.array(z.string().max(100)).max(100).default([]),
  skipChainCheck: z
    .boolean()
    .default(false)
    .describe("rebuild even from a log whose hash chain is broken (by default a rebuild checks every event's chain hash and fails at the first break)"),
});

/** Projection status and rebuilds, under /admin. */
export function adminProjectionsRouter(
  events: EventStore,
  readStore: ReadStore,
  daemon: ProjectionDaemon,
  rebuilds: RebuildCoordinator,
  contentTables: ContentTableBuilder,
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
      if (error instanceof RebuildRunningError) throw new ProblemError(409, error.message);
      throw error;
    }
  });

  router.get('/projections/rebuild', (_req, res) => {
    if (!rebuilds.status) throw notFoundProblem('no rebuild has run since the service started');
    res.json(rebuilds.status);
  });

  return router;
}
