import type { RequestHandler, Response } from 'express';
import { approximateBytes } from '../../infra/approximate-bytes';
import { CHUNK_CHARS, jsonChunks } from '../../infra/json-chunks';
import { ThreadSlices } from '../../infra/thread-slices';

/** Levels of an answer split into pieces: a page, its items, an item, its fields, a field's locales. */
const PIECE_DEPTH = 5;

/**
 * A large JSON answer (a page of long items, a 1.3 MB item echoed by its save) is written in
 * chunks with the thread given back between them, and each chunk encoded to UTF-8 as it is
 * written: `res.json` would stringify and encode it in one task of 5-40 ms while every other
 * request waits. The text is JSON.stringify's, keys in the same order. A small answer is `res.json`'s.
 */
export const largeJsonAnswers: RequestHandler = (_req, res, next) => {
  const json = res.json.bind(res);
  res.json = (body?: unknown) => {
    if (approximateBytes(body, CHUNK_CHARS) <= CHUNK_CHARS) return json(body);
    answerInSlices(res, body).catch(next);
    return res;
  };
  next();
};

async function answerInSlices(res: Response, body: unknown): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of jsonChunks(body, PIECE_DEPTH, new ThreadSlices())) chunks.push(Buffer.from(chunk, 'utf8'));
  if (!res.get('Content-Type')) res.type('json');
  res.send(Buffer.concat(chunks));
}
