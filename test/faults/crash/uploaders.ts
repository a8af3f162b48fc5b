import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { attempt } from './content-writers';

const CHUNKS_PER_FILE = 3;
const CHUNK_BYTES = 48 * 1024;

export interface UploadLedger {
  readonly assetId: string;
  readonly md5: string;
  readonly size: number;
  readonly chunks: Record<string, unknown>[];
  /** Indexes of the chunks the service acknowledged. */
  readonly acknowledged: Set<number>;
  /** The chunk that got no answer, if any. */
  pending: number | null;
}

export interface UploaderLedger {
  readonly uploads: UploadLedger[];
  /** Answers other than 2xx while the service was up: there must be none. */
  readonly refused: string[];
}

/** One client uploading files of CHUNKS_PER_FILE chunks, one after another, until the service stops answering. */
export async function runUploader(url: string, writeKey: string, ledger: UploaderLedger): Promise<void> {
  for (;;) {
    const upload = newUpload();
    ledger.uploads.push(upload);
    for (const [index, chunk] of upload.chunks.entries()) {
      const answer = await attempt(url, 'POST', '/assets/uploadAsset', writeKey, chunk);
      if (answer === null) {
        upload.pending = index;
        return;
      }
      if (answer.status >= 300) {
        ledger.refused.push(`${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
        return;
      }
      upload.acknowledged.add(index);
    }
  }
}

/** Sends every chunk not acknowledged yet; the last answer, or null when one got none. */
export async function finishUpload(url: string, writeKey: string, upload: UploadLedger): Promise<number | null> {
  let status: number | null = null;
  for (const [index, chunk] of upload.chunks.entries()) {
    if (upload.acknowledged.has(index)) continue;
    status = (await attempt(url, 'POST', '/assets/uploadAsset', writeKey, chunk))?.status ?? null;
  }
  return status;
}

export const isComplete = (upload: UploadLedger) => upload.acknowledged.size === upload.chunks.length;

function newUpload(): UploadLedger {
  const file = randomBytes(CHUNKS_PER_FILE * CHUNK_BYTES);
  const assetId = randomUUID();
  const fileUploadId = randomUUID();
  const chunks = Array.from({ length: CHUNKS_PER_FILE }, (_, index) => {
    const bytes = file.subarray(index * CHUNK_BYTES, (index + 1) * CHUNK_BYTES);
    return {
      assetId,
      fileUploadId,
      originalFileName: `${assetId}.bin`,
      chunkIndex: index,
      chunkSize: bytes.length,
      totalChunkCount: CHUNKS_PER_FILE,
      chunkByteOffset: index * CHUNK_BYTES,
      totalFileSize: file.length,
      stream: bytes.toString('base64'),
      ignoreCheckDuplicates: true,
    };
  });
  return { assetId, md5: createHash('md5').update(file).digest('hex'), size: file.length, chunks, acknowledged: new Set(), pending: null };
}
