import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
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
