import { z } from 'zod';
import { imageQuery } from '../../routes/images';
import { rotateSigningKeyBody, signedImagePathSchema, signedImageQuery, signedUrlBody } from '../../routes/signed-images';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { dateTime } from '../shared-schemas';
import { TAGS } from '../tags';

const TAG = TAGS.images.name;

const imageHeaders = z.object({ Accept: z.string().optional(), 'If-None-Match': z.string().optional() });
const imageParameters = {
  width: 'pixels, 1-8000; omitted keeps the original (with height, fits inside both); the rendition may have at most 4096×4096 pixels in all',
  height: 'pixels; omitted keeps the original',
  quality: '1-100 for JPEG, WebP and AVIF; omitted uses the encoder default',
  format: 'output format; omitted follows Accept (AVIF, then WebP), else the original format',
  enlarge: 'true allows scaling beyond the original size',
  Accept: 'image/avif or image/webp selects that format when format is omitted',
  'If-None-Match': 'an ETag from an earlier answer: 304 when unchanged',
};
const imageResponses = {
  200: {
    description: 'the rendition, rendered once and cached',
    raw: { mediaType: 'image/*', schema: { type: 'string', contentMediaType: 'image/*' } },
    headers: { ETag: 'identifies the asset version and the rendition', 'Cache-Control': 'private, max-age=86400' },
  },
  304: { description: 'the rendition named in If-None-Match is current' },
};

const signedUrl = named(
  'SignedImageUrl',
  z.object({
    url: z.string().describe('the address to put in <img src>: no credential needed'),
    expiresAt: dateTime.describe('when the URL stops working (rounded up to the hour)'),
    assetVersion: z.number().int().describe('the file version the URL names: a new upload needs a new URL'),
  }),
);
const rotatedKey = named(
  'RotatedImageSigningKey',
  z.object({
    generation: z.number().int().describe('the number of the key now signing (1 before any rotation)'),
    previousKeyValidUntil: dateTime.describe('URLs signed with the key before are accepted until then'),
  }),
);
const RENDER_REFUSALS = '400 for an original over 100 million pixels or 64 MB, or a rendition over 4096×4096 pixels (errors name width or height)';

export const imageOperations: DocumentedOperation[] = [
  {
    method: 'post',
    path: '/images/{assetId}/signed-urls',
    operationId: 'signImageUrl',
    tag: TAG,
    summary: 'A signed URL of an image or rendition, for pages (<img src>) and CDNs',
    description:
      'Answers an address that needs no credential: HMAC-SHA256, under the workspace image signing key, over the path (workspace, asset and its file version), ' +
      'the transform parameters and the expiry. Without `format` the rendition keeps the original format (no Accept negotiation: the URL always gives the same bytes). ' +
      'A read key may ask: it can read the image already, and the URL is bounded in time (at most a year) and revoked by rotating the signing key.',
    access: 'ReadAccess',
    parameters: { assetId: 'the asset id (an image)' },
    body: { schema: named('SignImageUrlRequest', signedUrlBody), example: { width: 320, format: 'webp', expiresInSeconds: 604800 }, optional: true },
    responses: { 200: { description: 'the signed URL', schema: signedUrl } },
    errors: { 404: 'the asset does not exist or is not an image', 410: "the workspace's data key was shredded: nothing can be signed until an operator creates a new one" },
  },
  {
    method: 'post',
    path: '/images/signing-key/rotate',
    operationId: 'rotateImageSigningKey',
    tag: TAG,
    summary: 'Rotate the workspace image signing key',
    description: 'New URLs are signed with a new key; URLs signed with the key before keep working for `previousKeyGraceSeconds` (default 86400, 0 ends them at once); URLs signed with older keys stop at once.',
    access: 'WriteAccess',
    body: { schema: named('RotateImageSigningKeyRequest', rotateSigningKeyBody), example: { previousKeyGraceSeconds: 3600 }, optional: true },
    responses: { 200: { description: 'rotated', schema: rotatedKey } },
  },
  {
    method: 'get',
    path: '/images/signed/{workspaceId}/{assetId}/{version}',
    operationId: 'getSignedImage',
    tag: TAG,
    summary: 'An image by a signed URL, with no credential',
    description: 'The address POST /images/{assetId}/signed-urls answers. Cacheable by browsers and shared caches until it expires; a new upload of the asset gives a new URL.',
    access: 'Anonymous',
    pathSchema: signedImagePathSchema,
    query: signedImageQuery,
    headers: z.object({ 'If-None-Match': z.string().optional() }),
    parameters: {
      workspaceId: 'the workspace of the asset',
      assetId: 'the asset id',
      version: 'the file version of the asset the URL was signed for',
      width: imageParameters.width,
      height: imageParameters.height,
      quality: imageParameters.quality,
      format: 'output format; omitted keeps the original format (signed URLs do not follow Accept)',
      enlarge: imageParameters.enlarge,
      expires: 'when the URL expires, Unix seconds (signed)',
      signature: 'HMAC-SHA256 of the URL, base64url',
      'If-None-Match': imageParameters['If-None-Match'],
    },
    responses: {
      200: {
        description: 'the image or rendition',
        raw: { mediaType: 'image/*', schema: { type: 'string', contentMediaType: 'image/*' } },
        headers: { ETag: 'identifies the asset version and the rendition', 'Cache-Control': 'public, max-age={seconds until expires}, immutable' },
      },
      304: { description: 'the image named in If-None-Match is current' },
    },
    errors: {
      400: `invalid path or query, or a parameter a signed URL does not take; ${RENDER_REFUSALS}`,
      403: 'the signature does not match (the URL was changed, or signed with a key rotated out), or the URL expired',
      404: 'the asset does not exist, is not an image, or its file is missing from storage',
      410: 'the asset has a newer file than the URL names: ask a new URL',
      503: 'too many renditions of the workspace are waiting to be rendered, or the render ran out of time; retry after Retry-After',
    },
  },
  {
    method: 'get',
    path: '/images/bypath/{path}',
    operationId: 'getImageByPath',
    tag: TAG,
    summary: 'An image by its storage path, resized on the fly',
    access: 'ReadAccess',
    query: imageQuery,
    headers: imageHeaders,
    parameters: { ...imageParameters, path: 'the storage path of the image, `{assetId}/{file name}`; may contain slashes' },
    responses: imageResponses,
    errors: {
      400: 'invalid query; an original over 100 million pixels or 64 MB; a rendition over 4096×4096 pixels (errors name width or height)',
      404: 'no image at that path, the asset is not an image, or its file is missing from storage',
      503: 'too many renditions of the workspace are waiting to be rendered, or the render ran out of time; retry after Retry-After',
    },
  },
  {
    method: 'get',
    path: '/images/{assetId}',
    operationId: 'getImage',
    tag: TAG,
    summary: 'An image asset, resized on the fly',
    access: 'ReadAccess',
    query: imageQuery,
    headers: imageHeaders,
    parameters: { ...imageParameters, assetId: 'the asset id' },
    responses: imageResponses,
    errors: {
      400: 'invalid query; an original over 100 million pixels or 64 MB; a rendition over 4096×4096 pixels (errors name width or height)',
      404: 'the asset does not exist, is not an image, or its file is missing from storage',
      503: 'too many renditions of the workspace are waiting to be rendered, or the render ran out of time; retry after Retry-After',
    },
  },
];
