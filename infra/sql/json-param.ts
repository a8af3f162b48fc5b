import { approximateBytes } from '../approximate-bytes';
import { CHUNK_CHARS, jsonChunks } from '../json-chunks';
import { ThreadSlices } from '../thread-slices';
import type { SqlClient } from './client';

/** Levels of a statement's JSON parameter split into pieces: the list, an entry, its document or events, an event's data, a field. */
const PIECE_DEPTH = 6;

/**
 * The JSON text of `value` for a parameter the statement reads as `$n::text::jsonb`. A small
 * value is JSON.stringify's text, as always. A large one (a batch holding a 1.3 MB item) is
 * written in slices, other requests running between them, where JSON.stringify and pg's UTF-8
 * encoding of the text when it binds it would each be one task of 10-70 ms; for a PostgreSQL
 * server as UTF-8 bytes, which pg sends untouched (a Buffer goes in binary format, and the binary
 * form of a text parameter is its UTF-8 bytes), for PGlite as text, which its worker receives.
 */
export function jsonParam(engine: SqlClient['engine'], value: unknown): string | Promise<string | Buffer> {
  return approximateBytes(value, CHUNK_CHARS) <= CHUNK_CHARS ? JSON.stringify(value) : jsonParamInSlices(engine, value);
}

/** jsonParam's large case, for a caller that knows `value` is large. */
export function jsonParamInSlices(engine: SqlClient['engine'], value: unknown): Promise<string | Buffer> {
  return engine === 'postgres' ? utf8InSlices(value) : textInSlices(value);
}

async function utf8InSlices(value: unknown): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of jsonChunks(value, PIECE_DEPTH, new ThreadSlices())) chunks.push(Buffer.from(chunk, 'utf8'));
  return Buffer.concat(chunks);
}

async function textInSlices(value: unknown): Promise<string> {
  let text = '';
  for await (const chunk of jsonChunks(value, PIECE_DEPTH, new ThreadSlices())) text += chunk;
  return text;
}
