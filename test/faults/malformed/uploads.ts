import { randomUUID } from 'node:crypto';
import type { SeededRandom } from '../../support/seeded-random';
import { traversal } from './paths';

/** Beyond the upload route's raw body limit (24 MB). */
const OVERSIZE_UPLOAD_BYTES = 25 * 1024 * 1024;
const MAX_CHUNK_BYTES = 16 * 1024 * 1024;

/** A malformed upload chunk body; `mayBeValid` when the change may leave a chunk the service accepts. */
export function badChunk(random: SeededRandom, oversize: boolean): { body: string | Buffer; mayBeValid: boolean } {
  if (oversize) return { body: Buffer.alloc(OVERSIZE_UPLOAD_BYTES, 0x41), mayBeValid: false };
  const bytes = Buffer.from(`fuzzed chunk ${random.int(1e9)}`);
  const valid: Record<string, unknown> = {
    assetId: randomUUID(),
    fileUploadId: randomUUID(),
    originalFileName: 'fuzz.bin',
    chunkIndex: 0,
    chunkSize: bytes.length,
    totalChunkCount: 1,
    chunkByteOffset: 0,
    totalFileSize: bytes.length,
    stream: bytes.toString('base64'),
  };
  const json = (changes: Record<string, unknown>, mayBeValid = false) => ({ body: JSON.stringify({ ...valid, ...changes }), mayBeValid });
  return random.pick<() => { body: string | Buffer; mayBeValid: boolean }>([
    () => json({ stream: random.pick(['!!!!', 'AAA', 'A===', 'AA=A', '....', 42, null, {}, ['AAAA'], true]) }),
    () => json({ stream: undefined }),
    () => json({ chunkSize: random.pick([MAX_CHUNK_BYTES + 1, -1, 1.5, '10', 1e20, bytes.length + 1]) }, true),
    () => json({ totalChunkCount: random.pick([0, 10_001, -1, 2.5, 'one']) }),
    () => json({ chunkIndex: random.pick([1, 5, -1, 0.5, '0', 1e9]) }, true),
    () => json({ chunkByteOffset: random.pick([-1, 1e15, 1, 'x']) }, true),
    () => json({ totalFileSize: random.pick([-1, 0, 1e15, 'big', bytes.length - 1]) }, true),
    () => json({ assetId: random.pick([traversal(random), 'not-a-guid', '', null, 42]) }),
    () => json({ fileUploadId: random.pick([traversal(random), 'nope', '', null]) }),
    () => {
      const name = random.pick([traversal(random), '', '   ', 'a/b.bin', 'a\\b.bin', 'x'.repeat(300), null, 7]);
      // A name without a slash is only an odd name (`%2e%2e`, `..`): it is metadata, never a path.
      return json({ originalFileName: name }, typeof name === 'string' && /^[^/\\]{1,255}$/.test(name.trim()));
    },
    () => json({ title: random.pick([1, {}, 'x'.repeat(600)]), contentMD5: random.pick([1, 'x'.repeat(65)]) }),
    () => json({ contentMD5: '00000000000000000000000000000000' }, true),
    () => ({ body: `{"\\q": 1, "stream": "${valid.stream as string}"}`, mayBeValid: false }),
    () => ({ body: `{"stream": "${valid.stream as string}", "stream": "AAAA"}`, mayBeValid: false }),
    () => ({ body: `{"assetId": "${valid.assetId as string}", "stream": "${valid.stream as string}"`, mayBeValid: false }),
    () => ({ body: `{"stream": "AA\\u0041A"}`, mayBeValid: false }),
    () => ({ body: '{"a": [1, {"b": "}"}], "stream": "AAAA",}', mayBeValid: false }),
    () => ({ body: '{"a": {"b": [}', mayBeValid: false }),
    () => ({ body: `{"a": ${'['.repeat(100_000)}1${']'.repeat(100_000)}, "stream": "AAAA"}`, mayBeValid: false }),
    () => ({ body: random.pick(['', '[]', 'null', '"stream"', '{', '}', '{}', '{"stream"}', '{"stream":}', '{,}']), mayBeValid: false }),
    () => ({ body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), mayBeValid: false }),
  ])();
}
