import { AS_STRINGIFY, CANONICAL, type JsonFormat, jsonPieces } from './eventstore/canonical-json';
import type { ThreadSlices } from './thread-slices';

/** Characters of JSON text per chunk: about 0.5 ms of writing and hashing or encoding. */
export const CHUNK_CHARS = 65_536;

/**
 * The canonical JSON text of `value` in chunks of about CHUNK_CHARS characters, whose
 * concatenation is canonicalJson(value), with `slices` deciding when other requests run between
 * two chunks. For a large value (a 1.3 MB item), which written at once is one task of tens of
 * milliseconds. Containers down to `depth` levels are split at their members; a deeper value is
 * written whole (a Text field's value is at most 100,000 characters).
 */
export function canonicalChunks(value: unknown, depth: number, slices: ThreadSlices): AsyncGenerator<string> {
  return chunks(value, depth, CANONICAL, slices);
}

/** As canonicalChunks, with the text JSON.stringify writes (keys in their own order). */
export function jsonChunks(value: unknown, depth: number, slices: ThreadSlices): AsyncGenerator<string> {
  return chunks(value, depth, AS_STRINGIFY, slices);
}

async function* chunks(value: unknown, depth: number, format: JsonFormat, slices: ThreadSlices): AsyncGenerator<string> {
  let pending = '';
  for (const piece of jsonPieces(value, depth, format)) {
    pending += piece;
    if (pending.length < CHUNK_CHARS) continue;
    yield pending;
    pending = '';
    await slices.next();
  }
  if (pending.length > 0) yield pending;
}
