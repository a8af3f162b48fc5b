import type { Decider } from '../decider';
import { conflict, invalid, notFound } from '../errors';
import type { AssetEvent, AssetType, FileInfo, UploadDetails } from './events';

type Ref = { readonly workspaceId: string; readonly assetId: string };

export interface ChunkMeta {
  readonly fileUploadId: string;
  /** Where the chunk's bytes were stored (a key of its own, so a refused chunk never replaces an accepted one). */
  readonly blobKey: string;
  readonly originalFileName: string;
  readonly chunkIndex: number;
  readonly chunkSize: number;
  readonly totalChunkCount: number;
  readonly chunkByteOffset: number;
  readonly totalFileSize: number;
  /** Only on chunk 0. */
  readonly details: UploadDetails | null;
}

export interface UploadSession {
  readonly fileUploadId: string;
  readonly originalFileName: string;
  readonly totalChunkCount: number;
  readonly totalFileSize: number;
  /** chunk index → where it goes and where its bytes are */
  readonly chunks: Readonly<Record<number, { readonly offset: number; readonly size: number; readonly blobKey: string }>>;
  /** The sum of the chunks' sizes: never more than totalFileSize, so an upload stores no more than it declared. */
  readonly receivedBytes: number;
  readonly details: UploadDetails | null;
  readonly finished: boolean;
  /** How it finished; null while chunks are still expected. */
  readonly outcome: UploadOutcome | null;
}

export type UploadOutcome =
  | { readonly kind: 'uploaded' }
  | { readonly kind: 'failed'; readonly reason: string }
  | { readonly kind: 'duplicate'; readonly existingAssetId: string };

export type AssetCommand =
  | { readonly type: 'ReceiveChunk'; readonly data: Ref & ChunkMeta }
  | {
      readonly type: 'CompleteUpload';
      readonly data: Ref & { readonly fileUploadId: string; readonly blobKey: string; readonly fileInfo: FileInfo; readonly assetType: AssetType };
    }
  | { readonly type: 'FailUpload'; readonly data: Ref & { readonly fileUploadId: string; readonly reason: string } }
  | { readonly type: 'MarkDuplicate'; readonly data: Ref & { readonly fileUploadId: string; readonly duplicateOf: string } }
  | { readonly type: 'UpdateAsset'; readonly data: Ref & { readonly title: string | null; readonly description: string | null } }
  | { readonly type: 'DeleteAsset'; readonly data: Ref }
  | { readonly type: 'IssueSharedKey'; readonly data: Ref & { readonly keyId: string; readonly secretHash: string; readonly expiresAt: string | null } }
  | { readonly type: 'RevokeSharedKey'; readonly data: Ref & { readonly keyId: string } };

export type AssetState =
  | { readonly status: 'none' | 'deleted' }
  | {
      readonly status: 'active';
      readonly workspaceId: string;
      /** Files uploaded so far; 0 until the first upload is assembled (the asset is not visible before). */
      readonly version: number;
      readonly blobKey: string | null;
      readonly upload: UploadSession | null;
      readonly sharedKeys: readonly string[];
    };

export function uploadComplete(session: UploadSession): boolean {
  return Object.keys(session.chunks).length === session.totalChunkCount;
}

