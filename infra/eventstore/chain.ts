import { createHash, hash } from 'node:crypto';
import { approximateBytes } from '../approximate-bytes';
import type { ThreadSlices } from '../thread-slices';
import { CHUNK_CHARS, canonicalChunks } from '../json-chunks';
import { canonicalJson } from './canonical-json';
import type { EventMetadata } from './port';

/**
 * The hash chain of a stream. Each event's hash is
 *
 *   hash(r) = SHA-256( hash(r - 1) || revision r as 8 bytes big-endian || content )
 *   content = SHA-256( JCS({ id, stream, type, data, metadata }) )
 *
 * with an empty hash(-1). The content digest is taken where the event is canonical JSON (the
 * writer, in JavaScript); the link is taken where the stream's previous hash is known for
 * certain (PostgreSQL, in the append statement, under the stream's row lock), so concurrent
 * writers and group commit need no extra read. Both are recomputed by `cms verify`.
 */
export interface ChainedContent {
  readonly id: string;
  readonly stream: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

export function contentDigest(event: ChainedContent): Buffer {
  const { stream, type, data, metadata } = event;
  // PostgreSQL stores the id as a uuid and answers it in lower case, whatever case it was given in.
  const id = event.id.toLowerCase();
  // One-shot (a string is hashed as UTF-8): no Hash object per event, on the append path and in verify.
  return hash('sha256', canonicalJson({ id, stream, type, data, metadata }), 'buffer');
}

/** Event, data, fields, a field's value: where a content event's bulk is. */
const PIECE_DEPTH = 3;

/**
 * contentDigest; for a large event (a 1.3 MB item: one task of 8-40 ms) the same digest taken in
 * slices, `slices` deciding when other requests run. A small event's comes at once: no promise,
 * no pieces, which the append path would pay per event.
 */
export function contentDigestYielding(event: ChainedContent, slices: ThreadSlices): Buffer | Promise<Buffer> {
  return approximateBytes(event.data, CHUNK_CHARS) > CHUNK_CHARS ? contentDigestInSlices(event, slices) : contentDigest(event);
}

/** contentDigest, the canonical text written and hashed in chunks with `slices` deciding when other requests run. */
export async function contentDigestInSlices(event: ChainedContent, slices: ThreadSlices): Promise<Buffer> {
  const { stream, type, data, metadata } = event;
  const id = event.id.toLowerCase();
  const digest = createHash('sha256');
  for await (const chunk of canonicalChunks({ id, stream, type, data, metadata }, PIECE_DEPTH, slices)) digest.update(chunk, 'utf8');
  return digest.digest();
}

export function linkHash(previous: Buffer | null, revision: number, content: Buffer): Buffer {
  // One buffer and a one-shot hash: a third of the time of a Hash object fed three times, on the append path.
  const input = Buffer.allocUnsafe((previous?.length ?? 0) + 8 + content.length);
  const offset = previous ? previous.copy(input, 0) : 0;
  input.writeUInt32BE(Math.floor(revision / 2 ** 32), offset);
  input.writeUInt32BE(revision >>> 0, offset + 4);
  content.copy(input, offset + 8);
  return hash('sha256', input, 'buffer');
}

/** The hash an event at `revision` must carry when the stream's previous event carries `previous` (null at revision 0). */
export function eventHash(event: ChainedContent, revision: number, previous: Buffer | null): Buffer {
  return linkHash(previous, revision, contentDigest(event));
}
