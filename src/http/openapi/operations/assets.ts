import { z } from 'zod';
import { ASSET_TYPES } from '../../../domain/asset/events';
import { byHashBody, chunkBody, searchBody, sharedKeyBody, updateBody } from '../../routes/assets';
import { imageQuery } from '../../routes/images';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { dateTime, successSchema } from '../shared-schemas';
import { TAGS } from '../tags';

const TAG = TAGS.assets.name;
const ASSET_ID = '3f1c2b9e-8d4a-4e6f-9a7b-1c2d3e4f5a6b';
const NO_ASSET = { 404: 'the asset does not exist' };
const idParameter = { id: 'the asset id' };

const fileInfo = named(
  'FileInfo',
  z.object({ contentType: z.string().describe('media type'), hash: z.string().describe('MD5 of the content, hex'), fileSize: z.number().int(), fileName: z.string() }),
);
const assetType = named('AssetType', z.enum(ASSET_TYPES));
const asset = named(
  'Asset',
  z.object({ id: z.string(), title: z.string(), description: z.string(), fileInfo, assetType, lastUpdate: dateTime }),
);
const uploadAnswer = named(
  'UploadStarted',
  asset.extend({
    assetType: assetType.nullable().describe('null until the last chunk has arrived'),
    lastUpdate: dateTime.nullable().describe('null until the last chunk has arrived'),
  }),
);
const assetByHash = named('AssetByHash', asset.pick({ id: true, title: true, fileInfo: true }));
const assetPage = named(
  'AssetPage',
  z.object({ items: z.array(asset), page: z.number().int(), pageSize: z.number().int(), total: z.number().int() }),
);
const issuedSharedKey = named(
  'IssuedSharedAccessKey',
  z.object({
    sharedAccessKey: z.string().describe('shown once'),
    expiresAt: dateTime.nullable().describe('null: never expires'),
    url: z.string().describe('the anonymous download address'),
  }),
);
const uploadChunk = named(
  'UploadChunkRequest',
  chunkBody.extend({ stream: z.base64().describe('the bytes of this chunk, base64') }),
);
const sharedAccessQuery = imageQuery.extend({ sharedAccessKey: z.string() });
const rangeHeader = z.object({ Range: z.string().optional() });
const binary = (mediaType: string) => ({ mediaType, schema: { type: 'string', contentMediaType: mediaType } });

