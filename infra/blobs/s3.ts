import http from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import { Client } from 'minio';
import { type BlobStore, type ByteRange, checkBlobKey, checkBlobPrefix, checkByteRange, type PutOptions } from './port';

export interface S3Options {
  /** The server's URL, e.g. http://127.0.0.1:9000. */
  readonly endPoint: string;
  readonly accessKey: string;
  readonly secretKey: string;
  readonly bucket: string;
  readonly region?: string;
  /**
   * Bytes held in memory per upload part (default 8 MiB). S3 wants at least 5 MiB for every
   * part but the last, and at most 10,000 parts: 8 MiB parts cap a blob at 80 GiB.
   */
  readonly partSize?: number;
}

const DEFAULT_PART_SIZE = 8 * 1024 * 1024;
/** The most keys one DeleteObjects request takes. */
const DELETE_BATCH = 1000;

/**
 * Blobs as objects in one S3 bucket (MinIO, AWS, or any S3-compatible server).
 *
 * Uploads are cut into parts here rather than by minio's putObject, which for a stream
 * of unknown length buffers parts of about 500 MiB, never sees an error of the source
 * stream, and resumes any earlier unfinished upload of the same key.
 */
export class S3BlobStore implements BlobStore {
  private constructor(
    private readonly client: Client,
    private readonly agent: http.Agent,
    private readonly bucket: string,
    private readonly partSize: number,
  ) {}

  static async connect(options: S3Options): Promise<S3BlobStore> {
    const url = new URL(options.endPoint);
    const useSSL = url.protocol === 'https:';
    const agent = useSSL ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    const client = new Client({
      endPoint: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      useSSL,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: options.region,
      transportAgent: agent,
    });
    const store = new S3BlobStore(client, agent, options.bucket, options.partSize ?? DEFAULT_PART_SIZE);
    try {
      await store.ensureBucket(options.region);
    } catch (error) {
      agent.destroy();
      throw error;
    }
    return store;
  }

  async put(key: string, body: Readable | Buffer, options?: PutOptions): Promise<{ readonly size: number }> {
    checkBlobKey(key);
    const headers: Record<string, string> = options?.contentType ? { 'Content-Type': options.contentType } : {};
    const parts = partsOf(Buffer.isBuffer(body) ? Readable.from([body]) : body, this.partSize);
    const first = await parts.next();
    const second = first.done ? first : await parts.next();
    if (first.done || second.done) {
      const payload = first.done ? Buffer.alloc(0) : first.value;
      await this.client.putObject(this.bucket, key, payload, payload.length, headers);
      return { size: payload.length };
    }
    return this.putMultipart(key, headers, [first.value, second.value], parts);
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    checkBlobKey(key);
    try {
      if (!range) return await this.client.getObject(this.bucket, key);
      const { start, end } = checkByteRange(range);
      return await this.client.getPartialObject(this.bucket, key, start, end - start + 1);
    } catch (error) {
      if (codeOf(error) === 'NoSuchKey') return null;
      // The range starts past the end (or the blob is empty): nothing is left after clamping.
      if (codeOf(error) === 'InvalidRange') return Readable.from([]);
      throw error;
    }
  }

  async stat(key: string): Promise<{ readonly size: number } | null> {
    checkBlobKey(key);
    try {
      const { size } = await this.client.statObject(this.bucket, key);
      return { size };
    } catch (error) {
      if (codeOf(error) === 'NotFound' || codeOf(error) === 'NoSuchKey') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.removeObject(this.bucket, checkBlobKey(key));
  }

  async *list(prefix: string): AsyncIterable<string> {
    for await (const item of this.client.listObjectsV2(this.bucket, checkBlobPrefix(prefix), true)) {
      if (item.name !== undefined) yield item.name;
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    let batch: string[] = [];
    for await (const item of this.client.listObjectsV2(this.bucket, checkBlobPrefix(prefix), true)) {
      if (item.name === undefined) continue;
      batch.push(item.name);
      if (batch.length === DELETE_BATCH) {
        await this.removeObjects(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await this.removeObjects(batch);
  }

  async ping(): Promise<boolean> {
    return this.client.bucketExists(this.bucket).catch(() => false);
  }

  async close(): Promise<void> {
    this.agent.destroy();
  }

  private async ensureBucket(region: string | undefined): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket, region);
    } catch (error) {
      // Another instance may have created it meanwhile.
      if (!(await this.client.bucketExists(this.bucket))) throw error;
    }
  }

  private async putMultipart(
    key: string,
    headers: Record<string, string>,
    firstParts: readonly Buffer[],
    rest: AsyncGenerator<Buffer>,
  ): Promise<{ readonly size: number }> {
    let uploadId: string | undefined;
    const etags: { part: number; etag: string }[] = [];
    let size = 0;
    const upload = async (uploadID: string, payload: Buffer): Promise<void> => {
      const part = etags.length + 1;
      const { etag } = await this.client.uploadPart({ bucketName: this.bucket, objectName: key, uploadID, partNumber: part, headers: {} }, payload);
      etags.push({ part, etag });
      size += payload.length;
    };
    try {
      uploadId = await this.client.initiateNewMultipartUpload(this.bucket, key, headers);
      for (const payload of firstParts) await upload(uploadId, payload);
      for (let next = await rest.next(); !next.done; next = await rest.next()) await upload(uploadId, next.value);
      await this.client.completeMultipartUpload(this.bucket, key, uploadId, etags);
      return { size };
    } catch (error) {
      await rest.return(undefined);
      // Best effort: an upload never completed is never visible, and some servers (s3rver) cannot abort one.
      if (uploadId) await this.client.abortMultipartUpload(this.bucket, key, uploadId).catch(() => undefined);
      throw error;
    }
  }

  private async removeObjects(names: string[]): Promise<void> {
    // minio answers the DeleteObjects result's errors, one entry each; typed otherwise.
    const failures = (await this.client.removeObjects(this.bucket, names)).filter(Boolean);
    if (failures.length > 0) throw new Error(`Could not delete ${failures.length} blobs, e.g. ${JSON.stringify(failures[0])}`);
  }
}

/** The stream's bytes in buffers of at least `size` bytes, except the last; an empty stream yields nothing. */
async function* partsOf(source: Readable, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const chunk of source) {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
    pending.push(buffer);
    length += buffer.length;
    if (length >= size) {
      yield Buffer.concat(pending, length);
      pending = [];
      length = 0;
    }
  }
  if (length > 0) yield Buffer.concat(pending, length);
}

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}
