import type { Readable } from 'node:stream';

export interface ByteRange {
  /** Inclusive, like HTTP Range. */
  readonly start: number;
  readonly end: number;
}

export interface PutOptions {
  readonly contentType?: string;
  /**
   * Default true: the blob survives a crash of the machine once `put` resolves. False lets a
   * store skip forcing it to disk, for data that can be sent again (upload chunks).
   */
  readonly durable?: boolean;
}

/**
 * File bytes, kept apart from the event log: events carry a blob's key, size and hashes,
 * never its bytes.
 */
export interface BlobStore {
  /** Streams `body` into `key`, replacing any blob there, never holding the whole blob in memory; visible only once complete. */
  put(key: string, body: Readable | Buffer, options?: PutOptions): Promise<{ readonly size: number }>;
  /** The blob's bytes (or the inclusive range) as a stream; null when there is no such blob. A range past the end is clamped to the size. */
  get(key: string, range?: ByteRange): Promise<Readable | null>;
  stat(key: string): Promise<{ readonly size: number } | null>;
  /** The keys that start with `prefix` (which must end with '/'), in no particular order; none when there are none. */
  list(prefix: string): AsyncIterable<string>;
  /** A missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Deletes every blob whose key starts with `prefix` (which must end with '/'). */
  deletePrefix(prefix: string): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

const SEGMENT = /^[A-Za-z0-9._=-]+$/;

/** Keys are relative paths of segments [A-Za-z0-9._=-]+ separated by '/'; no '.' or '..' segments, no leading or trailing '/'. Throws otherwise. */
export function checkBlobKey(key: string): string {
  const valid = key.split('/').every((segment) => SEGMENT.test(segment) && segment !== '.' && segment !== '..');
  if (!valid) throw new Error(`Invalid blob key: ${JSON.stringify(key)}`);
  return key;
}

/** A prefix for `deletePrefix`: a valid key followed by '/'. Throws otherwise. */
export function checkBlobPrefix(prefix: string): string {
  if (!prefix.endsWith('/')) throw new Error(`Invalid blob prefix (must end with '/'): ${JSON.stringify(prefix)}`);
  checkBlobKey(prefix.slice(0, -1));
  return prefix;
}

/** Whole, non-negative offsets with start <= end. Throws otherwise. */
export function checkByteRange(range: ByteRange): ByteRange {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`Invalid byte range: ${start}-${end}`);
  }
  return range;
}
