import cors from 'cors';
import type { RequestHandler } from 'express';

/** What a browser client sends beyond the CORS-safelisted request headers. */
const ALLOWED_REQUEST_HEADERS = ['X-Api-Key', 'Authorization', 'Content-Type', 'If-None-Match', 'Range', 'X-Request-Id'];
/** What a browser client may read beyond the CORS-safelisted response headers (Cache-Control, Content-Type, ...). */
const EXPOSED_RESPONSE_HEADERS = ['ETag', 'Location', 'Retry-After', 'RateLimit', 'RateLimit-Policy', 'X-Request-Id', 'X-Server-Request-Id', 'Content-Range', 'Accept-Ranges', 'Content-Disposition'];
/** How long a browser may reuse a preflight answer: two hours, the most Chromium honours. */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/**
 * CORS for browser front ends on the origins of CORS_ORIGINS (`*` for any). Answers preflights
 * itself, before rate limits and credentials: a preflight carries neither key nor body. No
 * origins (the default): no CORS headers, so browsers on other origins cannot read answers.
 */
export function corsPolicy(origins: '*' | readonly string[]): RequestHandler {
  if (origins !== '*' && origins.length === 0) return (_req, _res, next) => next();
  return cors({
    origin: origins === '*' ? '*' : [...origins],
    allowedHeaders: ALLOWED_REQUEST_HEADERS,
    exposedHeaders: EXPOSED_RESPONSE_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
  });
}
