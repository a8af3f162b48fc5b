import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { presentedCredential } from './auth';
import { sendProblem } from './problem';

const WINDOW_MS = 1000;
/** Probes and scrapes are never limited. */
const UNLIMITED_PATHS = new Set(['/health', '/health/live', '/health/ready', '/metrics']);

/**
 * At most `perSecond` requests per second per presented credential (valid or not, so key
 * guessing is slowed too), or per client address for anonymous calls; beyond that 429
 * with Retry-After. Counted per instance, in memory; keys are held as hashes.
 */
export function rateLimitPerCredential(perSecond: number): RequestHandler {
  // Off: no limiter at all, rather than one that skips every request (it would still cost each request a few awaits).
  if (perSecond === 0) return (_req, _res, next) => next();
  return rateLimit({
    windowMs: WINDOW_MS,
    limit: perSecond,
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    skip: (req) => UNLIMITED_PATHS.has(req.path),
    keyGenerator: (req) => {
      const credential = presentedCredential(req);
      return credential ? `key:${createHash('sha256').update(credential).digest('base64url')}` : `ip:${ipKeyGenerator(req.ip ?? 'unknown')}`;
    },
    handler: (_req, res) => sendProblem(res, 429, `more than ${perSecond} requests per second; retry after the Retry-After delay`),
  });
}
