import { randomUUID } from 'node:crypto';
import type { RequestHandler, Response } from 'express';

/**
 * Every request gets an id of the server's own (`serverRequestId`, X-Server-Request-Id), which no
 * client can choose, and keeps the caller's sane X-Request-Id as its correlation id (the server's
 * id when none was sent). Events record both: the correlation id follows a client's work across
 * requests, the server's id names one request for sure (bulk undo selects by it).
 */
export const requestId: RequestHandler = (req, res, next) => {
  const serverRequestId = randomUUID();
  const given = req.get('x-request-id');
  const id = given && /^[A-Za-z0-9._:-]{1,100}$/.test(given) ? given : serverRequestId;
  res.locals.requestId = id;
  res.locals.serverRequestId = serverRequestId;
  res.setHeader('X-Request-Id', id);
  res.setHeader('X-Server-Request-Id', serverRequestId);
  next();
};

/** The request's ids as the metadata of the events it causes carries them. */
export function requestIds(res: Response): { correlationId: string; serverRequestId: string } {
  return { correlationId: res.locals.requestId as string, serverRequestId: res.locals.serverRequestId as string };
}
