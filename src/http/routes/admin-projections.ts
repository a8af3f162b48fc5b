import { Router } from 'express';
import { z } from 'zod';
import { comparePositions, type EventStore, positionToString } from '../../../infra/eventstore/port';
import type { ReadStore } from '../../../infra/readstore/port';
import type { ProjectionDaemon } from '../../../projections/daemon';
import { RebuildRunningError, UnknownProjectionError, type RebuildCoordinator } from '../../../projections/rebuild-coordinator';
import { badRequest, notFoundProblem, ProblemError } from '../problem';
import { parseInput } from '../validate';

export const rebuildBody = z.object({ projections: z.array(z.string()).default([]) });

/** Projection status and rebuilds, under /admin. */
export function adminProjectionsRouter(events: EventStore, readStore: ReadStore, daemon: ProjectionDaemon, rebuilds: RebuildCoordinator): Router {
  const router = Router();

  router.get('/projections', async (_req, res) => {
    const head = await events.headPosition();
    const checkpoints = new Map((await readStore.listCheckpoints()).map((checkpoint) => [checkpoint.name, checkpoint.position]));
    res.json({
      head: positionToString(head),
      running: daemon.running,
      projections: daemon.projectors.map((projector) => {
        const checkpoint = checkpoints.get(projector.name) ?? null;
        return {
          name: projector.name,
          collections: projector.collections.map((collection) => collection.name),
          checkpoint: checkpoint ? positionToString(checkpoint) : null,
          atHead: checkpoint !== null && comparePositions(checkpoint, head) >= 0,
        };
      }),
      rebuild: rebuilds.status,
    });
  });

  router.post('/projections/rebuild', (req, res) => {
    const { projections } = parseInput(rebuildBody, req.body ?? {});
    try {
      res.status(202).json(rebuilds.start(projections));
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
