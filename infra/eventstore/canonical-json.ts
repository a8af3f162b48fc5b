import { approximateBytes } from '../approximate-bytes';

/**
 * RFC 8785 JSON Canonicalization Scheme (JCS) for values that came out of JSON: object keys
 * sorted by UTF-16 code units, no whitespace, numbers and strings as ECMAScript's
 * JSON.stringify writes them (which is what JCS specifies). PostgreSQL's jsonb keeps neither
 * key order nor spacing, so a hash over the stored text would not survive a round trip.
 * Written for speed: every append canonicalises its events on the write path.
 */
export function canonicalJson(value: unknown): string {
  const text = write(value);
  if (text === undefined) throw new Error(`canonical JSON: ${typeof value} is not a JSON value`);
  return text;
}

/** The canonical text, or undefined for what JSON.stringify leaves out (undefined, functions, symbols). */
function write(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new Error('canonical JSON: numbers must be finite');
      // Number's toString is the serialisation JCS prescribes (and writes -0 as 0).
      return String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      break;
    case 'bigint':
      throw new Error('canonical JSON: bigint is not a JSON value');
    default:
      return undefined;
  }
  if (value === null) return 'null';
  // As JSON.stringify does: a Date (or anything with toJSON) is written as what toJSON answers.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return write((value as { toJSON: () => unknown }).toJSON());
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) {
      if (index > 0) text += ',';
      text += write(value[index]) ?? 'null';
    }
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  // The default sort compares UTF-16 code units, exactly what JCS asks for.
  const keys = Object.keys(record).sort();
  let text = '{';
  let first = true;
  for (const key of keys) {
    const member = write(record[key]);
    if (member === undefined) continue;
    text += `${first ? '' : ','}${quotedKey(key)}:${member}`;
    first = false;
  }
  return `${text}}`;
}

/** How a JSON text is written: the order of an object's keys, and the text of a value written whole. */
export interface JsonFormat {
  readonly keys: (record: Record<string, unknown>) => string[];
  readonly whole: (value: unknown) => string | undefined;
}

/** RFC 8785's: keys sorted by UTF-16 code units. */
export const CANONICAL: JsonFormat = { keys: (record) => Object.keys(record).sort(), whole: write };
/** JSON.stringify's: keys in their own order. */
export const AS_STRINGIFY: JsonFormat = { keys: (record) => Object.keys(record), whole: (value) => JSON.stringify(value) as string | undefined };

/**
 * The canonical text of `value` in pieces whose concatenation is canonicalJson(value): objects and
 * arrays down to `depth` levels are split at their members, deeper values are one piece each, and
 * so is a member of about WHOLE_BELOW characters or fewer. For a reader that hashes a large value
 * (a 1.3 MB item) with pauses between pieces.
 */
export function canonicalPieces(value: unknown, depth: number): Generator<string> {
  return jsonPieces(value, depth, CANONICAL);
}

/** The text of `value` as `format` writes it, in pieces (see canonicalPieces). */
export function* jsonPieces(value: unknown, depth: number, format: JsonFormat): Generator<string> {
  if (!splittable(value, depth)) {
    const text = format.whole(value);
    if (text === undefined) throw new Error(`JSON: ${typeof value} is not a JSON value`);
    yield text;
    return;
  }
  yield* containerPieces(value, depth, format);
}

/** A plain object or array above the depth limit: never left out, as write leaves out undefined. */
function splittable(value: unknown, depth: number): value is object {
  return depth > 0 && value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * Characters (as approximateBytes counts them) under which a member is written whole: splitting
 * a batch of a thousand 1 KB documents into a piece per key took a rebuild's thread 6 s of 37 for
 * 300,000 events, where JSON.stringify writes the same text in a fraction. Escapes can make the
 * piece up to six times longer; it stays well under a slice's work.
 */
const WHOLE_BELOW = 8_192;

/** A container member worth splitting: splittable and larger than WHOLE_BELOW. */
function splitMember(member: unknown, depth: number): member is object {
  return splittable(member, depth) && approximateBytes(member, WHOLE_BELOW) > WHOLE_BELOW;
}

function* containerPieces(value: object, depth: number, format: JsonFormat): Generator<string> {
  if (Array.isArray(value)) {
    yield '[';
    for (let index = 0; index < value.length; index++) {
      const member: unknown = value[index];
      if (index > 0) yield ',';
      if (splitMember(member, depth - 1)) yield* containerPieces(member, depth - 1, format);
      else yield format.whole(member) ?? 'null';
    }
    yield ']';
    return;
  }
  const record = value as Record<string, unknown>;
  yield '{';
  let first = true;
  for (const key of format.keys(record)) {
    const member = record[key];
    if (splitMember(member, depth - 1)) {
      yield `${first ? '' : ','}${quotedKey(key)}:`;
      yield* containerPieces(member, depth - 1, format);
    } else {
      const text = format.whole(member);
      if (text === undefined) continue;
      yield `${first ? '' : ','}${quotedKey(key)}:${text}`;
    }
    first = false;
  }
  yield '}';
}

/** Keys written so far, quoted: events repeat the same few (a third of canonicalising a typical event was quoting them). */
const quotedKeys = new Map<string, string>();
const MAX_QUOTED_KEYS = 10_000;

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    if (quotedKeys.size < MAX_QUOTED_KEYS) quotedKeys.set(key, quoted);
  }
  return quoted;
}
