import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { type BlobStore, type ByteRange, checkBlobKey } from '../../infra/blobs/port';

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;
/** One random block, stamped with its index to make each chunk of a large blob distinct. */
const BLOCK = randomBytes(CHUNK);

function chunk(index: number): Buffer {
  const bytes = Buffer.from(BLOCK);
  bytes.writeUInt32BE(index, 0);
  return bytes;
}

/** `size` bytes (a multiple of CHUNK) produced chunk by chunk; `fail` makes the stream error at that offset. */
function largeStream(size: number, fail?: number): Readable {
  return Readable.from(
    (function* () {
      for (let index = 0; index * CHUNK < size; index++) {
        if (fail !== undefined && index * CHUNK >= fail) throw new Error('source failed');
        yield chunk(index);
      }
    })(),
  );
}

/** The bytes of `largeStream` from `start` to `end` inclusive. */
function largeBytes(start: number, end: number): Buffer {
  const first = Math.floor(start / CHUNK);
  const chunks = Array.from({ length: Math.floor(end / CHUNK) - first + 1 }, (_, offset) => chunk(first + offset));
  return Buffer.concat(chunks).subarray(start - first * CHUNK, end - first * CHUNK + 1);
}

function failingStream(): Readable {
  return Readable.from(
    (async function* () {
      yield Buffer.from('partial ');
      throw new Error('source failed');
    })(),
  );
}

async function md5(stream: Readable): Promise<string> {
  const hash = createHash('md5');
  for await (const data of stream) hash.update(data as Buffer);
  return hash.digest('hex');
}

const INVALID_KEYS = ['../x', '/x', 'a//b', 'a/./b', 'a b', 'a/', '', 'a/..', 'a\\b'];

type OpenBlobStore = () => Promise<{ store: BlobStore; close: () => Promise<void> }>;

