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
/** The most pixels a rendition may have (4096×4096): the encoders' time grows with it, AVIF's most of all. */
export const MAX_OUTPUT_PIXELS = 4096 * 4096;
/**
 * sharp's AVIF effort, 0 (fastest) to 9; its default of 4 took 7 to 17 times the CPU of 0 for the same
 * rendition (docs/assets.md). The other encoders cost far less per pixel and keep their defaults.
 */
const AVIF_EFFORT = 0;

export class ImageTooLargeError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ImageTooLargeError';
  }
}

/** The rendition asked for would have more than MAX_OUTPUT_PIXELS; `fields` are the request's sides to make smaller. */
export class RenditionTooLargeError extends Error {
  constructor(
    readonly width: number,
    readonly height: number,
    readonly fields: readonly ('width' | 'height')[],
  ) {
    super(`the rendition would be ${width}×${height} pixels, more than the ${MAX_OUTPUT_PIXELS} a rendition may have`);
    this.name = 'RenditionTooLargeError';
  }
}

/** The render ran out of its time (IMAGE_RENDER_TIMEOUT_MS) and was stopped. */
export class RenderTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`rendering took longer than ${timeoutMs} ms (IMAGE_RENDER_TIMEOUT_MS) and was stopped`);
    this.name = 'RenderTimeoutError';
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

/** Renders the pixels of a whole original in the chosen format: renderPixels, in this process or another. */
export type PixelRenderer = (input: Buffer, format: OutputFormat, request: RenditionRequest) => Promise<Buffer>;

/**
 * Renders `source` (a stream of the original file) with `renderPixels` and returns a stream of the result.
 *
 * The rendition is encoded whole before this resolves, so every failure is a rejection before the
 * caller has sent a byte. That costs no memory: sharp collects a stream input into one buffer
 * before decoding, and its stream output is one push of the encoded result, so piping through it
 * would hold exactly the same buffers and only move its errors to mid-response. The original's size
 * in bytes is the caller's limit to enforce.
 */
export async function renderImage(
  source: Readable,
  sourceContentType: string,
  request: RenditionRequest,
  renderPixels: PixelRenderer,
): Promise<{ stream: Readable; contentType: string }> {
  checkRequest(request);
  const format = outputFormat(sourceContentType, request);
  const output = await renderPixels(await readAll(source), format, request);
  return { stream: Readable.from(output), contentType: contentTypeOf(format) };
}

/**
 * Keeps the aspect ratio when only one side is given; with both sides, fits inside the box (no crop,
 * no distortion); never enlarges unless `enlarge`; auto-rotates by EXIF orientation; strips metadata.
 *
 * The CPU of one render is bounded before a pixel is decoded: the header gives the source's size,
 * which must be at most MAX_INPUT_PIXELS, and so the rendition's, which must be at most
 * MAX_OUTPUT_PIXELS. Pixels are decoded in one pass (sequential read) and AVIF is encoded at a low
 * effort. Its time is bounded by whoever runs it: libvips checks a timeout only between tiles, and
 * librsvg rasterises an SVG in one call, so RenderProcesses runs this in a child process that it
 * kills at the render timeout.
 */
export async function renderPixels(input: Buffer, format: OutputFormat, request: RenditionRequest): Promise<Buffer> {
  try {
    const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, autoOrient: true, sequentialRead: true });
    const { autoOrient } = await image.metadata();
    checkOutputSize(autoOrient, request);
    let pipeline = image;
    if (request.width !== undefined || request.height !== undefined) {
      pipeline = pipeline.resize({ width: request.width, height: request.height, fit: 'inside', withoutEnlargement: !request.enlarge });
    }
    // JPEG has no alpha: without a background, transparent pixels come out black.
    if (format === 'jpeg') pipeline = pipeline.flatten({ background: '#ffffff' });
    const quality = format === 'png' || request.quality === undefined ? {} : { quality: request.quality };
    return await pipeline.toFormat(format, { ...quality, ...(format === 'avif' ? { effort: AVIF_EFFORT } : {}) }).toBuffer();
  } catch (error) {
    throw readError(error);
  }
}

/** The size sharp's `fit: 'inside'` resize gives `source` for the request (rounded as sharp rounds, within a pixel). */
export function renditionSize(source: { readonly width: number; readonly height: number }, request: RenditionRequest): { width: number; height: number } {
  const scales = [request.width === undefined ? Infinity : request.width / source.width, request.height === undefined ? Infinity : request.height / source.height];
  let scale = Math.min(...scales);
  if (scale === Infinity || (!request.enlarge && scale > 1)) scale = 1;
  return { width: Math.max(1, Math.round(source.width * scale)), height: Math.max(1, Math.round(source.height * scale)) };
}

function checkOutputSize(source: { readonly width: number; readonly height: number }, request: RenditionRequest): void {
  const { width, height } = renditionSize(source, request);
  if (width * height <= MAX_OUTPUT_PIXELS) return;
  const asked = (['width', 'height'] as const).filter((side) => request[side] !== undefined);
  throw new RenditionTooLargeError(width, height, asked.length > 0 ? asked : ['width', 'height']);
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
  if (error instanceof RenditionTooLargeError) return error;
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
