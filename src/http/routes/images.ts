import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { renditionPrefix } from '../../../commands/assets';
import type { BlobStore } from '../../../infra/blobs/port';
import type { Lru } from '../../../infra/lru';
import {
  contentTypeOf,
  ImageTooLargeError,
  MAX_DIMENSION,
  MAX_INPUT_PIXELS,
  MAX_OUTPUT_PIXELS,
  NotAnImageError,
  OUTPUT_FORMATS,
  outputFormat,
  type PixelRenderer,
  renderImage,
  RenderTimeoutError,
  renditionKey,
  type RenditionRequest,
  RenditionTooLargeError,
} from '../../../infra/images/renderer';
import { type RenderQueue, RenderQueueFullError } from '../../../infra/images/render-queue';
import type { AssetQueries } from '../../../queries/assets';
import type { AssetDocument } from '../../../projections/read-models/assets';
import { invalid, notFound } from '../../../src/domain/errors';
import { type AccessGuard, workspacePrincipal } from '../auth';
import { badRequest, ProblemError } from '../problem';
import { parseInput } from '../validate';

const dimension = z.coerce.number({ error: `must be an integer from 1 to ${MAX_DIMENSION}` }).int(`must be an integer from 1 to ${MAX_DIMENSION}`).min(1, `must be an integer from 1 to ${MAX_DIMENSION}`).max(MAX_DIMENSION, `must be an integer from 1 to ${MAX_DIMENSION}`);
export const imageQuery = z.object({
  width: dimension.optional(),
  height: dimension.optional(),
  quality: z.coerce.number({ error: 'must be an integer from 1 to 100' }).int('must be an integer from 1 to 100').min(1, 'must be an integer from 1 to 100').max(100, 'must be an integer from 1 to 100').optional(),
  format: z.enum(OUTPUT_FORMATS, { error: `must be one of ${OUTPUT_FORMATS.join(', ')}` }).optional(),
  enlarge: z.enum(['true', 'false']).transform((value) => value === 'true').optional(),
});
/** What an image request asks of the image: nothing keeps the original. */
export type ImageTransform = z.output<typeof imageQuery>;

export interface ImageServices {
  readonly queries: AssetQueries;
  readonly blobs: BlobStore;
  /** Small renditions by cache key, so a hot thumbnail costs no blob read. */
  readonly memory: Lru<Buffer>;
  /** Renders a few at a time, workspaces in turn. */
  readonly renders: RenderQueue;
  /** Renders pixels where a render past its timeout can be stopped (RenderProcesses). */
  readonly renderPixels: PixelRenderer;
}

/** Renditions up to this size are also kept in memory. */
const MAX_IN_MEMORY_BYTES = 1024 * 1024;
/** Originals are read whole to be resized: larger ones are refused. */
export const MAX_RENDER_SOURCE_BYTES = 64 * 1024 * 1024;
/** Renditions kept per asset version; making one more first drops those kept (they are made again when asked). */
export const MAX_RENDITIONS_PER_ASSET = 100;
/** What a client refused for want of render time is asked to wait: about the time the renders ahead of it take. */
const BUSY_RETRY_AFTER_SECONDS = 5;
/** Renders in progress by cache key: a burst of requests for a new rendition renders it once. */
const rendering = new Map<string, Promise<{ readonly size: number }>>();

/**
 * Resized images. Each rendition is rendered once and kept in the blob store, keyed by the
 * asset, its file version and the effective parameters (output format included), so a new
 * upload never serves an old rendition.
 */
