import { Router } from 'express';
import { z } from 'zod';
import type { WorkspaceCommands } from '../../../commands/workspaces';
import type { Clock } from '../../../infra/clock';
import { signatureMatches, signText } from '../../../infra/crypto/url-signature';
import { MAX_DIMENSION, OUTPUT_FORMATS } from '../../../infra/images/renderer';
import type { ImageSigningKeys } from '../../../queries/image-signing-keys';
import { forbidden, gone, notFound } from '../../domain/errors';
import { type AccessGuard, commandContext, workspacePrincipal } from '../auth';
import { pathParam } from '../params';
import { signedImageUrl, signedText } from '../signed-image-url';
import { parseInput } from '../validate';
import { type Delivery, type ImageServices, imageQuery, sendImage } from './images';

/** Signed URLs may live a year at most (the longest max-age caches are asked to keep). */
export const MAX_SIGNED_URL_SECONDS = 365 * 86_400;
const DEFAULT_SIGNED_URL_SECONDS = 30 * 86_400;
/** Expiries are rounded up to the hour: URLs asked for the same rendition within the hour are the same URL, so caches share them. */
const EXPIRY_STEP_SECONDS = 3600;
export const MAX_GRACE_SECONDS = 30 * 86_400;
const DEFAULT_GRACE_SECONDS = 86_400;

const between = (min: number, max: number) => z.number({ error: `must be an integer from ${min} to ${max}` }).int(`must be an integer from ${min} to ${max}`).min(min, `must be an integer from ${min} to ${max}`).max(max, `must be an integer from ${min} to ${max}`);

export const signedUrlBody = z.strictObject(
  {
    width: between(1, MAX_DIMENSION).optional(),
    height: between(1, MAX_DIMENSION).optional(),
    quality: between(1, 100).optional(),
    format: z.enum(OUTPUT_FORMATS, { error: `must be one of ${OUTPUT_FORMATS.join(', ')}` }).optional(),
    enlarge: z.boolean({ error: 'must be true or false' }).optional(),
    expiresInSeconds: between(60, MAX_SIGNED_URL_SECONDS).optional(),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `holds members a signed URL request does not take: ${issue.keys.join(', ')}` : undefined) },
);

export const rotateSigningKeyBody = z.strictObject(
  { previousKeyGraceSeconds: between(0, MAX_GRACE_SECONDS).optional() },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `holds members a rotation does not take: ${issue.keys.join(', ')}` : undefined) },
);

export const signedImagePathSchema = z.object({
  workspaceId: z.string().min(1).max(100),
  assetId: z.string().min(1).max(100),
  version: z.coerce.number({ error: 'must be a file version, a whole number from 1' }).int('must be a file version, a whole number from 1').min(1, 'must be a file version, a whole number from 1').max(2 ** 31),
});

export const signedImageQuery = z.strictObject(
  {
    ...imageQuery.shape,
    expires: z.coerce.number({ error: 'must be Unix seconds' }).int('must be Unix seconds').min(0, 'must be Unix seconds').max(2 ** 40, 'must be Unix seconds'),
    signature: z.string({ error: 'is required' }).max(100, 'is not a signature'),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `names parameters a signed image URL does not take: ${issue.keys.join(', ')}` : undefined) },
);

export interface SignedImageServices {
  readonly images: ImageServices;
  readonly keys: ImageSigningKeys;
  readonly workspaces: WorkspaceCommands;
  readonly clock: Clock;
  readonly publicBaseUrl: string;
}

const newUrlHint = (assetId: string) => `ask POST /images/${assetId}/signed-urls for a new one`;

/**
 * Image URLs a page can use in `<img src>`: signed per workspace (HMAC-SHA256 over the path with
 * the asset's file version, the normalized transform and the expiry), served with no credential
 * and cacheable by any cache until they expire (docs/assets.md, "Signed image URLs").
 */
export function signedImagesRouter(access: AccessGuard, services: SignedImageServices): Router {
  const router = Router();

  router.post('/images/signing-key/rotate', access('WriteAccess'), async (req, res) => {
    const body = parseInput(rotateSigningKeyBody, req.body ?? {});
    const { workspaceId } = workspacePrincipal(res);
    res.json(await services.workspaces.rotateImageSigningKey(workspaceId, body.previousKeyGraceSeconds ?? DEFAULT_GRACE_SECONDS, commandContext(req, res)));
  });

  router.post('/images/:assetId/signed-urls', access('ReadAccess'), async (req, res) => {
    const { expiresInSeconds = DEFAULT_SIGNED_URL_SECONDS, ...transform } = parseInput(signedUrlBody, req.body ?? {});
    const { workspaceId } = workspacePrincipal(res);
    const asset = await services.images.queries.document(workspaceId, pathParam(req, 'assetId'));
    if (asset.assetType !== 'Image') throw notFound(`asset ${asset.assetId} is not an image`);
    const key = await services.keys.current(workspaceId);
    if (!key) throw notFound(`workspace ${workspaceId} does not exist`);
    const expires = Math.ceil((services.clock.now().getTime() / 1000 + expiresInSeconds) / EXPIRY_STEP_SECONDS) * EXPIRY_STEP_SECONDS;
    const file = { workspaceId, assetId: asset.assetId, version: asset.version };
    const signature = signText(key, signedText(file, transform, expires));
    res.json({ url: signedImageUrl(services.publicBaseUrl, file, transform, expires, signature), expiresAt: new Date(expires * 1000).toISOString(), assetVersion: asset.version });
  });

  router.get('/images/signed/:workspaceId/:assetId/:version', async (req, res) => {
    // A refusal is never cached as the image; the image's own answer replaces this.
    res.set('Cache-Control', 'no-store');
    const file = parseInput(signedImagePathSchema, req.params, 'path');
    const { expires, signature, ...transform } = parseInput(signedImageQuery, req.query, 'query');
    if (!signatureMatches(await services.keys.accepted(file.workspaceId), signedText(file, transform, expires), signature)) {
      throw forbidden(`the signature does not match this image URL: the URL was changed after it was signed, or signed with a key rotated out since; ${newUrlHint(file.assetId)}`);
    }
    const secondsLeft = expires - Math.floor(services.clock.now().getTime() / 1000);
    if (secondsLeft <= 0) throw forbidden(`this image URL expired at ${new Date(expires * 1000).toISOString()}; ${newUrlHint(file.assetId)}`);
    const asset = await services.images.queries.document(file.workspaceId, file.assetId);
    if (asset.version !== file.version) throw gone(`this URL names file version ${file.version} of asset ${file.assetId}, which has been replaced by version ${asset.version}; ${newUrlHint(file.assetId)}`);
    const delivery: Delivery = { cacheControl: `public, max-age=${secondsLeft}, immutable`, negotiate: false };
    await sendImage(req, res, asset, transform, services.images, delivery);
  });

  return router;
}
