import { pipeline } from 'node:stream/promises';
import { type Request, type Response, Router } from 'express';
import parseRange from 'range-parser';
import { z } from 'zod';
import type { AssetCommands } from '../../../commands/assets';
import type { ReadRecords } from '../../../commands/read-records';
import type { Clock } from '../../../infra/clock';
import { parseCredential } from '../../../infra/crypto/credentials';
import { type AssetQueries, toAssetView } from '../../../queries/assets';
import type { AssetDocument } from '../../../projections/read-models/assets';
import { ASSET_TYPES } from '../../../src/domain/asset/events';
import { type AccessGuard, commandContext, workspacePrincipal } from '../auth';
import { requestIds } from '../request-id';
import { pathParam } from '../params';
import { chunkBodyOf } from '../chunk-body-on-arrival';
import { badRequest } from '../problem';
import { parseInput } from '../validate';
import { type Delivery, type ImageServices, imageQuery, sendImage } from './images';

/** The largest chunk accepted, decoded; its base64 JSON body is about 4/3 of it. */
export const MAX_CHUNK_BYTES = 16 * 1024 * 1024;
export const UPLOAD_BODY_LIMIT = 24 * 1024 * 1024;
export const MAX_ASSET_PAGE_SIZE = 100;
export const MAX_CHUNK_COUNT = 10_000;
const SAFE_INLINE = /^(image\/(png|jpeg|gif|webp|avif)|audio\/|video\/|application\/pdf$)/;

const uuid = z.uuid({ error: 'must be a GUID' });
const count = z.number({ error: 'must be a number' }).int('must be a whole number').min(0);

export const chunkBody = z.object({
  assetId: uuid,
  fileUploadId: uuid,
  originalFileName: z.string({ error: 'is required' }).trim().min(1, 'is required').max(255).refine((name) => !/[/\\]/.test(name), 'must be a file name, not a path'),
  chunkIndex: count,
  chunkSize: count.max(MAX_CHUNK_BYTES, `must be at most ${MAX_CHUNK_BYTES}`),
  totalChunkCount: count.min(1).max(MAX_CHUNK_COUNT, `must be at most ${MAX_CHUNK_COUNT}`),
  chunkByteOffset: count,
  totalFileSize: count,
  title: z.string().max(500).nullish(),
  description: z.string().max(5000).nullish(),
  contentMD5: z.string().max(64).nullish(),
  ignoreCheckDuplicates: z.boolean().nullish(),
  clientInfo: z.string().max(2000).nullish(),
});

export const updateBody = z.object({ title: z.string().max(500).nullish(), description: z.string().max(5000).nullish() });
export const byHashBody = z.object({ hash: z.string({ error: 'is required' }).regex(/^[0-9a-fA-F]{32}$/, 'must be an MD5 as 32 hex digits'), size: count });
export const searchBody = z.object({
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(MAX_ASSET_PAGE_SIZE, `must be at most ${MAX_ASSET_PAGE_SIZE}`).default(20),
  assetType: z.enum(ASSET_TYPES).nullish(),
  text: z.string().max(200).nullish(),
});
export const sharedKeyBody = z.object({ expiresInSeconds: z.number().int().min(1).max(10 * 365 * 86_400).nullish() }).nullish();

export interface AssetServices {
  readonly commands: AssetCommands;
  /** Records each shared-access download before the file is sent. */
  readonly reads: ReadRecords;
  readonly queries: AssetQueries;
  readonly clock: Clock;
  readonly publicBaseUrl: string;
  /** Renditions through shared access (the link with width, height, ...). */
  readonly images: ImageServices;
}

/** A rendition through shared access: the browser may keep it, but asks again each time, so that a revoked key stops it. */
const SHARED_DELIVERY: Delivery = { cacheControl: 'private, no-cache', negotiate: true };