export const assetDecider: Decider<AssetCommand, AssetEvent, AssetState> = {
  initialState: { status: 'none' },

  evolve(state, event) {
    const active = state.status === 'active' ? state : null;
    switch (event.type) {
      case 'AssetUploadStarted': {
        const { fileUploadId, originalFileName, totalChunkCount, totalFileSize } = event.data;
        const upload: UploadSession = { fileUploadId, originalFileName, totalChunkCount, totalFileSize, chunks: {}, receivedBytes: 0, details: null, finished: false, outcome: null };
        return active ? { ...active, upload } : { status: 'active', workspaceId: event.data.workspaceId, version: 0, blobKey: null, upload, sharedKeys: [] };
      }
      case 'AssetChunkReceived': {
        if (!active?.upload) return state;
        const { chunkIndex, chunkByteOffset, chunkSize, blobKey, details } = event.data;
        const chunks = { ...active.upload.chunks, [chunkIndex]: { offset: chunkByteOffset, size: chunkSize, blobKey } };
        return { ...active, upload: { ...active.upload, chunks, receivedBytes: active.upload.receivedBytes + chunkSize, details: details ?? active.upload.details } };
      }
      case 'AssetUploaded':
        return active ? { ...active, version: event.data.version, blobKey: event.data.blobKey, upload: finish(active.upload, { kind: 'uploaded' }) } : state;
      case 'AssetUploadFailed':
        return active ? { ...active, upload: finish(active.upload, { kind: 'failed', reason: event.data.reason }) } : state;
      case 'AssetUploadDuplicated':
        return active ? { ...active, upload: finish(active.upload, { kind: 'duplicate', existingAssetId: event.data.duplicateOf }) } : state;
      case 'AssetUpdated':
        return state;
      case 'AssetDeleted':
        return { status: 'deleted' };
      case 'SharedAccessKeyIssued':
        return active ? { ...active, sharedKeys: [...active.sharedKeys, event.data.keyId] } : state;
      case 'SharedAccessKeyRevoked':
        return active ? { ...active, sharedKeys: active.sharedKeys.filter((keyId) => keyId !== event.data.keyId) } : state;
    }
  },

  decide(command, state) {
    const { data } = command;
    const ref = { workspaceId: data.workspaceId, assetId: data.assetId };
    if (state.status === 'deleted' || (state.status === 'active' && state.workspaceId !== data.workspaceId)) throw notFound(`asset ${data.assetId} does not exist`);
    if (command.type === 'ReceiveChunk') return receiveChunk(command.data, state.status === 'active' ? state.upload : null);
    if (state.status !== 'active') throw notFound(`asset ${data.assetId} does not exist`);
    const upload = state.upload;
    switch (command.type) {
      case 'CompleteUpload':
      case 'FailUpload':
      case 'MarkDuplicate': {
        if (!upload || upload.fileUploadId !== command.data.fileUploadId) throw conflict(`upload ${command.data.fileUploadId} is not in progress`);
        if (upload.finished) return [];
        if (command.type === 'FailUpload') return [{ type: 'AssetUploadFailed', data: { ...ref, fileUploadId: upload.fileUploadId, reason: command.data.reason } }];
        if (command.type === 'MarkDuplicate') return [{ type: 'AssetUploadDuplicated', data: { ...ref, fileUploadId: upload.fileUploadId, duplicateOf: command.data.duplicateOf } }];
        const details = upload.details;
        return [
          {
            type: 'AssetUploaded',
            data: {
              ...ref,
              fileUploadId: upload.fileUploadId,
              version: state.version + 1,
              blobKey: command.data.blobKey,
              fileInfo: command.data.fileInfo,
              assetType: command.data.assetType,
              title: details?.title ?? null,
              description: details?.description ?? null,
              clientInfo: details?.clientInfo ?? null,
            },
          },
        ];
      }
      default:
        if (state.version === 0) throw notFound(`asset ${data.assetId} does not exist`);
    }
    switch (command.type) {
      case 'UpdateAsset':
        return [{ type: 'AssetUpdated', data: { ...ref, title: command.data.title, description: command.data.description } }];
      case 'DeleteAsset':
        return [{ type: 'AssetDeleted', data: ref }];
      case 'IssueSharedKey':
        return [{ type: 'SharedAccessKeyIssued', data: { ...ref, keyId: command.data.keyId, secretHash: command.data.secretHash, expiresAt: command.data.expiresAt } }];
      case 'RevokeSharedKey':
        if (!state.sharedKeys.includes(command.data.keyId)) throw notFound(`shared access key ${command.data.keyId} does not exist`);
        return [{ type: 'SharedAccessKeyRevoked', data: { ...ref, keyId: command.data.keyId } }];
    }
  },
};

function finish(upload: UploadSession | null, outcome: UploadOutcome): UploadSession | null {
  return upload && { ...upload, finished: true, outcome };
}

function receiveChunk(chunk: Ref & ChunkMeta, upload: UploadSession | null): AssetEvent[] {
  const ref = { workspaceId: chunk.workspaceId, assetId: chunk.assetId };
  if (chunk.chunkIndex >= chunk.totalChunkCount) throw invalid(`chunkIndex must be below totalChunkCount (${chunk.totalChunkCount})`, 'chunkIndex');
  if (chunk.chunkByteOffset + chunk.chunkSize > chunk.totalFileSize) throw invalid('chunkByteOffset + chunkSize is past totalFileSize', 'chunkByteOffset');
  const events: AssetEvent[] = [];
  const current = upload?.fileUploadId === chunk.fileUploadId ? upload : null;
  if (!current) {
    events.push({
      type: 'AssetUploadStarted',
      data: { ...ref, fileUploadId: chunk.fileUploadId, originalFileName: chunk.originalFileName, totalChunkCount: chunk.totalChunkCount, totalFileSize: chunk.totalFileSize },
    });
  } else {
    if (current.totalChunkCount !== chunk.totalChunkCount) throw invalid(`totalChunkCount differs from the upload's (${current.totalChunkCount})`, 'totalChunkCount');
    if (current.totalFileSize !== chunk.totalFileSize) throw invalid(`totalFileSize differs from the upload's (${current.totalFileSize})`, 'totalFileSize');
    const known = current.chunks[chunk.chunkIndex];
    if (known) {
      // The same chunk again (a retry) is harmless; a different one under the same index is not.
      if (known.offset === chunk.chunkByteOffset && known.size === chunk.chunkSize) return [];
      throw conflict(`chunk ${chunk.chunkIndex} was already received with offset ${known.offset} and size ${known.size}`);
    }
    if (current.finished) throw conflict(`upload ${chunk.fileUploadId} is already finished${current.outcome?.kind === 'failed' ? `: ${current.outcome.reason}; start a new upload` : ''}`);
    if (current.receivedBytes + chunk.chunkSize > current.totalFileSize) {
      throw invalid(`the chunks would hold more than totalFileSize (${current.totalFileSize} bytes): send each part of the file once, in chunks that do not overlap`, 'chunkSize');
    }
  }
  events.push({
    type: 'AssetChunkReceived',
    data: {
      ...ref,
      fileUploadId: chunk.fileUploadId,
      chunkIndex: chunk.chunkIndex,
      chunkByteOffset: chunk.chunkByteOffset,
      chunkSize: chunk.chunkSize,
      blobKey: chunk.blobKey,
      details: chunk.details,
    },
  });
  return events;
}
