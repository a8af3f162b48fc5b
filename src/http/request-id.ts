import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

/** Takes a sane X-Request-Id from the caller or makes one; it becomes the correlation id of the events. */
export const requestId: RequestHandler = (req, res, next) => {
  const given = req.get('x-request-id');
  const id = given && /^[A-Za-z0-9._:-]{1,100}$/.test(given) ? given : randomUUID();
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
};
