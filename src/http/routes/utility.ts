import { Router } from 'express';
import type { Clock } from '../../../infra/clock';

export function utilityRouter(clock: Clock): Router {
  const router = Router();
  router.get('/utility/server-time', (_req, res) => {
    res.json({ value: clock.now().getTime() });
  });
  return router;
}
