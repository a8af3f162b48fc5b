import { setImmediate as yieldToOthers } from 'node:timers/promises';
import { badRequest, ProblemError } from './problem';

export interface ChunkBody {
  readonly fields: Record<string, unknown>;
  /** The decoded `stream`; null when the body has no `stream` string. */
  readonly bytes: Buffer | null;
}

/**
 * Base64 is decoded in slices of at most this many characters. 64 KB because V8 allocates strings
 * between about 128 KB and 1 MB (Node makes longer ones external) in its large-object space: 512 KB
 * slices decoded an 8 MB chunk 4-5 times slower than 64 KB ones (measured on Node 20).
 */
const DECODE_SLICE = 64 * 1024;
/** A body already in memory is read in pieces of this size, other requests running between them. */
const PIECE_BETWEEN_YIELDS = 1024 * 1024;
/**
 * The members other than `stream` together (names, ids, title, description, clientInfo: a few KB at
 * their limits). A body of megabytes of them would be one JSON.parse of megabytes at the end.
 */
export const MAX_FIELDS_BYTES = 64 * 1024;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const EQUALS = 0x3d;
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

type Expecting = 'open' | 'firstKey' | 'key' | 'colon' | 'value' | 'next' | 'end';

/**
 * An upload chunk is JSON with the file bytes as a base64 string in `stream`. Parsed the usual
 * way, its ~22 MB body would become a buffer, a string, a parsed string and then bytes. This reads
 * the top-level object piece by piece as the body arrives: `stream` is decoded straight from each
 * piece into the chunk's bytes, the rest (the other fields, `stream` replaced by null) is kept and
 * parsed as ordinary JSON at the end. No piece is held after it is read, and no step is longer than
 * one piece. Any malformed body is a 400 (thrown by `push` or `end`).
 */
export class ChunkBodyReader {
  private expecting: Expecting = 'open';
  /** What is being read inside the current value. */
  private inside: 'punctuation' | 'string' | 'nested' | 'literal' | 'stream' = 'punctuation';
  private escaped = false;
  private depth = 0;
  private key: Buffer[] | null = null;
  private lastKey = '';
  private received = 0;
  private readonly rest: Buffer[] = [];
  private restBytes = 0;
  private stream: StreamDecoder | null = null;

  /** `declaredLength`: the whole body's length, which bounds the decoded bytes. */
  constructor(private readonly declaredLength: number) {}

  push(piece: Buffer): void {
    let at = 0;
    while (at < piece.length) {
      if (this.inside === 'punctuation') at = this.punctuation(piece, at);
      else if (this.inside === 'string') at = this.string(piece, at);
      else if (this.inside === 'nested') at = this.nested(piece, at);
      else if (this.inside === 'literal') at = this.literal(piece, at);
      else at = this.streamed(piece, at);
    }
    this.received += piece.length;
  }

  end(): ChunkBody {
    if (this.expecting !== 'end' || this.inside !== 'punctuation') throw notJson('the body is not valid JSON');
    const fields = parseJson(Buffer.concat(this.rest).toString('utf8'));
    if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) throw notJson('the body is not a JSON object');
    return { fields: fields as Record<string, unknown>, bytes: this.stream?.bytes() ?? null };
  }

  private punctuation(piece: Buffer, at: number): number {
    const byte = piece[at]!;
    if (WHITESPACE.has(byte)) return at + 1;
    const take = (expecting: Expecting) => {
      this.keep(piece, at, at + 1);
      this.expecting = expecting;
      return at + 1;
    };
    switch (this.expecting) {
      case 'open':
        if (byte === 0x7b) return take('firstKey');
        throw notJson(`expected '{' at byte ${this.received + at}`);
      case 'firstKey':
      case 'key':
        if (byte === 0x7d && this.expecting === 'firstKey') return take('end');
        if (byte !== QUOTE) throw notJson(`expected a key at byte ${this.received + at}`);
        this.key = [];
        this.inside = 'string';
        return take('colon');
      case 'colon':
        if (byte === 0x3a) return take('value');
        throw notJson(`expected ':' at byte ${this.received + at}`);
      case 'value':
        return this.valueStart(piece, at);
      case 'next':
        if (byte === 0x2c) return take('key');
        if (byte === 0x7d) return take('end');
        throw notJson(`expected ',' or '}' at byte ${this.received + at}`);
      case 'end':
        throw notJson('unexpected text after the object');
    }
  }

  private valueStart(piece: Buffer, at: number): number {
    const byte = piece[at]!;
    this.expecting = 'next';
    if (byte === QUOTE && this.lastKey === 'stream') {
      if (this.stream) throw notJson('stream is given twice');
      this.rest.push(Buffer.from('null'));
      this.stream = new StreamDecoder(this.declaredLength - this.received - at);
      this.inside = 'stream';
      return at + 1;
    }
    if (byte === 0x2c || byte === 0x7d) throw notJson(`expected a value at byte ${this.received + at}`);
    if (byte === QUOTE) this.inside = 'string';
    else if (byte === 0x7b || byte === 0x5b) this.inside = 'nested';
    else {
      this.inside = 'literal';
      return at;
    }
    this.depth = this.inside === 'nested' ? 1 : 0;
    this.keep(piece, at, at + 1);
    return at + 1;
  }

  /** Inside a string (a key, a value, or one nested in a value), up to and including its closing quote. */
  private string(piece: Buffer, at: number): number {
    if (this.escaped) {
      this.escaped = false;
      this.keep(piece, at, at + 1);
      return at + 1;
    }
    const quote = piece.indexOf(QUOTE, at);
    const stop = quote === -1 ? piece.length : quote;
    const backslash = piece.subarray(at, stop).indexOf(BACKSLASH);
    if (backslash !== -1) {
      this.keep(piece, at, at + backslash + 1);
      this.escaped = true;
      return at + backslash + 1;
    }
    if (quote === -1) {
      this.keep(piece, at, piece.length);
      return piece.length;
    }
    this.keep(piece, at, quote + 1);
    if (this.key) {
      this.lastKey = parseJson(Buffer.concat(this.key).toString('utf8')) as string;
      this.key = null;
      this.inside = 'punctuation';
    } else if (this.depth > 0) this.inside = 'nested';
    else this.valueEnded();
    return quote + 1;
  }

  /** Inside an object or array value: its syntax is checked by JSON.parse at the end, only its extent here. */
  private nested(piece: Buffer, at: number): number {
    for (let index = at; index < piece.length; index++) {
      const byte = piece[index];
      if (byte === QUOTE) {
        this.keep(piece, at, index + 1);
        this.inside = 'string';
        return index + 1;
      }
      if (byte === 0x7b || byte === 0x5b) this.depth++;
      else if ((byte === 0x7d || byte === 0x5d) && --this.depth === 0) {
        this.keep(piece, at, index + 1);
        this.valueEnded();
        return index + 1;
      }
    }
    this.keep(piece, at, piece.length);
    return piece.length;
  }

  /** A number, true, false or null: up to the next delimiter, which is left for the punctuation. */
  private literal(piece: Buffer, at: number): number {
    let index = at;
    while (index < piece.length && piece[index] !== 0x2c && piece[index] !== 0x7d && !WHITESPACE.has(piece[index]!)) index++;
    this.keep(piece, at, index);
    if (index < piece.length) this.valueEnded();
    return index;
  }

  private streamed(piece: Buffer, at: number): number {
    const quote = piece.indexOf(QUOTE, at);
    const stop = quote === -1 ? piece.length : quote;
    this.stream!.decode(piece, at, stop);
    if (quote === -1) return piece.length;
    this.stream!.finish();
    this.valueEnded();
    return quote + 1;
  }

  private valueEnded(): void {
    this.inside = 'punctuation';
    this.expecting = 'next';
  }

  private keep(piece: Buffer, start: number, end: number): void {
    if (end <= start) return;
    this.restBytes += end - start;
    if (this.restBytes > MAX_FIELDS_BYTES) {
      throw new ProblemError(413, `the members other than stream total more than ${MAX_FIELDS_BYTES} bytes`, [{ field: 'body', message: `the members other than stream must total at most ${MAX_FIELDS_BYTES} bytes` }]);
    }
    const copy = Buffer.from(piece.subarray(start, end));
    this.rest.push(copy);
    this.key?.push(copy);
  }
}