export function imagesRouter(access: AccessGuard, services: ImageServices): Router {
  const router = Router();

  router.get('/images/bypath/*path', access('ReadAccess'), async (req, res) => {
    // The path of an image is `{assetId}/{file name}`.
    const segments = req.params.path as unknown as string[];
    const [assetId, ...name] = segments;
    const asset = await services.queries.document(workspacePrincipal(res).workspaceId, assetId ?? '');
    if (name.join('/') !== asset.fileInfo.fileName) throw notFound(`no image at ${segments.join('/')}`);
    await sendImage(req, res, asset, parseInput(imageQuery, req.query, 'query'), services, KEYED_DELIVERY);
  });

  router.get('/images/:assetId', access('ReadAccess'), async (req, res) => {
    const asset = await services.queries.document(workspacePrincipal(res).workspaceId, String(req.params.assetId));
    await sendImage(req, res, asset, parseInput(imageQuery, req.query, 'query'), services, KEYED_DELIVERY);
  });

  return router;
}

/** How an image answer may be cached, and whether its format follows the request's Accept. */
export interface Delivery {
  readonly cacheControl: string;
  /** False for an address that must always give the same bytes (a signed URL): the format is then the one asked, else the original's. */
  readonly negotiate: boolean;
}

/** The keyed endpoints: the caller's own cache only, and a format chosen by Accept (hence Vary: Accept). */
export const KEYED_DELIVERY: Delivery = { cacheControl: 'private, max-age=86400', negotiate: true };

/** Sent with every image, so that an original that can hold script (SVG) never runs any in the API's origin when it is opened directly. */
const NO_SCRIPT_HEADERS = { 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "sandbox; default-src 'none'" };

/** The image as `transform` asks: the original when it asks nothing, else a rendition. */
export async function sendImage(req: Request, res: Response, asset: AssetDocument, transform: ImageTransform, services: ImageServices, delivery: Delivery): Promise<void> {
  if (asset.assetType !== 'Image') throw notFound(`asset ${asset.assetId} is not an image`);
  if (Object.values(transform).every((value) => value === undefined)) {
    await sendOriginal(req, res, asset, services, delivery);
    return;
  }
  const accept = delivery.negotiate ? req.get('accept') : undefined;
  const request: RenditionRequest = { ...transform, ...(accept ? { accept } : {}) };
  const key = renditionKey(asset.fileInfo.contentType, request);
  const digest = createHash('sha256').update(key).digest('hex').slice(0, 32);
  const etag = `"${asset.assetId}.${asset.version}.${digest}"`;
  // Set only on the image (or its 304): a refusal must never be cached as the rendition. Vary is added to (CORS sets Vary: Origin).
  const cacheHeaders = () => {
    res.set({ ETag: etag, 'Cache-Control': delivery.cacheControl, ...NO_SCRIPT_HEADERS });
    return delivery.negotiate ? res.vary('Accept') : res;
  };
  if (holdsTag(req, etag)) {
    cacheHeaders().status(304).end();
    return;
  }
  const cacheKey = `${versionPrefix(asset)}${digest}`;
  const inMemory = services.memory.get(cacheKey);
  const bytes = inMemory?.value ?? (await storedRendition(asset, request, cacheKey, services).catch((error: unknown) => {
    if (error instanceof ProblemError && error.status === 503) res.set('Retry-After', String(BUSY_RETRY_AFTER_SECONDS));
    throw error;
  }));
  cacheHeaders().type(contentTypeOf(outputFormat(asset.fileInfo.contentType, request)));
  if (Buffer.isBuffer(bytes)) {
    res.end(bytes);
    return;
  }
  pipeline(bytes, res).catch(() => undefined);
}