export function assetsRouter(access: AccessGuard, services: AssetServices): Router {
  const { commands, queries } = services;
  const router = Router();

  router.post('/assets/uploadAsset', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const { fields, bytes } = await chunkBodyOf(req);
    const body = parseInput(chunkBody, fields);
    if (!bytes) throw badRequest('stream must be the chunk as a base64 string', [{ field: 'stream', message: 'must be a base64 string' }]);
    const details =
      body.chunkIndex === 0
        ? {
            title: body.title ?? null,
            description: body.description ?? null,
            contentMD5: body.contentMD5 ?? null,
            ignoreCheckDuplicates: body.ignoreCheckDuplicates ?? false,
            clientInfo: body.clientInfo ?? null,
          }
        : null;
    const { title: _t, description: _d, contentMD5: _m, ignoreCheckDuplicates: _i, clientInfo: _c, ...meta } = body;
    const outcome = await commands.receiveChunk(workspaceId, { ...meta, details, bytes }, commandContext(req, res, body.clientInfo));
    const assetId = outcome.kind === 'duplicate' ? outcome.existingAssetId : body.assetId;
    if (body.chunkIndex !== 0) {
      res.status(200).json(assetId);
      return;
    }
    // Chunk 0 answers the asset: as stored when the upload is already complete, else as it will be.
    const stored = outcome.kind === 'pending' ? null : await queries.document(workspaceId, assetId);
    res.status(202).json(
      stored
        ? toAssetView(stored)
        : { id: body.assetId, title: body.title ?? '', description: body.description ?? '', fileInfo: { contentType: '', hash: '', fileSize: body.totalFileSize, fileName: body.originalFileName }, assetType: null, lastUpdate: null },
    );
  });

  router.get('/assets/:id', access('ReadAccess'), async (req, res) => {
    res.json(toAssetView(await queries.document(workspacePrincipal(res).workspaceId, pathParam(req, 'id'))));
  });

  router.post('/assets/getByHash', access('ReadAccess'), async (req, res) => {
    const body = parseInput(byHashBody, req.body);
    const found = await queries.byHash(workspacePrincipal(res).workspaceId, body.hash, body.size);
    if (!found) {
      res.status(404).json(null);
      return;
    }
    const view = toAssetView(found);
    res.json({ id: view.id, title: view.title, fileInfo: view.fileInfo });
  });

  router.post('/assets/search', access('ReadAccess'), async (req, res) => {
    const body = parseInput(searchBody, req.body ?? {});
    res.json(await queries.search(workspacePrincipal(res).workspaceId, { page: body.page, pageSize: body.pageSize, ...(body.assetType ? { assetType: body.assetType } : {}), ...(body.text ? { text: body.text } : {}) }));
  });

  router.put('/assets/:id', access('WriteAccess'), async (req, res) => {
    const body = parseInput(updateBody, req.body);
    await commands.update(workspacePrincipal(res).workspaceId, pathParam(req, 'id'), body.title ?? null, body.description ?? null, commandContext(req, res));
    res.json({ success: true });
  });

  router.delete('/assets/:id', access('WriteAccess'), async (req, res) => {
    await commands.delete(workspacePrincipal(res).workspaceId, pathParam(req, 'id'), commandContext(req, res));
    res.json({ success: true });
  });

  router.post('/assets/:id/shared-access-keys', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const assetId = pathParam(req, 'id');
    const body = parseInput(sharedKeyBody, req.body);
    const expiresAt = body?.expiresInSeconds ? new Date(services.clock.now().getTime() + body.expiresInSeconds * 1000) : null;
    const { key } = await commands.issueSharedKey(workspaceId, assetId, expiresAt, commandContext(req, res));
    const url = `${services.publicBaseUrl}/shared-access/${workspaceId}/asset/${assetId}?sharedAccessKey=${encodeURIComponent(key)}`;
    res.status(201).json({ sharedAccessKey: key, expiresAt: expiresAt?.toISOString() ?? null, url });
  });

  router.delete('/assets/:id/shared-access-keys/:key', access('WriteAccess'), async (req, res) => {
    const keyId = /^sak_([0-9a-f]{32})_/.exec(pathParam(req, 'key'))?.[1];
    if (!keyId) throw badRequest('not a shared access key', [{ field: 'key', message: 'must be a shared access key' }]);
    const id = `${keyId.slice(0, 8)}-${keyId.slice(8, 12)}-${keyId.slice(12, 16)}-${keyId.slice(16, 20)}-${keyId.slice(20)}`;
    await commands.revokeSharedKey(workspacePrincipal(res).workspaceId, pathParam(req, 'id'), id, commandContext(req, res));
    res.json({ success: true });
  });

  router.get('/shared-access/:workspaceId/asset/:id', async (req, res) => {
    const key = typeof req.query.sharedAccessKey === 'string' ? req.query.sharedAccessKey : '';
    if (!key) throw badRequest('sharedAccessKey is required', [{ field: 'sharedAccessKey', message: 'is required' }]);
    const transform = parseInput(imageQuery, req.query, 'query');
    const asset = await queries.sharedAsset(pathParam(req, 'workspaceId'), pathParam(req, 'id'), key);
    const keyId = parseCredential(key)!.id;
    const rendition = Object.values(transform).some((value) => value !== undefined);
    await services.reads.sharedAssetDownloaded(
      { workspaceId: asset.workspaceId, assetId: asset.assetId, keyId, range: !rendition && req.get('range') !== undefined },
      { workspaceId: asset.workspaceId, actor: `sak:${keyId}`, actorKind: 'sharedAccessKey', actorId: keyId, actorName: null, ...requestIds(res), readYourWrites: true },
    );
    if (rendition) await sendImage(req, res, asset, transform, services.images, SHARED_DELIVERY);
    else await sendFile(req, res, asset, queries);
  });

  return router;
}

/** Streams the file with its media type; a single byte range answers 206, an unsatisfiable one 416. */
async function sendFile(req: Request, res: Response, asset: AssetDocument, queries: AssetQueries): Promise<void> {
  const size = asset.fileInfo.fileSize;
  res.setHeader('Accept-Ranges', 'bytes');
  const header = req.get('range');
  const ranges = header ? parseRange(size, header, { combine: true }) : undefined;
  if (ranges === -1) {
    res.status(416).setHeader('Content-Range', `bytes */${size}`).end();
    return;
  }
  const range = Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1 ? ranges[0]! : undefined;
  // Opened before the file's headers are set, so that a missing file is answered as a plain problem.
  const file = await queries.file(asset, range);
  res.setHeader('Content-Type', asset.fileInfo.contentType);
  // Shown inline only when it cannot run script in the API's origin (raster images, audio, video, PDF).
  const disposition = SAFE_INLINE.test(asset.fileInfo.contentType) ? 'inline' : 'attachment';
  res.setHeader('Content-Disposition', `${disposition}; filename*=UTF-8''${encodeURIComponent(asset.fileInfo.fileName)}`);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Content-Security-Policy', "sandbox; default-src 'none'");
  res.setHeader('Cache-Control', 'private, no-store');
  if (range) {
    res.status(206).setHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
    res.setHeader('Content-Length', String(range.end - range.start + 1));
  } else {
    res.setHeader('Content-Length', String(size));
  }
  // pipeline also closes the file when the client goes away.
  pipeline(file, res).catch(() => undefined);
}
