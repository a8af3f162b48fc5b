import { createHash, type Hash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';

/**
 * Every 200 answer to a GET (or HEAD) that is sent whole gets a strong ETag, a hash of its
 * bytes, and a Cache-Control for the credential that asked (docs/api.md, "Caching"). When
 * If-None-Match names the tag the answer is a 304 without the body (express drops it). The
 * answer is computed before it is hashed: a 304 saves the transfer, not the query. Routes that
 * set their own ETag (images) or Cache-Control (files, secrets) keep theirs; streamed answers
 * have none.
 */
export const conditionalGet: RequestHandler = (req, res, next) => {
  if (req.method !== 'GET' && req.method !== 'HEAD') return next();
  const send = res.send.bind(res);
  res.send = (body?: unknown) => {
    if (res.statusCode === 200 && (typeof body === 'string' || Buffer.isBuffer(body))) tagAnswer(req, res, res.get('ETag') ?? strongTag(body));
    return send(body);
  };
  next();
};

/**
 * Gives a GET's 200 answer its ETag `tag` and Cache-Control, and makes it a 304 when
 * If-None-Match names the tag. Evaluated here rather than by express's req.fresh, which ignores
 * If-None-Match beside a request's Cache-Control: no-cache, and fetch adds that to every request
 * with If-None-Match.
 */
export function tagAnswer(req: Request, res: Response, tag: string): void {
  res.set('ETag', tag);
  if (!res.get('Cache-Control')) res.set('Cache-Control', cacheControlFor(res));
  if (namesTag(req.get('if-none-match'), tag)) res.status(304);
}

/** If-None-Match's weak comparison (RFC 9110, 13.1.2): the tag, weak or strong, or `*`. */
function namesTag(ifNoneMatch: string | undefined, tag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const opaque = tag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => {
    const trimmed = candidate.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === opaque;
  });
}

/** Marks the answers of the routes after it as never to be stored: they carry secrets, or asking again does something. */
export const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

function strongTag(body: string | Buffer): string {
  return tagOf(createHash('sha256').update(body));
}

/** The strong ETag of the bytes `hash` was given (strongTag), for an answer hashed as it is written. */
export function tagOf(hash: Hash): string {
  return `"${hash.digest('base64url').slice(0, 27)}"`;
}

/**
 * An admin's answers are never stored. A key's may be kept by the client's own cache (private:
 * never a shared one, which would serve them to another key) and are checked with the service
 * before each use (no-cache: a change shows at once). Anonymous answers (the reference, health,
 * server time) may be kept by any cache, checked likewise.
 */
function cacheControlFor(res: Response): string {
  if (res.locals.adminName !== undefined) return 'no-store';
  if (res.locals.principal !== undefined) return 'private, no-cache';
  return 'no-cache';
}