/** Whether the client's If-None-Match names `etag` (or any). */
function holdsTag(req: Request, etag: string): boolean {
  const known = (req.get('if-none-match') ?? '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  return known.includes(etag) || known.includes('*');
}

/** No parameter keeps the original (the spec's rule): its bytes as stored, with no render and so no pixel budget. */
async function sendOriginal(req: Request, res: Response, asset: AssetDocument, services: ImageServices, delivery: Delivery): Promise<void> {
  const etag = `"${asset.assetId}.${asset.version}.original"`;
  const cacheHeaders = () => res.set({ ETag: etag, 'Cache-Control': delivery.cacheControl, ...NO_SCRIPT_HEADERS });
  if (holdsTag(req, etag)) {
    cacheHeaders().status(304).end();
    return;
  }
  const file = await services.queries.file(asset);
  cacheHeaders().type(asset.fileInfo.contentType).set('Content-Length', String(asset.fileInfo.fileSize));
  await pipeline(file, res).catch(() => undefined);
}

const versionPrefix = (asset: AssetDocument) => `${renditionPrefix(asset.workspaceId, asset.assetId)}v${asset.version}/`;

/** The rendition from the blob store, rendered first when it is not there; small ones whole (and kept in memory), large ones as a stream. */
async function storedRendition(asset: AssetDocument, request: RenditionRequest, cacheKey: string, services: ImageServices): Promise<Buffer | Readable> {
  // A rendition found but gone before it is read (dropped at the per-asset cap) is rendered again, once.
  for (let attempt = 1; ; attempt++) {
    const stored = (await services.blobs.stat(cacheKey)) ?? (await renderOnce(asset, request, cacheKey, services));
    const cached = await services.blobs.get(cacheKey);
    if (!cached && attempt < 2) continue;
    if (!cached) throw new Error(`rendition ${cacheKey} vanished twice after it was stored`);
    if (stored.size > MAX_IN_MEMORY_BYTES) return cached;
    const bytes = Buffer.concat(await cached.toArray());
    services.memory.set(cacheKey, bytes, bytes.length);
    return bytes;
  }
}

async function renderOnce(asset: AssetDocument, request: RenditionRequest, cacheKey: string, services: ImageServices): Promise<{ readonly size: number }> {
  const running = rendering.get(cacheKey) ?? services.renders.run(asset.workspaceId, () => render(asset, request, cacheKey, services)).finally(() => rendering.delete(cacheKey));
  rendering.set(cacheKey, running);
  return running.catch((error: unknown) => {
    if (error instanceof RenderQueueFullError) throw unavailable(error.message);
    throw error;
  });
}

async function render(asset: AssetDocument, request: RenditionRequest, cacheKey: string, services: ImageServices): Promise<{ readonly size: number }> {
  if (asset.fileInfo.fileSize > MAX_RENDER_SOURCE_BYTES) throw invalid(`images over ${MAX_RENDER_SOURCE_BYTES} bytes are not resized`);
  const rendered = await renderImage(await services.queries.file(asset), asset.fileInfo.contentType, request, services.renderPixels).catch((error: unknown) => {
    if (error instanceof NotAnImageError) throw notFound(`asset ${asset.assetId} is not an image sharp can read`);
    if (error instanceof ImageTooLargeError) throw invalid(`the image has more than ${MAX_INPUT_PIXELS} pixels`);
    if (error instanceof RenditionTooLargeError) {
      throw badRequest(`${error.message}: ask a smaller width or height`, error.fields.map((field) => ({ field, message: `gives more than ${MAX_OUTPUT_PIXELS} pixels` })));
    }
    if (error instanceof RenderTimeoutError) throw unavailable(`${error.message}; retry after the Retry-After delay`);
    throw error;
  });
  await dropRenditionsAtCap(asset, services.blobs);
  return services.blobs.put(cacheKey, rendered.stream, { contentType: rendered.contentType });
}

/** Answered 503 with Retry-After: the rendition cannot be made now, and may be a little later. */
const unavailable = (detail: string) => new ProblemError(503, detail);

/** Bounds the renditions kept per asset version: at the cap, those kept are dropped before one more is stored. */
async function dropRenditionsAtCap(asset: AssetDocument, blobs: BlobStore): Promise<void> {
  let kept = 0;
  for await (const _key of blobs.list(versionPrefix(asset))) {
    if (++kept >= MAX_RENDITIONS_PER_ASSET) {
      await blobs.deletePrefix(versionPrefix(asset));
      return;
    }
  }
}
