import { z } from 'zod';

export const ASSET_TYPES = ['Image', 'Video', 'Audio', 'Document', 'Archive', 'Other'] as const;
export type AssetType = (typeof ASSET_TYPES)[number];

const assetRef = { assetId: z.string(), workspaceId: z.string() };

export const fileInfo = z.object({ contentType: z.string(), hash: z.string(), fileSize: z.number().int().min(0), fileName: z.string() });
export type FileInfo = z.infer<typeof fileInfo>;

/**
 * The first chunk of an upload session to arrive (chunks may come in any order). The bytes
 * never enter the log: chunks go to the blob store.
 */
export const assetUploadStarted = z.object({
  type: z.literal('AssetUploadStarted'),
  data: z.object({
    ...assetRef,
    fileUploadId: z.string(),
    originalFileName: z.string(),
    totalChunkCount: z.number().int().min(1),
    totalFileSize: z.number().int().min(0),
  }),
});

/** What only chunk 0 carries. */
export const uploadDetails = z.object({
  title: z.string().nullable(),
  description: z.string().nullable(),
  contentMD5: z.string().nullable(),
  ignoreCheckDuplicates: z.boolean(),
  clientInfo: z.string().nullable(),
});
export type UploadDetails = z.infer<typeof uploadDetails>;

export const assetChunkReceived = z.object({
  type: z.literal('AssetChunkReceived'),
  data: z.object({
    ...assetRef,
    fileUploadId: z.string(),
    chunkIndex: z.number().int().min(0),
    chunkByteOffset: z.number().int().min(0),
    chunkSize: z.number().int().min(0),
    /** Where this chunk's bytes were stored. */
    blobKey: z.string(),
    details: uploadDetails.nullable(),
  }),
});

/** The assembled file is in the blob store under `blobKey`; `version` counts the files the asset has had. */
export const assetUploaded = z.object({
  type: z.literal('AssetUploaded'),
  data: z.object({
    ...assetRef,
    fileUploadId: z.string(),
    version: z.number().int().min(1),
    blobKey: z.string(),
    fileInfo,
    assetType: z.enum(ASSET_TYPES),
    title: z.string().nullable(),
    description: z.string().nullable(),
    clientInfo: z.string().nullable(),
  }),
});

/** The upload could not be assembled (a missing chunk, a size or MD5 mismatch); nothing of it is visible. */
export const assetUploadFailed = z.object({
  type: z.literal('AssetUploadFailed'),
  data: z.object({ ...assetRef, fileUploadId: z.string(), reason: z.string() }),
});

/** The assembled file duplicates an existing asset, which is answered instead; this one is dropped. */
export const assetUploadDuplicated = z.object({
  type: z.literal('AssetUploadDuplicated'),
  data: z.object({ ...assetRef, fileUploadId: z.string(), duplicateOf: z.string() }),
});

export const assetUpdated = z.object({
  type: z.literal('AssetUpdated'),
  data: z.object({ ...assetRef, title: z.string().nullable(), description: z.string().nullable() }),
});

export const assetDeleted = z.object({ type: z.literal('AssetDeleted'), data: z.object(assetRef) });

/** Only the SHA-256 of the key's secret is stored. */
export const sharedAccessKeyIssued = z.object({
  type: z.literal('SharedAccessKeyIssued'),
  data: z.object({ ...assetRef, keyId: z.string(), secretHash: z.string(), expiresAt: z.string().nullable() }),
});
export const sharedAccessKeyRevoked = z.object({ type: z.literal('SharedAccessKeyRevoked'), data: z.object({ ...assetRef, keyId: z.string() }) });

export const assetEvent = z.discriminatedUnion('type', [
  assetUploadStarted,
  assetChunkReceived,
  assetUploaded,
  assetUploadFailed,
  assetUploadDuplicated,
  assetUpdated,
  assetDeleted,
  sharedAccessKeyIssued,
  sharedAccessKeyRevoked,
]);
export type AssetEvent = z.infer<typeof assetEvent>;
export type AssetUploadStartedData = z.infer<typeof assetUploadStarted>['data'];

export const assetStream = (workspaceId: string, assetId: string) => `asset-${workspaceId}-${assetId}`;
