import { type RequestHandler, Router } from 'express';

export interface HealthProbe {
  readonly name: string;
  check(): Promise<boolean>;
}

/** /health/live: the process answers. /health and /health/ready: every store answers. */
export function healthRouter(probes: readonly HealthProbe[]): Router {
  const router = Router();
  router.get('/health/live', (_req, res) => {
    res.json({ status: 'ok' });
  });
  const ready: RequestHandler = async (_req, res) => {
    const results = await Promise.all(probes.map(async (probe) => [probe.name, await probe.check().catch(() => false)] as const));
    const healthy = results.every(([, up]) => up);
    res.status(healthy ? 200 : 503).json({ status: healthy ? 'ok' : 'unavailable', checks: Object.fromEntries(results.map(([name, up]) => [name, up ? 'up' : 'down'])) });
  };
  router.get('/health', ready);
  router.get('/health/ready', ready);
  return router;
}