/**
 * Decodes base64 arriving in pieces straight into one buffer. Node's decoder skips characters outside
 * the alphabet, so a body with any of them decodes to fewer bytes than its length promises: the length
 * check is the validation, without a pass over every character in JavaScript.
 */
class StreamDecoder {
  private readonly output: Buffer;
  private written = 0;
  private characters = 0;
  /** The characters of a group of four split between pieces. */
  private readonly carry = Buffer.alloc(4);
  private carried = 0;
  /** The last two characters, for the padding. */
  private tail = [0, 0];
  private finished = false;

  constructor(maxCharacters: number) {
    this.output = Buffer.allocUnsafe(Math.max(0, Math.floor(maxCharacters / 4) * 3));
  }

  decode(piece: Buffer, start: number, end: number): void {
    if (end <= start) return;
    if (piece.subarray(start, end).indexOf(BACKSLASH) !== -1) throw notBase64();
    this.characters += end - start;
    this.tail = end - start >= 2 ? [piece[end - 2]!, piece[end - 1]!] : [this.tail[1]!, piece[start]!];
    let at = start;
    if (this.carried > 0) {
      while (this.carried < 4 && at < end) this.carry[this.carried++] = piece[at++]!;
      if (this.carried < 4) return;
      this.write(this.carry, 0, 4);
      this.carried = 0;
    }
    const whole = at + Math.floor((end - at) / 4) * 4;
    for (let slice = at; slice < whole; slice += DECODE_SLICE) this.write(piece, slice, Math.min(slice + DECODE_SLICE, whole));
    for (at = whole; at < end; at++) this.carry[this.carried++] = piece[at]!;
  }

  finish(): void {
    const padding = this.tail[1] === EQUALS ? (this.tail[0] === EQUALS ? 2 : 1) : 0;
    if (this.carried !== 0 || (this.characters / 4) * 3 - (this.characters > 0 ? padding : 0) !== this.written) throw notBase64();
    this.finished = true;
  }

  bytes(): Buffer {
    if (!this.finished) throw notJson('stream is not closed');
    return this.output.subarray(0, this.written);
  }

  private write(source: Buffer, start: number, end: number): void {
    this.written += this.output.write(source.toString('latin1', start, end), this.written, 'base64');
  }
}

/** Parses a body already in memory (one sent without a Content-Length, or compressed), yielding between its pieces. */
export async function parseChunkBody(raw: Buffer): Promise<ChunkBody> {
  const reader = new ChunkBodyReader(raw.length);
  for (let start = 0; start < raw.length; start += PIECE_BETWEEN_YIELDS) {
    if (start > 0) await yieldToOthers();
    reader.push(raw.subarray(start, start + PIECE_BETWEEN_YIELDS));
  }
  return reader.end();
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw notJson('the body is not valid JSON');
  }
}

function notJson(message: string) {
  return badRequest(message, [{ field: 'body', message }]);
}

function notBase64() {
  return badRequest('stream must be base64', [{ field: 'stream', message: 'must be base64' }]);
}
