import { Readable } from 'node:stream';
import sharp from 'sharp';

export const OUTPUT_FORMATS = ['jpeg', 'png', 'webp', 'avif'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface RenditionRequest {
  /** Pixels, 1..MAX_DIMENSION. */
  readonly width?: number;
  readonly height?: number;
  /** 1..100 (JPEG/WebP/AVIF; PNG ignores it); absent = the encoder default. */
  readonly quality?: number;
  /** Explicit output format; wins over `accept`. */
  readonly format?: OutputFormat;
  /** The request's Accept header, for negotiation: AVIF, then WebP when accepted; else the source format (jpeg/png/webp/avif; anything else -> png). */
  readonly accept?: string;
  /** Allow output larger than the original; default false (never enlarge). */
  readonly enlarge?: boolean;
}

export const MAX_DIMENSION = 8000;
/** Decompression-bomb guard: sources with more pixels are refused. */
export const MAX_INPUT_PIXELS = 100_000_000;

export class ImageTooLargeError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ImageTooLargeError';
  }
}

export class NotAnImageError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'NotAnImageError';
  }
}

/** The format a rendition will have, decided before rendering (so a cache key can include it). */
export function outputFormat(sourceContentType: string, request: RenditionRequest): OutputFormat {
  if (request.format) return request.format;
  if (request.accept !== undefined) {
    const accepted = acceptedTypes(request.accept);
    if (accepted.has('image/avif')) return 'avif';
    if (accepted.has('image/webp')) return 'webp';
  }
  const source = sourceContentType.split(';')[0]!.trim().toLowerCase();
  return OUTPUT_FORMATS.find((format) => contentTypeOf(format) === source) ?? 'png';
}

export function contentTypeOf(format: OutputFormat): string {
  return `image/${format}`;
}

/** A canonical string of the request's effective parameters (format included), for cache keys: equal renditions give equal strings. */
export function renditionKey(sourceContentType: string, request: RenditionRequest): string {
  checkRequest(request);
  const format = outputFormat(sourceContentType, request);
  const quality = format === 'png' ? undefined : request.quality;
  const resized = request.width !== undefined || request.height !== undefined;
  const enlarge = resized && request.enlarge === true;
  return `${format};w=${request.width ?? ''};h=${request.height ?? ''};q=${quality ?? ''}${enlarge ? ';enlarge' : ''}`;
}

/**
 * Renders `source` (a stream of the original file) and returns a stream of the result.
 * Keeps the aspect ratio when only one side is given; with both sides, fits inside the box (no crop,
 * no distortion); never enlarges unless `enlarge`; auto-rotates by EXIF orientation; strips metadata.
 *
 * The rendition is encoded whole before this resolves, so every failure is a rejection before the
 * caller has sent a byte. That costs no memory: sharp collects a stream input into one buffer
 * before decoding, and its stream output is one push of the encoded result, so piping through it
 * would hold exactly the same buffers and only move its errors to mid-response. Decoded pixels are
 * bounded by MAX_INPUT_PIXELS and the output by MAX_DIMENSION; the original's size in bytes is the
 * caller's limit to enforce.
 */
export async function renderImage(
  source: Readable,
  sourceContentType: string,
  request: RenditionRequest,
): Promise<{ stream: Readable; contentType: string }> {
  checkRequest(request);
  const format = outputFormat(sourceContentType, request);
  const input = await readAll(source);
  let output: Buffer;
  try {
    let pipeline = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, autoOrient: true });
    if (request.width !== undefined || request.height !== undefined) {
      pipeline = pipeline.resize({ width: request.width, height: request.height, fit: 'inside', withoutEnlargement: !request.enlarge });
    }
    // JPEG has no alpha: without a background, transparent pixels come out black.
    if (format === 'jpeg') pipeline = pipeline.flatten({ background: '#ffffff' });
    const quality = format === 'png' || request.quality === undefined ? {} : { quality: request.quality };
    output = await pipeline.toFormat(format, quality).toBuffer();
  } catch (error) {
    throw readError(error);
  }
  return { stream: Readable.from(output), contentType: contentTypeOf(format) };
}

/**
 * Width, height and format of an image file (for detecting images at upload), or null when it is
 * not an image sharp can read. Width and height are as displayed (after EXIF orientation); AVIF is
 * reported as 'avif' rather than sharp's 'heif'.
 */
export async function probeImage(source: Readable): Promise<{ width: number; height: number; format: string } | null> {
  const input = await readAll(source);
  try {
    // Only the header is read; the pixel limit is the renderer's business, not detection's.
    const metadata = await sharp(input, { limitInputPixels: false }).metadata();
    const format = metadata.format === 'heif' && metadata.compression === 'av1' ? 'avif' : metadata.format;
    return { width: metadata.autoOrient.width, height: metadata.autoOrient.height, format };
  } catch {
    return null;
  }
}

function checkRequest(request: RenditionRequest): void {
  for (const side of ['width', 'height'] as const) {
    const value = request[side];
    if (value !== undefined && !(Number.isInteger(value) && value >= 1 && value <= MAX_DIMENSION)) {
      throw new RangeError(`${side} must be an integer from 1 to ${MAX_DIMENSION}`);
    }
  }
  const quality = request.quality;
  if (quality !== undefined && !(Number.isInteger(quality) && quality >= 1 && quality <= 100)) {
    throw new RangeError('quality must be an integer from 1 to 100');
  }
}

/** Media types of an Accept header with a non-zero q, lower-cased. Wildcards stay wildcards: they name no format, so they choose none. */
function acceptedTypes(accept: string): Set<string> {
  const types = new Set<string>();
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = params.find((param) => /^q\s*=/.test(param));
    if (type && (q === undefined || Number(q.replace(/^q\s*=\s*/, '')) > 0)) types.add(type);
  }
  return types;
}

function readError(error: unknown): Error {
  const message = error instanceof Error ? error.message : String(error);
  return /pixel limit/i.test(message)
    ? new ImageTooLargeError(`image has more than ${MAX_INPUT_PIXELS} pixels`, { cause: error })
    : new NotAnImageError(`not a readable image: ${message}`, { cause: error });
}

async function readAll(source: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
