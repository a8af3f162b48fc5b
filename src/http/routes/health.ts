import { type RequestHandler, Router } from 'express';

export interface HealthProbe {
  readonly name: string;
  /** true: up; false (or a throw): down; `degraded`: it works, but needs an operator (the instance still serves). */
  check(): Promise<boolean | 'degraded'>;
  /** What the check saw, shown under `details` by its name (the read replicas' rotation and lag). */
  detail?(): unknown;
}

type CheckState = 'up' | 'down' | 'degraded';

/**
 * /health/live: the process answers. /health and /health/ready: 503 `unavailable` when a check
 * is down, else 200, `degraded` when a check is (taking the instance out of a load balancer
 * would not help), `ok` otherwise. `details` holds what the checks that tell more saw.
 */
export function healthRouter(probes: readonly HealthProbe[]): Router {
  const router = Router();
  router.get('/health/live', (_req, res) => {
    res.json({ status: 'ok' });
  });
  const ready: RequestHandler = async (_req, res) => {
    const results = await Promise.all(
      probes.map(async (probe) => {
        const outcome = await probe.check().catch(() => false);
        const state: CheckState = outcome === 'degraded' ? 'degraded' : outcome ? 'up' : 'down';
        return [probe.name, state] as const;
      }),
    );
    const states = results.map(([, state]) => state);
    const status = states.includes('down') ? 'unavailable' : states.includes('degraded') ? 'degraded' : 'ok';
    const details = probes.filter((probe) => probe.detail).map((probe) => [probe.name, probe.detail!()] as const);
    res.status(status === 'unavailable' ? 503 : 200).json({ status, checks: Object.fromEntries(results), ...(details.length > 0 ? { details: Object.fromEntries(details) } : {}) });
  };
  router.get('/health', ready);
  router.get('/health/ready', ready);
  return router;
}
