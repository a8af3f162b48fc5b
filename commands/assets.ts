import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { lookup } from 'mime-types';
import type { BlobStore } from '../infra/blobs/port';
import { issueSharedAccessKey } from '../infra/crypto/credentials';
import { assetDecider, type AssetCommand, type ChunkMeta, type UploadSession, uploadComplete } from '../src/domain/asset/decider';
import { assetEvent, assetStream, type AssetType, type FileInfo } from '../src/domain/asset/events';
import { assetTypeOf } from '../src/domain/asset/types';
import { invalid } from '../src/domain/errors';
import type { CommandContext, CommandRunner } from './aggregate';

export const assetAggregate = { decider: assetDecider, parse: assetEvent.parse };

export interface ChunkInput extends ChunkMeta {
  readonly assetId: string;
  readonly bytes: Buffer;
}

/** What the asset commands need of the read side and of image handling. */
export interface AssetLookups {
  /** An existing asset of the workspace with this MD5 and size, other than `exceptAssetId`. */
  findDuplicate(workspaceId: string, hash: string, size: number, exceptAssetId: string): Promise<string | null>;
  /** The image format when the file is an image (read from its first bytes), else null. */
  probeImage(file: Readable): Promise<string | null>;
}

export type ChunkOutcome =
  | { readonly kind: 'pending' }
  | { readonly kind: 'uploaded' }
  | { readonly kind: 'duplicate'; readonly existingAssetId: string };

/** How much of an uploaded file is read to tell whether it is an image. */
const PROBE_BYTES = 1024 * 1024;

export const uploadPrefix = (workspaceId: string, assetId: string, fileUploadId: string) => `uploads/${workspaceId}/${assetId}/${fileUploadId}/`;
export const fileKey = (workspaceId: string, assetId: string, version: number) => `assets/${workspaceId}/${assetId}/v${version}/file`;
export const renditionPrefix = (workspaceId: string, assetId: string) => `renditions/${workspaceId}/${assetId}/`;

export class AssetCommands {
  constructor(
    private readonly runner: CommandRunner,
    private readonly blobs: BlobStore,
    private readonly lookups: AssetLookups,
  ) {}

  /**
   * Stores one chunk (its bytes in the blob store, its place in the log) and, once every chunk
   * of the upload is in, assembles the file. The same chunk twice is harmless.
   */
  async receiveChunk(workspaceId: string, chunk: ChunkInput, context: CommandContext): Promise<ChunkOutcome> {
    if (chunk.bytes.length !== chunk.chunkSize) throw invalid(`chunkSize is ${chunk.chunkSize} but the chunk has ${chunk.bytes.length} bytes`, 'chunkSize');
    const { bytes, assetId, ...meta } = chunk;
    await this.blobs.put(`${uploadPrefix(workspaceId, assetId, meta.fileUploadId)}${meta.chunkIndex}`, bytes);
    const { state } = await this.run({ type: 'ReceiveChunk', data: { workspaceId, assetId, ...meta } }, context);
    if (state.status !== 'active' || !state.upload || !uploadComplete(state.upload)) return { kind: 'pending' };
    if (state.upload.finished) return { kind: 'uploaded' };
    return this.assemble(workspaceId, assetId, state.upload, state.version + 1, context);
  }

  async update(workspaceId: string, assetId: string, title: string | null, description: string | null, context: CommandContext): Promise<void> {
    await this.run({ type: 'UpdateAsset', data: { workspaceId, assetId, title, description } }, context);
  }

  /** Removes the asset, its file and its renditions. */
  async delete(workspaceId: string, assetId: string, context: CommandContext): Promise<void> {
    await this.run({ type: 'DeleteAsset', data: { workspaceId, assetId } }, context);
    await this.blobs.deletePrefix(`assets/${workspaceId}/${assetId}/`);
    await this.blobs.deletePrefix(renditionPrefix(workspaceId, assetId));
  }

  async issueSharedKey(workspaceId: string, assetId: string, expiresAt: Date | null, context: CommandContext): Promise<{ key: string; keyId: string }> {
    const credential = issueSharedAccessKey();
    await this.run({ type: 'IssueSharedKey', data: { workspaceId, assetId, keyId: credential.id, secretHash: credential.secretHash, expiresAt: expiresAt?.toISOString() ?? null } }, context);
    return { key: credential.key, keyId: credential.id };
  }

  async revokeSharedKey(workspaceId: string, assetId: string, keyId: string, context: CommandContext): Promise<void> {
    await this.run({ type: 'RevokeSharedKey', data: { workspaceId, assetId, keyId } }, context);
  }