export const assetOperations: DocumentedOperation[] = [
  {
    method: 'post',
    path: '/assets/uploadAsset',
    operationId: 'uploadAssetChunk',
    tag: TAG,
    summary: 'Upload one chunk of a file',
    description:
      'Chunks of one file share assetId and fileUploadId and may arrive in any order; the file is assembled after the last. ' +
      'Chunk 0 creates the asset (title, description, contentMD5, ignoreCheckDuplicates and clientInfo count only there) and answers 202 with it; ' +
      'later chunks answer 200 with the asset id. A duplicate (same MD5 and size) answers the existing asset unless ignoreCheckDuplicates. ' +
      'A chunk is at most 16 MiB decoded; at most two uploads are handled at once. Per workspace, unfinished uploads and stored bytes are limited, ' +
      'and an upload with no chunk for UPLOAD_TTL_MS (24 h by default) expires. See docs/assets.md.',
    access: 'WriteAccess',
    body: {
      schema: uploadChunk,
      example: {
        assetId: ASSET_ID,
        fileUploadId: '9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
        originalFileName: 'hello.txt',
        chunkIndex: 0,
        chunkSize: 5,
        totalChunkCount: 1,
        chunkByteOffset: 0,
        totalFileSize: 5,
        stream: 'aGVsbG8=',
        title: 'Greeting',
        contentMD5: '5d41402abc4b2a76b9719d911017c592',
      },
    },
    responses: {
      202: { description: 'chunk 0: the asset (complete when the upload had one chunk)', schema: uploadAnswer },
      200: { description: 'a later chunk: the asset id', schema: named('AssetId', z.string()) },
    },
    errors: {
      400: 'invalid chunk, or an MD5 or size that does not match, or chunks that add up past totalFileSize',
      409: "the chunk was already received differently, the upload is finished or expired, the fileUploadId is another upload's, or the workspace has as many unfinished uploads as PENDING_UPLOADS_LIMIT allows",
      413: "the chunk is too large (its members other than stream past 64 KB), or the upload would take the workspace past its asset quota (ASSET_QUOTA_BYTES)",
    },
  },
  {
    method: 'get',
    path: '/assets/{id}',
    operationId: 'getAsset',
    tag: TAG,
    summary: 'Get an asset',
    access: 'ReadAccess',
    parameters: idParameter,
    responses: { 200: { description: 'the asset', schema: asset } },
    errors: NO_ASSET,
  },
  {
    method: 'post',
    path: '/assets/getByHash',
    operationId: 'getAssetByHash',
    tag: TAG,
    summary: 'Find an asset by MD5 and size (duplicate detection)',
    access: 'ReadAccess',
    body: { schema: named('AssetByHashRequest', byHashBody), example: { hash: '5d41402abc4b2a76b9719d911017c592', size: 5 } },
    responses: {
      200: { description: 'the oldest matching asset', schema: assetByHash },
      404: { description: 'no asset matches: the body is JSON null', schema: named('NoAsset', z.null()) },
    },
  },
  {
    method: 'post',
    path: '/assets/search',
    operationId: 'searchAssets',
    tag: TAG,
    summary: 'Search assets by type and text (title, description, file name)',
    access: 'ReadAccess',
    body: { schema: named('AssetSearchRequest', searchBody), example: { page: 1, pageSize: 20, assetType: 'Image', text: 'logo' }, optional: true },
    responses: { 200: { description: 'newest first', schema: assetPage } },
  },
  {
    method: 'put',
    path: '/assets/{id}',
    operationId: 'updateAsset',
    tag: TAG,
    summary: 'Change title and description',
    access: 'WriteAccess',
    parameters: idParameter,
    body: { schema: named('UpdateAssetRequest', updateBody), example: { title: 'Logo', description: 'The dark variant' } },
    responses: { 200: { description: 'updated', schema: successSchema } },
    errors: NO_ASSET,
  },
  {
    method: 'delete',
    path: '/assets/{id}',
    operationId: 'deleteAsset',
    tag: TAG,
    summary: 'Delete an asset and its file permanently',
    access: 'WriteAccess',
    parameters: idParameter,
    responses: { 200: { description: 'deleted', schema: successSchema } },
    errors: NO_ASSET,
  },
  {
    method: 'post',
    path: '/assets/{id}/shared-access-keys',
    operationId: 'issueSharedAccessKey',
    tag: TAG,
    summary: 'Issue a key for anonymous download',
    access: 'WriteAccess',
    parameters: idParameter,
    body: { schema: named('SharedAccessKeyRequest', sharedKeyBody), example: { expiresInSeconds: 86400 }, optional: true },
    responses: { 201: { description: 'the key and the download address', schema: issuedSharedKey } },
    errors: NO_ASSET,
  },
  {
    method: 'delete',
    path: '/assets/{id}/shared-access-keys/{key}',
    operationId: 'revokeSharedAccessKey',
    tag: TAG,
    summary: 'Revoke a shared access key',
    access: 'WriteAccess',
    parameters: { ...idParameter, key: 'the shared access key (sak_...)' },
    responses: { 200: { description: 'revoked', schema: successSchema } },
    errors: { 400: 'not a shared access key', 404: 'the asset or the key does not exist' },
  },
  {
    method: 'get',
    path: '/shared-access/{workspaceId}/asset/{id}',
    operationId: 'downloadSharedAsset',
    tag: TAG,
    summary: 'Download a file anonymously with a shared access key',
    description:
      'Answers the file with its own media type; a single byte range answers 206. With width, height, quality, format or enlarge (an image only), answers that rendition ' +
      'as GET /images/{assetId} does (format by Accept when not given; ETag and If-None-Match; Cache-Control: private, no-cache), within the same limits.',
    access: 'Anonymous',
    query: sharedAccessQuery,
    headers: rangeHeader.extend({ Accept: z.string().optional(), 'If-None-Match': z.string().optional() }),
    parameters: {
      ...idParameter,
      workspaceId: 'the workspace of the asset',
      sharedAccessKey: 'a key from POST /assets/{id}/shared-access-keys',
      Range: 'one byte range, e.g. bytes=0-1023 (the file only, not a rendition)',
      width: 'pixels, 1-8000: a rendition of the image (as GET /images/{assetId})',
      height: 'pixels, 1-8000',
      quality: '1-100 for JPEG, WebP and AVIF',
      format: 'output format; omitted follows Accept (AVIF, then WebP), else the original format',
      enlarge: 'true allows scaling beyond the original size',
      Accept: 'image/avif or image/webp selects that format for a rendition when format is omitted',
      'If-None-Match': 'an ETag of an earlier rendition: 304 when unchanged',
    },
    responses: {
      200: { description: 'the file, or the rendition asked for', raw: binary('*/*'), headers: { 'Content-Disposition': 'inline for images, audio, video and PDF, else attachment (the file only)', ETag: 'renditions only' } },
      304: { description: 'the rendition named in If-None-Match is current' },
      206: { description: 'the requested range', raw: binary('*/*'), headers: { 'Content-Range': 'bytes start-end/size' } },
      416: { description: 'the range cannot be satisfied', headers: { 'Content-Range': 'bytes */size' } },
    },
    errors: {
      400: 'sharedAccessKey is missing, or a transform parameter is out of range; for a rendition, an original over 100 million pixels or 64 MB, or a rendition over 4096×4096 pixels',
      403: 'the key is invalid, revoked or expired',
      404: 'the asset does not exist, or its file is missing from storage; a transform parameter on an asset that is not an image',
      503: 'a rendition cannot be rendered now; retry after Retry-After',
    },
  },
];
