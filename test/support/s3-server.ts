import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';

/** s3rver accepts only these credentials. */
const CREDENTIALS = 'S3RVER';

/**
 * A local S3-compatible server (s3rver) on a free loopback port, storing in a temp
 * directory that `close` removes. It cannot abort a multipart upload or list unfinished ones.
 */
export async function startS3Server(): Promise<{ endpoint: string; accessKey: string; secretKey: string; close(): Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 's3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  const { store } = server as unknown as { store: FilesystemStore };
  fixRanges(store);
  serializeDeletes(store);
  answerPutsOnceWritten(store);
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    accessKey: CREDENTIALS,
    secretKey: CREDENTIALS,
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/** The parts of s3rver's (untyped) file store that the fixes below touch. */
interface FilesystemStore {
  getObject(bucket: string, key: string, options?: { start?: number; end?: number }): Promise<StoredObject | null>;
  getResourcePath(bucket: string, key: string, resource: 'object'): string;
  deleteObject(bucket: string, key: string): Promise<void>;
  putObject(object: ObjectToStore): Promise<{ size: number; md5: string }>;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
}

interface ObjectToStore {
  readonly bucket: string;
  readonly key: string;
  readonly content: Readable | Buffer;
  readonly metadata: Record<string, string>;
}

interface StoredObject {
  readonly size: number;
  content: Readable | null;
  range?: { start: number; end: number };
}

/**
 * s3rver 3.7 reads `bytes=N-0` as "to the end" and calls a range of an empty object
 * satisfiable (then sends fewer bytes than it announced). This answers ranges as S3 does:
 * the end clamped to the last byte, and 416 when nothing is left.
 */
function fixRanges(store: FilesystemStore): void {
  const getObject = store.getObject.bind(store);
  store.getObject = async (bucket, key, options) => {
    const object = await getObject(bucket, key, options);
    if (!object || options?.start === undefined) return object;
    const range = { start: options.start, end: Math.min(options.end ?? Infinity, object.size - 1) };
    object.content?.destroy();
    object.content = range.start > range.end ? null : createReadStream(store.getResourcePath(bucket, key, 'object'), range);
    object.range = range;
    return object;
  };
}

/**
 * s3rver's DeleteObjects deletes its keys in parallel, and each removes the folders it
 * leaves empty: two of them racing on one folder fail the request with a 500.
 */
function serializeDeletes(store: FilesystemStore): void {
  const deleteObject = store.deleteObject.bind(store);
  let previous: Promise<void> = Promise.resolve();
  store.deleteObject = (bucket, key) => {
    const current = previous.then(() => deleteObject(bucket, key));
    previous = current.catch(() => undefined);
    return current;
  };
}

/**
 * s3rver 3.7 answers a PUT once the bytes have passed its hashing stream, not once the file
 * holding them is written: a GET right after it (a rendition read back as soon as it is
 * stored, with sharp's renders holding libuv's threads) could read the file still empty and
 * answer 200 with no body. This answers a PUT only when the file is closed.
 */
function answerPutsOnceWritten(store: FilesystemStore): void {
  store.putObject = async (object) => {
    const path = store.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(dirname(path), { recursive: true });
    const md5 = createHash('md5');
    let size = 0;
    const hashing = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        md5.update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    await pipeline(Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content, hashing, createWriteStream(path));
    const digest = md5.digest('hex');
    await store.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
}
