import { createHash, randomUUID } from 'node:crypto';
import type { AssetId, UploadChunkRequest, UploadStarted } from '../generated/api-types';
import { type ByteSource, fixedSizeChunks, knownSize } from './byte-chunks';

/** The largest chunk the service accepts, in bytes (decoded). */
export const MAX_CHUNK_BYTES = 16 * 1024 * 1024;
const DEFAULT_CHUNK_BYTES = 4 * 1024 * 1024;

export interface FileToUpload {
  /** The bytes: a Buffer, a Blob (`fs.openAsBlob(path)`) or a stream (`fs.createReadStream(path)`). */
  readonly content: ByteSource;
  readonly fileName: string;
  /** Bytes in the file; required for a stream, since every chunk announces the total. */
  readonly size?: number;
}

/** What chunk 0 carries for the whole upload, plus how to cut it. */
export interface UploadOptions extends Pick<UploadChunkRequest, 'title' | 'description' | 'contentMD5' | 'ignoreCheckDuplicates' | 'clientInfo'> {
  /** Upload into this asset (a GUID), replacing its file. Default: a new asset. */
  readonly assetId?: string;
  /** Bytes per chunk, at most 16 MiB. Default: 4 MiB. */
  readonly chunkSize?: number;
}

export interface UploadResult {
  /** The asset holding the file: an existing one when the file was a duplicate. */
  readonly assetId: string;
  /** The same bytes were already stored (same MD5 and size), so nothing new was kept. */
  readonly duplicate: boolean;
  /** MD5 of the bytes sent, hex, as the asset's fileInfo.hash shows it. */
  readonly md5: string;
  readonly size: number;
  readonly chunkCount: number;
}

export type SendChunk = (chunk: UploadChunkRequest) => Promise<AssetId | UploadStarted>;

/** Streams a file through `send` one chunk at a time, in order; only the chunk being sent is in memory. */
export async function uploadInChunks(send: SendChunk, file: FileToUpload, options: UploadOptions = {}): Promise<UploadResult> {
  const size = file.size ?? knownSize(file.content);
  if (size === undefined) throw new TypeError('size is required to upload from a stream');
  const { assetId = randomUUID(), chunkSize = DEFAULT_CHUNK_BYTES, ...firstChunkDetails } = options;
  if (!Number.isInteger(chunkSize) || chunkSize < 1 || chunkSize > MAX_CHUNK_BYTES) throw new RangeError(`chunkSize must be 1 to ${MAX_CHUNK_BYTES} bytes`);
  const upload = {
    assetId,
    fileUploadId: randomUUID(),
    originalFileName: file.fileName,
    totalChunkCount: Math.max(1, Math.ceil(size / chunkSize)),
    totalFileSize: size,
  };
  const md5 = createHash('md5');
  let chunkIndex = 0;
  let offset = 0;
  let storedAs = assetId;
  // The service takes an empty file as one empty chunk.
  const chunks = size === 0 ? [Buffer.alloc(0)] : fixedSizeChunks(file.content, chunkSize);
  for await (const bytes of chunks) {
    if (offset + bytes.length > size) throw new RangeError(`the content is longer than the ${size} bytes announced`);
    md5.update(bytes);
    const answer = await send({
      ...upload,
      ...(chunkIndex === 0 ? firstChunkDetails : {}),
      chunkIndex,
      chunkSize: bytes.length,
      chunkByteOffset: offset,
      stream: bytes.toString('base64'),
    });
    storedAs = typeof answer === 'string' ? answer : answer.id;
    chunkIndex += 1;
    offset += bytes.length;
  }
  if (offset !== size) throw new RangeError(`the content held ${offset} bytes, not the ${size} announced`);
  return { assetId: storedAs, duplicate: storedAs !== assetId, md5: md5.digest('hex'), size, chunkCount: chunkIndex };
}
