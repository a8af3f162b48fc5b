import { z } from 'zod';
import { type Position, positionFromString, positionToString } from '../infra/eventstore/port';
import type { Change } from '../infra/readstore/port';

/**
 * What one committed write of the live projections changed, as the instances that do not project
 * learn it: the position every live read model has reached, the collections written, and the
 * documents of collections that are cached by id (`everything` when a swap may have replaced any
 * collection, or the list would not fit one notification).
 */
export interface ReadModelMove {
  readonly position: Position;
  readonly collections: readonly string[];
  readonly documents: readonly { readonly collection: string; readonly id: string }[] | 'everything';
}

/** Tells the other instances of each move of the live read models, and tells this one of theirs. */
export interface ReadModelFeed {
  /** Sent once the write it describes is committed. */
  publish(move: ReadModelMove): Promise<void>;
  /**
   * Calls `onMove` for each move another instance publishes, and `onMove(null)` whenever some may
   * have been missed (a reconnect): then the reader reloads its positions and forgets its caches.
   */
  follow(onMove: (move: ReadModelMove | null) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more. */
export const MAX_MOVE_BYTES = 7_500;

/** The move of a batch of `changes` up to `position`; only documents of `cachedById` collections are named. */
export function moveOf(position: Position, changes: readonly Change[] | 'everything', cachedById: (collection: string) => boolean): ReadModelMove {
  if (changes === 'everything') return { position, collections: [], documents: 'everything' };
  const collections = [...new Set(changes.map((change) => change.collection))];
  const documents = changes
    .filter((change) => cachedById(change.collection))
    .map((change) => ({ collection: change.collection, id: change.kind === 'upsert' ? change.document.id : change.id }));
  return { position, collections, documents };
}

const encodedMove = z.strictObject({
  p: z.string().max(60).regex(/^\d+\/\d+$/),
  c: z.array(z.string().max(200)).max(500),
  d: z.union([z.literal('*'), z.array(z.tuple([z.string().max(200), z.string().max(1000)])).max(5000)]),
});

/** The text of a move, within MAX_MOVE_BYTES: a move too big to name its documents names `everything`. */
export function encodeMove(move: ReadModelMove): string {
  const documents = move.documents === 'everything' ? '*' : move.documents.map((document) => [document.collection, document.id]);
  const full = JSON.stringify({ p: positionToString(move.position), c: move.collections, d: documents });
  if (Buffer.byteLength(full) <= MAX_MOVE_BYTES) return full;
  return JSON.stringify({ p: positionToString(move.position), c: [], d: '*' });
}

/** A move read back; null for a text that is not one (then the reader treats it as a missed move). */
export function decodeMove(text: string): ReadModelMove | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const result = encodedMove.safeParse(parsed);
  if (!result.success) return null;
  const { p, c, d } = result.data;
  return {
    position: positionFromString(p),
    collections: c,
    documents: d === '*' ? 'everything' : d.map(([collection, id]) => ({ collection, id })),
  };
}
