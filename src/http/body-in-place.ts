import type { RequestHandler } from 'express';
import { badRequest } from './problem';

/**
 * Reads a body that declares its Content-Length (and no Content-Encoding) into one buffer of
 * that size, each piece copied in as it arrives. express.raw keeps the pieces and joins them
 * when the last one comes: for a 22 MB upload chunk that join is one copy into fresh memory
 * which held the thread 110 ms (first-touch page faults on a virtual machine), and every other
 * request waited. Copied on arrival, the same work is spread over the whole receive.
 * Any other body (too large, chunked, compressed) is left to the parser that follows.
 */
export function bodyInPlace(limit: number): RequestHandler {
  return (req, _res, next) => {
    const declared = Number(req.headers['content-length']);
    const encoding = req.headers['content-encoding'];
    if (!Number.isSafeInteger(declared) || declared <= 0 || declared > limit) return next();
    if (req.headers['transfer-encoding'] !== undefined || (encoding !== undefined && encoding !== 'identity')) return next();
    const body = Buffer.allocUnsafe(declared);
    let received = 0;
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      if (error === undefined) req.body = body;
      next(error);
    };
    const onData = (piece: Buffer) => {
      if (received + piece.length > declared) return settle(badRequest('the body is longer than its Content-Length'));
      piece.copy(body, received);
      received += piece.length;
    };
    req.on('data', onData);
    req.once('end', () => settle(received === declared ? undefined : badRequest('the body is shorter than its Content-Length')));
    // A client that leaves mid-body ('aborted' errors, then 'close'): nobody reads the answer, but the request must end.
    const left = () => settle(badRequest('the client left before the body ended'));
    req.once('error', left);
    req.once('close', () => (received === declared ? settle() : left()));
  };
}
