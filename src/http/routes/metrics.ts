import { Router } from 'express';
import type { Registry } from 'prom-client';

/** Prometheus text exposition. Labels carry route patterns and outcomes, never ids or keys. */
export function metricsRouter(registry: Registry): Router {
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
  return router;
}
