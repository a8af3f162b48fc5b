import { createHash } from 'node:crypto';
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
  NotAnImageError,
  OUTPUT_FORMATS,
  outputFormat,
  renderImage,
  renditionKey,
  type RenditionRequest,
} from '../../../infra/images/renderer';
import type { AssetQueries } from '../../../queries/assets';
import type { AssetDocument } from '../../../projections/read-models/assets';
import { invalid, notFound } from '../../../src/domain/errors';
import { type AccessGuard, workspacePrincipal } from '../auth';
import { parseInput } from '../validate';

const dimension = z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1).max(MAX_DIMENSION, `must be at most ${MAX_DIMENSION}`);
export const imageQuery = z.object({
  width: dimension.optional(),
  height: dimension.optional(),
  quality: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(1, 'must be 1 to 100').max(100, 'must be 1 to 100').optional(),
  format: z.enum(OUTPUT_FORMATS, { error: `must be one of ${OUTPUT_FORMATS.join(', ')}` }).optional(),
  enlarge: z.enum(['true', 'false']).transform((value) => value === 'true').optional(),
});

export interface ImageServices {
  readonly queries: AssetQueries;
  readonly blobs: BlobStore;
  /** Small renditions by cache key, so a hot thumbnail costs no blob read. */
  readonly memory: Lru<Buffer>;
}

/** Renditions up to this size are also kept in memory. */
const MAX_IN_MEMORY_BYTES = 1024 * 1024;
/** Originals are read whole to be resized: larger ones are refused. */
export const MAX_RENDER_SOURCE_BYTES = 64 * 1024 * 1024;
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
    await sendRendition(req, res, asset, services);
  });

  router.get('/images/:assetId', access('ReadAccess'), async (req, res) => {
    const asset = await services.queries.document(workspacePrincipal(res).workspaceId, String(req.params.assetId));
    await sendRendition(req, res, asset, services);
  });

  return router;
}

async function sendRendition(req: Request, res: Response, asset: AssetDocument, services: ImageServices): Promise<void> {
  if (asset.assetType !== 'Image') throw notFound(`asset ${asset.assetId} is not an image`);
  const query = parseInput(imageQuery, req.query, 'query');
  const request: RenditionRequest = { ...query, ...(req.get('accept') ? { accept: req.get('accept')! } : {}) };
  const key = renditionKey(asset.fileInfo.contentType, request);
  const digest = createHash('sha256').update(key).digest('hex').slice(0, 32);
  const etag = `"${asset.assetId}.${asset.version}.${digest}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', 'private, max-age=86400');
  res.vary('Accept');
  const known = (req.get('if-none-match') ?? '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (known.includes(etag) || known.includes('*')) {
    res.status(304).end();
    return;
  }
  const cacheKey = `${renditionPrefix(asset.workspaceId, asset.assetId)}v${asset.version}/${digest}`;
  res.setHeader('Content-Type', contentTypeOf(outputFormat(asset.fileInfo.contentType, request)));
  const inMemory = services.memory.get(cacheKey);
  if (inMemory) {
    res.end(inMemory.value);
    return;
  }
  let stored = await services.blobs.stat(cacheKey);
  if (!stored) {
    const running = rendering.get(cacheKey) ?? render(asset, request, cacheKey, services).finally(() => rendering.delete(cacheKey));
    rendering.set(cacheKey, running);
    stored = await running;
  }
  const cached = await services.blobs.get(cacheKey);
  if (!cached) throw new Error(`rendition ${cacheKey} vanished`);
  if (stored.size <= MAX_IN_MEMORY_BYTES) {
    const bytes = Buffer.concat(await cached.toArray());
    services.memory.set(cacheKey, bytes, bytes.length);
    res.end(bytes);
    return;
  }
  pipeline(cached, res).catch(() => undefined);
}

async function render(asset: AssetDocument, request: RenditionRequest, cacheKey: string, services: ImageServices): Promise<{ readonly size: number }> {
  if (asset.fileInfo.fileSize > MAX_RENDER_SOURCE_BYTES) throw invalid(`images over ${MAX_RENDER_SOURCE_BYTES} bytes are not resized`);
  const original = await services.blobs.get(asset.blobKey);
  if (!original) throw new Error(`the file of asset ${asset.assetId} is missing from the blob store`);
  const rendered = await renderImage(original, asset.fileInfo.contentType, request).catch((error: unknown) => {
    if (error instanceof NotAnImageError) throw notFound(`asset ${asset.assetId} is not an image sharp can read`);
    if (error instanceof ImageTooLargeError) throw invalid(`the image has more than ${MAX_INPUT_PIXELS} pixels`);
    throw error;
  });
  return services.blobs.put(cacheKey, rendered.stream, { contentType: rendered.contentType });
}