  /**
   * Streams the chunks in order into the asset's file, hashing as it goes; checks that they
   * tile the file exactly and match contentMD5; answers an existing asset with the same MD5
   * and size instead, unless duplicates were allowed. A failed upload leaves nothing visible.
   */
  private async assemble(workspaceId: string, assetId: string, upload: UploadSession, version: number, context: CommandContext): Promise<ChunkOutcome> {
    const fail = async (reason: string, field: string): Promise<never> => {
      await this.run({ type: 'FailUpload', data: { workspaceId, assetId, fileUploadId: upload.fileUploadId, reason } }, context);
      await this.blobs.deletePrefix(uploadPrefix(workspaceId, assetId, upload.fileUploadId));
      throw invalid(reason, field);
    };
    const order = Array.from({ length: upload.totalChunkCount }, (_, index) => ({ index, ...upload.chunks[index]! }));
    let expectedOffset = 0;
    for (const chunk of order) {
      if (chunk.offset !== expectedOffset) await fail(`chunk ${chunk.index} starts at ${chunk.offset}, expected ${expectedOffset}`, 'chunkByteOffset');
      expectedOffset += chunk.size;
    }
    if (expectedOffset !== upload.totalFileSize) await fail(`the chunks hold ${expectedOffset} bytes, totalFileSize is ${upload.totalFileSize}`, 'totalFileSize');

    const key = fileKey(workspaceId, assetId, version);
    const md5 = createHash('md5');
    const file = new PassThrough();
    const written = this.blobs.put(key, file);
    let bytesWritten = 0;
    for (const chunk of order) {
      const part = await this.blobs.get(`${uploadPrefix(workspaceId, assetId, upload.fileUploadId)}${chunk.index}`);
      if (!part) {
        file.destroy(new Error(`chunk ${chunk.index} is missing`));
        await written.catch(() => undefined);
        await fail(`chunk ${chunk.index} is missing; send it again`, 'chunkIndex');
      }
      for await (const bytes of part!) {
        md5.update(bytes as Buffer);
        bytesWritten += (bytes as Buffer).length;
        if (!file.write(bytes)) await new Promise((resolve) => file.once('drain', resolve));
      }
    }
    file.end();
    await written;
    if (bytesWritten !== upload.totalFileSize) {
      await this.blobs.delete(key);
      await fail(`the stored chunks hold ${bytesWritten} bytes, totalFileSize is ${upload.totalFileSize}; send them again`, 'totalFileSize');
    }
    const hash = md5.digest('hex');
    const expected = upload.details?.contentMD5;
    if (expected && !md5Matches(expected, hash)) {
      await this.blobs.delete(key);
      await fail('contentMD5 does not match the assembled file', 'contentMD5');
    }
    if (!upload.details?.ignoreCheckDuplicates) {
      const existing = await this.lookups.findDuplicate(workspaceId, hash, upload.totalFileSize, assetId);
      if (existing) {
        await this.run({ type: 'MarkDuplicate', data: { workspaceId, assetId, fileUploadId: upload.fileUploadId, duplicateOf: existing } }, context);
        await this.blobs.delete(key);
        await this.blobs.deletePrefix(uploadPrefix(workspaceId, assetId, upload.fileUploadId));
        return { kind: 'duplicate', existingAssetId: existing };
      }
    }
    const imageFormat = await this.probe(key);
    const contentType = imageFormat ? `image/${imageFormat}` : lookup(upload.originalFileName) || 'application/octet-stream';
    const fileInfo: FileInfo = { contentType, hash, fileSize: upload.totalFileSize, fileName: upload.originalFileName };
    const assetType: AssetType = imageFormat ? 'Image' : assetTypeOf(contentType);
    await this.run({ type: 'CompleteUpload', data: { workspaceId, assetId, fileUploadId: upload.fileUploadId, blobKey: key, fileInfo, assetType } }, context);
    await this.blobs.deletePrefix(uploadPrefix(workspaceId, assetId, upload.fileUploadId));
    if (version > 1) {
      await this.blobs.delete(fileKey(workspaceId, assetId, version - 1));
      await this.blobs.deletePrefix(renditionPrefix(workspaceId, assetId));
    }
    return { kind: 'uploaded' };
  }

  /** Image headers sit at the start of the file: the probe reads that much, never the whole file. */
  private async probe(key: string): Promise<string | null> {
    const head = await this.blobs.get(key, { start: 0, end: PROBE_BYTES - 1 });
    return head ? this.lookups.probeImage(head) : null;
  }

  private run(command: AssetCommand, context: CommandContext) {
    return this.runner.run(assetAggregate, assetStream(command.data.workspaceId, command.data.assetId), command, context);
  }
}

/** contentMD5 may be given as hex or as base64 (as in the HTTP Content-MD5 header). */
function md5Matches(given: string, hex: string): boolean {
  return given.toLowerCase() === hex || given === Buffer.from(hex, 'hex').toString('base64');
}
