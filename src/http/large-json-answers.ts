import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Request, RequestHandler, Response } from 'express';
import { approximateBytes } from '../../infra/approximate-bytes';
import { CHUNK_CHARS, jsonChunks } from '../../infra/json-chunks';
import { ThreadSlices } from '../../infra/thread-slices';
import { tagAnswer, tagOf } from './conditional-get';

/** Levels of an answer split into pieces: a page, its items, an item, its fields, a field's locales. */
const PIECE_DEPTH = 5;

/**
 * A large JSON answer (a page of long items, a 1.3 MB item echoed by its save) is written in
 * chunks with the thread given back between them, and each chunk encoded to UTF-8 as it is
 * written: `res.json` would stringify and encode it in one task of 5-40 ms while every other
 * request waits. The text is JSON.stringify's, keys in the same order, and its strong ETag is
 * taken as it is written. A small answer is `res.json`'s.
 */
export const largeJsonAnswers: RequestHandler = (req, res, next) => {
  const json = res.json.bind(res);
  const tagged = req.method === 'GET' || req.method === 'HEAD';
  res.json = (body?: unknown) => {
    if (approximateBytes(body, CHUNK_CHARS) <= CHUNK_CHARS) return json(body);
    answerInSlices(req, res, body, tagged && res.statusCode === 200).catch(next);
    return res;
  };
  next();
};

/**
 * `tagged`: a GET's 200, whose strong ETag conditionalGet would take of the whole answer at once
 * (10 ms for a few megabytes): taken chunk by chunk instead. The chunks are written one by one as
 * the socket takes them: joined, a 50 MB page would be one copy of 150 ms.
 */
async function answerInSlices(req: Request, res: Response, body: unknown, tagged: boolean): Promise<void> {
  const chunks: Buffer[] = [];
  const hash = tagged ? createHash('sha256') : null;
  let length = 0;
  for await (const chunk of jsonChunks(body, PIECE_DEPTH, new ThreadSlices())) {
    const bytes = Buffer.from(chunk, 'utf8');
    hash?.update(bytes);
    chunks.push(bytes);
    length += bytes.length;
  }
  if (!res.get('Content-Type')) res.type('json');
  if (hash) tagAnswer(req, res, res.get('ETag') ?? tagOf(hash));
  if (res.statusCode === 304) res.removeHeader('Content-Type');
  else res.set('Content-Length', String(length));
  if (res.statusCode === 304 || req.method === 'HEAD') {
    res.end();
    return;
  }
  Readable.from(chunks, { objectMode: false }).pipe(res);
}