/** The behaviour every BlobStore adapter shares. Every key lives under one prefix unique to the run. */
export function describeBlobStoreConformance(label: string, open: OpenBlobStore): void {
  describe(`BlobStore conformance: ${label}`, () => {
    let store: BlobStore;
    let close: () => Promise<void>;
    const root = `conformance-${randomBytes(6).toString('hex')}`;
    let counter = 0;
    const key = (name = 'blob'): string => `${root}/${++counter}/${name}`;

    const read = async (blobKey: string, range?: ByteRange): Promise<string | null> => {
      const stream = await store.get(blobKey, range);
      return stream && (await buffer(stream)).toString();
    };

    beforeAll(async () => {
      ({ store, close } = await open());
    });

    afterAll(async () => {
      await store?.deletePrefix(`${root}/`);
      await close?.();
    });

    test('put and get round-trip a buffer and report its size', async () => {
      const blobKey = key('hello.txt');
      await expect(store.put(blobKey, Buffer.from('hello, world'), { contentType: 'text/plain' })).resolves.toEqual({ size: 12 });
      expect(await read(blobKey)).toBe('hello, world');
      expect(await store.stat(blobKey)).toEqual({ size: 12 });
    });

    test('put and get round-trip a stream of chunks, including multi-byte text', async () => {
      const blobKey = key();
      const text = ['Crème ', 'brûlée ', '☕'];
      await expect(store.put(blobKey, Readable.from(text.map((part) => Buffer.from(part))))).resolves.toEqual({
        size: Buffer.byteLength(text.join('')),
      });
      expect(await read(blobKey)).toBe(text.join(''));
    });

    test('an empty blob is stored and read back', async () => {
      const blobKey = key();
      await expect(store.put(blobKey, Readable.from([]))).resolves.toEqual({ size: 0 });
      expect(await read(blobKey)).toBe('');
      expect(await store.stat(blobKey)).toEqual({ size: 0 });
      expect(await read(blobKey, { start: 0, end: 10 })).toBe('');
    });

    test('a 20 MiB stream is stored whole: size, MD5 and ranges across its inner boundaries', async () => {
      const blobKey = key('large.bin');
      const size = 20 * MiB;
      const expected = await md5(largeStream(size));
      await expect(store.put(blobKey, largeStream(size), { contentType: 'application/octet-stream' })).resolves.toEqual({ size });
      expect(await store.stat(blobKey)).toEqual({ size });
      expect(await md5((await store.get(blobKey))!)).toBe(expected);
      for (const range of [
        { start: 5 * MiB - 10, end: 5 * MiB + 10 },
        { start: 8 * MiB - 1000, end: 8 * MiB + 1000 },
        { start: 16 * MiB - 1, end: 16 * MiB },
        { start: size - 100, end: size + 100 },
      ]) {
        const bytes = await buffer((await store.get(blobKey, range))!);
        expect(bytes.equals(largeBytes(range.start, Math.min(range.end, size - 1)))).toBe(true);
      }
    });

    test('put replaces the blob at the key', async () => {
      const blobKey = key();
      await store.put(blobKey, Buffer.from('a longer first version'));
      await expect(store.put(blobKey, Buffer.from('second'))).resolves.toEqual({ size: 6 });
      expect(await read(blobKey)).toBe('second');
      expect(await store.stat(blobKey)).toEqual({ size: 6 });
    });

    test('get and stat of a missing key answer null', async () => {
      expect(await store.get(key('missing'))).toBeNull();
      expect(await store.get(key('missing'), { start: 0, end: 3 })).toBeNull();
      expect(await store.stat(key('missing'))).toBeNull();
    });

    test.each<[string, ByteRange, string]>([
      ['the first byte', { start: 0, end: 0 }, '0'],
      ['a middle range', { start: 3, end: 6 }, '3456'],
      ['the last byte', { start: 9, end: 9 }, '9'],
      ['the whole blob', { start: 0, end: 9 }, '0123456789'],
      ['a range past the end, clamped', { start: 7, end: 100 }, '789'],
      ['a range starting past the end, empty', { start: 10, end: 20 }, ''],
    ])('get of a range: %s', async (_name, range, expected) => {
      const blobKey = key();
      await store.put(blobKey, Buffer.from('0123456789'));
      expect(await read(blobKey, range)).toBe(expected);
    });

    test.each<ByteRange>([
      { start: 5, end: 4 },
      { start: -1, end: 3 },
      { start: 0.5, end: 3 },
    ])('get of an invalid range %p throws', async (range) => {
      const blobKey = key();
      await store.put(blobKey, Buffer.from('0123456789'));
      await expect(store.get(blobKey, range)).rejects.toThrow(RangeError);
    });

    test('delete removes the blob; deleting a missing key is not an error', async () => {
      const blobKey = key();
      await store.put(blobKey, Buffer.from('doomed'));
      await store.delete(blobKey);
      expect(await store.get(blobKey)).toBeNull();
      expect(await store.stat(blobKey)).toBeNull();
      await expect(store.delete(blobKey)).resolves.toBeUndefined();
      await expect(store.delete(key('never-was'))).resolves.toBeUndefined();
    });

    test('deletePrefix removes only the blobs under that prefix', async () => {
      const base = key('tree');
      const doomed = [`${base}/p/a`, `${base}/p/b/c`, `${base}/p/b/d/e`];
      const kept = [`${base}/pp/a`, `${base}/p-x`, `${base}/q/p/a`, `${base}/pa`];
      await Promise.all([...doomed, ...kept].map((blobKey) => store.put(blobKey, Buffer.from(blobKey))));

      await store.deletePrefix(`${base}/p/`);

      for (const blobKey of doomed) expect(await store.stat(blobKey)).toBeNull();
      for (const blobKey of kept) expect(await read(blobKey)).toBe(blobKey);
      await expect(store.deletePrefix(`${base}/nothing/`)).resolves.toBeUndefined();
    });

    test.each(['p', '', '/', '../', 'a//', 'a b/'])('deletePrefix(%p) throws', async (prefix) => {
      await expect(store.deletePrefix(prefix)).rejects.toThrow();
    });

    const keysUnder = async (prefix: string) => {
      const keys: string[] = [];
      for await (const blobKey of store.list(prefix)) keys.push(blobKey);
      return keys;
    };

    test('list gives the keys under a prefix, at any depth, and nothing else', async () => {
      const base = key('listing');
      const under = [`${base}/p/a`, `${base}/p/b/c`, `${base}/p/b/d/e`];
      const beside = [`${base}/pp/a`, `${base}/p-x`, `${base}/q/p/a`];
      await Promise.all([...under, ...beside].map((blobKey) => store.put(blobKey, Buffer.from(blobKey))));

      expect((await keysUnder(`${base}/p/`)).sort()).toEqual(under.sort());
      expect(await keysUnder(`${base}/nothing/`)).toEqual([]);
      await expect(keysUnder('../')).rejects.toThrow();
    });

    test.each(INVALID_KEYS)('the invalid key %p is refused by every operation', async (invalid) => {
      expect(() => checkBlobKey(invalid)).toThrow();
      await expect(store.put(invalid, Buffer.from('x'))).rejects.toThrow();
      await expect(store.get(invalid)).rejects.toThrow();
      await expect(store.stat(invalid)).rejects.toThrow();
      await expect(store.delete(invalid)).rejects.toThrow();
    });

    test('valid keys use every allowed character', async () => {
      const blobKey = key('A-z_0.9=x/.hidden/..dots');
      expect(checkBlobKey(blobKey)).toBe(blobKey);
      await store.put(blobKey, Buffer.from('ok'));
      expect(await read(blobKey)).toBe('ok');
    });

    test('a put whose source stream fails rejects and leaves no blob', async () => {
      const blobKey = key();
      await expect(store.put(blobKey, failingStream())).rejects.toThrow('source failed');
      expect(await store.get(blobKey)).toBeNull();
      expect(await store.stat(blobKey)).toBeNull();
    });

    test('a large put whose source fails midway leaves the previous blob intact', async () => {
      const blobKey = key();
      await store.put(blobKey, Buffer.from('the old version'));
      await expect(store.put(blobKey, largeStream(20 * MiB, 18 * MiB))).rejects.toThrow('source failed');
      expect(await read(blobKey)).toBe('the old version');
      expect(await store.stat(blobKey)).toEqual({ size: 15 });
    });

    test('concurrent puts to different keys all land', async () => {
      const keys = Array.from({ length: 12 }, (_, index) => key(`concurrent-${index}`));
      const sizes = await Promise.all(keys.map((blobKey) => store.put(blobKey, Readable.from([Buffer.from(blobKey), Buffer.from('!')]))));
      expect(sizes).toEqual(keys.map((blobKey) => ({ size: blobKey.length + 1 })));
      for (const blobKey of keys) expect(await read(blobKey)).toBe(`${blobKey}!`);
    });

    test('ping answers true', async () => {
      expect(await store.ping()).toBe(true);
    });
  });
}
