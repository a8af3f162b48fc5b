import { z } from 'zod';
import { imageQuery } from '../../routes/images';
import type { DocumentedOperation } from '../operation';
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

export const imageOperations: DocumentedOperation[] = [
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
