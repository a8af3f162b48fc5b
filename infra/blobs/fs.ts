import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type BlobStore, type ByteRange, checkBlobKey, checkBlobPrefix, checkByteRange, type PutOptions } from './port';

/**
 * Blobs as files under one directory, the key being the relative path. A key cannot
 * also be a folder of other keys here ('a' and 'a/b'), as it can on S3.
 */
/** Files are read in pieces of this size: fewer, larger reads when whole files are streamed. */
const READ_BUFFER_BYTES = 1024 * 1024;

export class FsBlobStore implements BlobStore {
  private constructor(
    private readonly root: string,
    private readonly temp: string,
  ) {}

  static async open(rootDir: string): Promise<FsBlobStore> {
    const root = resolve(rootDir);
    // '#' is not allowed in keys, so no key can reach the temp folder.
    const temp = join(root, '#tmp');
    await mkdir(temp, { recursive: true });
    return new FsBlobStore(root, temp);
  }

  async put(key: string, body: Readable | Buffer, options: PutOptions = {}): Promise<{ readonly size: number }> {
    const target = this.pathOf(key);
    const temp = join(this.temp, randomUUID());
    try {
      // A buffer (an upload chunk) in one write, without a stream's machinery.
      if (Buffer.isBuffer(body)) await writeFile(temp, body, { flag: 'wx', flush: options.durable !== false });
      else await pipeline(body, createWriteStream(temp, { flags: 'wx', flush: options.durable !== false }));
      const size = Buffer.isBuffer(body) ? body.length : (await stat(temp)).size;
      await mkdir(dirname(target), { recursive: true });
      await rename(temp, target);
      return { size };
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable | null> {
    const path = this.pathOf(key);
    if (range) checkByteRange(range);
    // Reading through the opened handle keeps serving this blob even if it is replaced or deleted meanwhile.
    const handle = await open(path).catch(ifMissing(null));
    if (!handle) return null;
    const isFile = await handle.stat().then((stats) => stats.isFile(), async (error: unknown) => {
      await handle.close();
      throw error;
    });
    if (!isFile) {
      await handle.close();
      return null;
    }
    return handle.createReadStream({ highWaterMark: READ_BUFFER_BYTES, ...(range ? { start: range.start, end: range.end } : {}) });
  }

  async stat(key: string): Promise<{ readonly size: number } | null> {
    const stats = await stat(this.pathOf(key)).catch(ifMissing(null));
    return stats?.isFile() ? { size: stats.size } : null;
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    if ((await this.stat(key)) !== null) await rm(path, { force: true });
  }

  async *list(prefix: string): AsyncIterable<string> {
    const folder = this.pathOf(checkBlobPrefix(prefix).slice(0, -1));
    const entries = await readdir(folder, { withFileTypes: true, recursive: true }).catch(ifMissing([]));
    for (const entry of entries) {
      if (entry.isFile()) yield relative(this.root, join(entry.parentPath, entry.name)).split(sep).join('/');
    }
  }

  async deletePrefix(prefix: string): Promise<void> {
    await rm(this.pathOf(checkBlobPrefix(prefix).slice(0, -1)), { recursive: true, force: true });
  }

  async ping(): Promise<boolean> {
    return stat(this.temp).then(
      (stats) => stats.isDirectory(),
      () => false,
    );
  }

  async close(): Promise<void> {}

  private pathOf(key: string): string {
    const path = resolve(this.root, checkBlobKey(key));
    if (!path.startsWith(this.root + sep)) throw new Error(`Blob key escapes the store: ${JSON.stringify(key)}`);
    return path;
  }
}

/** A catch handler answering `value` for a path that does not exist (or runs through a file). */
function ifMissing<T>(value: T): (error: NodeJS.ErrnoException) => T {
  return (error) => {
    if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return value;
    throw error;
  };
}
