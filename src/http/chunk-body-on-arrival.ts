import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { type ChunkBody, ChunkBodyReader, parseChunkBody } from './chunk-body';
import { badRequest } from './problem';

const READ_ON_ARRIVAL = Symbol('chunkBody');

type WithChunkBody = IncomingMessage & { [READ_ON_ARRIVAL]?: ChunkBody };

/**
 * Reads an upload chunk's body that declares its Content-Length (and no Content-Encoding) piece by
 * piece as it arrives (src/http/chunk-body.ts): its base64 is decoded into the chunk's bytes on
 * arrival, so neither the ~22 MB body nor a burst of decoding after its last piece holds the thread
 * while other requests wait. Any other body (too large, chunked, compressed) is left to the raw
 * parser that follows, and `chunkBodyOf` parses it afterwards.
 */
export function chunkBodyOnArrival(limit: number): RequestHandler {
  return (req, _res, next) => {
    const declared = Number(req.headers['content-length']);
    const encoding = req.headers['content-encoding'];
    if (!Number.isSafeInteger(declared) || declared <= 0 || declared > limit) return next();
    if (req.headers['transfer-encoding'] !== undefined || (encoding !== undefined && encoding !== 'identity')) return next();
    const reader = new ChunkBodyReader(declared);
    let received = 0;
    let failure: unknown;
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      if (error !== undefined) return next(error);
      try {
        (req as WithChunkBody)[READ_ON_ARRIVAL] = reader.end();
        next();
      } catch (invalid) {
        next(invalid);
      }
    };
    const onData = (piece: Buffer) => {
      received += piece.length;
      if (received > declared) return settle(badRequest('the body is longer than its Content-Length'));
      if (failure !== undefined) return;
      try {
        reader.push(piece);
      } catch (invalid) {
        // The rest of the body is read and dropped, so that the client hears the answer.
        failure = invalid;
      }
    };
    req.on('data', onData);
    req.once('end', () => settle(received !== declared ? badRequest('the body is shorter than its Content-Length') : failure));
    // A client that leaves mid-body ('aborted' errors, then 'close'): nobody reads the answer, but the request must end.
    const left = () => settle(badRequest('the client left before the body ended'));
    req.once('error', left);
    req.once('close', () => (received === declared ? settle(failure) : left()));
  };
}

/** The chunk's fields and bytes: as read on arrival, or parsed from the raw body the parser after it read. */
export function chunkBodyOf(req: IncomingMessage & { body?: unknown }): Promise<ChunkBody> {
  const read = (req as WithChunkBody)[READ_ON_ARRIVAL];
  if (read) return Promise.resolve(read);
  return parseChunkBody(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
}
