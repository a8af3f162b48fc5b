import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { Histogram } from 'prom-client';
import type { Principal } from '../../queries/credentials';
import { loggablePath } from './loggable-path';

/**
 * Times every request into the latency histogram, labelled by route pattern (never by raw
 * path, which would grow without bound), and logs one line per request with its id and
 * workspace. The query string is not logged (shared-access keys travel in it), and secret
 * path segments are redacted (loggable-path.ts).
 */
export function observeRequests(logger: Logger, duration: Histogram<'method' | 'route' | 'status'>): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      const seconds = (performance.now() - started) / 1000;
      const route = req.route ? `${req.baseUrl}${String(req.route.path)}` : 'unmatched';
      duration.observe({ method: req.method, route, status: String(res.statusCode) }, seconds);
      // The line is built only when it is written (LOG_LEVEL info or finer): redacting the path costs a few regular expressions.
      if (!logger.isLevelEnabled('info')) return;
      const principal = res.locals.principal as Principal | undefined;
      logger.info(
        {
          requestId: res.locals.requestId as string,
          serverRequestId: res.locals.serverRequestId as string,
          ...(principal?.kind === 'workspace' ? { workspaceId: principal.workspaceId } : principal?.kind === 'app' ? { appId: principal.appId } : {}),
          method: req.method,
          route,
          path: loggablePath(req.path),
          status: res.statusCode,
          ms: Math.round(seconds * 1000),
        },
        'request',
      );
    });
    next();
  };
}
