import { setImmediate as yieldToOthers } from 'node:timers/promises';
import { badRequest } from './problem';

/**
 * Base64 is decoded in slices of this many characters (a multiple of 4), letting other requests
 * run between groups of them: no string of the whole chunk is made, and no group holds the
 * thread more than a few milliseconds. 64 KB because V8 allocates strings between about 128 KB
 * and 1 MB (Node makes longer ones external) in its large-object space: 512 KB slices decoded an
 * 8 MB chunk 4-5 times slower than 64 KB ones (measured on Node 20).
 */
const DECODE_SLICE = 64 * 1024;
const SLICES_BETWEEN_YIELDS = 16;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * An upload chunk is JSON with the file bytes as a base64 string in `stream`. Parsed the usual
 * way, its ~11 MB body would become a string, a parsed string and then bytes (about 40 MB per
 * request, and most of the CPU). This walks the top-level object of the raw body instead: the
 * other fields are parsed as ordinary JSON, and `stream` is decoded straight from the body's
 * bytes, slice by slice. Any malformed body is a 400.
 */
export async function parseChunkBody(raw: Buffer): Promise<{ fields: Record<string, unknown>; bytes: Buffer | null }> {
  const scanner = new Scanner(raw);
  let stream: { start: number; end: number } | null = null;
  scanner.expect(0x7b); // {
  if (!scanner.tryConsume(0x7d)) {
    for (;;) {
      const keyStart = scanner.position;
      scanner.skipString();
      const key = parseJson(raw.toString('utf8', keyStart, scanner.position));
      scanner.expect(0x3a); // :
      const valueStart = scanner.skipWhitespace();
      scanner.skipValue();
      if (key === 'stream' && raw[valueStart] === QUOTE) stream = { start: valueStart, end: scanner.position };
      if (scanner.tryConsume(0x7d)) break;
      scanner.expect(0x2c); // ,
    }
  }
  if (scanner.skipWhitespace() !== raw.length) throw notJson('unexpected text after the object');
  if (!stream) return { fields: parseJson(raw.toString('utf8')) as Record<string, unknown>, bytes: null };
  const rest = Buffer.concat([raw.subarray(0, stream.start), Buffer.from('null'), raw.subarray(stream.end)]);
  const fields = parseJson(rest.toString('utf8')) as Record<string, unknown>;
  return { fields, bytes: await decodeBase64(raw, stream.start + 1, stream.end - 1) };
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

/**
 * Node's decoder skips characters outside the alphabet, so a body with any of them decodes to
 * fewer bytes than its length promises: the length check is the validation, without a pass
 * over every character in JavaScript. Each slice is decoded straight into the chunk's buffer.
 */
async function decodeBase64(raw: Buffer, start: number, end: number): Promise<Buffer> {
  let padding = 0;
  while (padding < 2 && end - padding > start && raw[end - padding - 1] === 0x3d) padding++;
  const length = end - start;
  const notBase64 = () => badRequest('stream must be base64', [{ field: 'stream', message: 'must be base64' }]);
  if (length % 4 !== 0) throw notBase64();
  const bytes = Buffer.allocUnsafe((length / 4) * 3 - padding);
  let written = 0;
  for (let slice = start; slice < end; slice += DECODE_SLICE) {
    if (slice > start && (slice - start) % (DECODE_SLICE * SLICES_BETWEEN_YIELDS) === 0) await yieldToOthers();
    written += bytes.write(raw.toString('latin1', slice, Math.min(slice + DECODE_SLICE, end)), written, 'base64');
  }
  if (written !== bytes.length) throw notBase64();
  return bytes;
}

/** Just enough of a JSON reader to find where each value of the top-level object starts and ends. */
class Scanner {
  position = 0;

  constructor(private readonly raw: Buffer) {}

  skipWhitespace(): number {
    while (this.position < this.raw.length && [0x20, 0x09, 0x0a, 0x0d].includes(this.raw[this.position]!)) this.position++;
    return this.position;
  }

  expect(byte: number): void {
    this.skipWhitespace();
    if (this.raw[this.position] !== byte) throw notJson(`expected '${String.fromCharCode(byte)}' at byte ${this.position}`);
    this.position++;
  }

  tryConsume(byte: number): boolean {
    this.skipWhitespace();
    if (this.raw[this.position] !== byte) return false;
    this.position++;
    return true;
  }

  skipString(): void {
    this.expect(QUOTE);
    const close = this.raw.indexOf(QUOTE, this.position);
    if (close === -1) throw notJson('a string is not closed');
    // Fast path: no escape before the closing quote (always so for base64).
    if (this.raw.subarray(this.position, close).indexOf(BACKSLASH) === -1) {
      this.position = close + 1;
      return;
    }
    for (; this.position < this.raw.length; this.position++) {
      const byte = this.raw[this.position];
      if (byte === BACKSLASH) this.position++;
      else if (byte === QUOTE) {
        this.position++;
        return;
      }
    }
    throw notJson('a string is not closed');
  }

  /** Skips one value; its syntax is checked later by JSON.parse of the remaining text. */
  skipValue(): void {
    this.skipWhitespace();
    const first = this.raw[this.position];
    if (first === QUOTE) return this.skipString();
    if (first === 0x7b || first === 0x5b) {
      let depth = 0;
      for (; this.position < this.raw.length; ) {
        const byte = this.raw[this.position]!;
        if (byte === QUOTE) {
          this.skipString();
          continue;
        }
        if (byte === 0x7b || byte === 0x5b) depth++;
        if (byte === 0x7d || byte === 0x5d) depth--;
        this.position++;
        if (depth === 0) return;
      }
      throw notJson('an object or array is not closed');
    }
    const start = this.position;
    while (this.position < this.raw.length && ![0x2c, 0x7d, 0x20, 0x09, 0x0a, 0x0d].includes(this.raw[this.position]!)) this.position++;
    if (this.position === start) throw notJson(`expected a value at byte ${start}`);
  }
}
