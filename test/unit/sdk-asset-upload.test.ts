import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { CmsClient } from '../../clients/typescript/src';
import { type FakeAnswer, fakeFetch, jsonAnswer } from '../support/fake-fetch';

const BASE_URL = 'http://cms.test';
const BYTES = Buffer.from('the quick brown fox jumps', 'utf8');

/** The service's answers to an upload: the asset for chunk 0, the id for later ones (another asset's for a duplicate). */
function uploadAnswers(chunkCount: number, duplicateOf?: string): FakeAnswer[] {
  const started: FakeAnswer = ({ body }) =>
    jsonAnswer(202, { id: body.assetId, title: '', description: '', fileInfo: { contentType: 'text/plain', hash: '', fileSize: 0, fileName: body.originalFileName }, assetType: null, lastUpdate: null });
  const received: FakeAnswer = ({ body }) => jsonAnswer(200, duplicateOf ?? body.assetId);
  return [started, ...Array.from({ length: chunkCount - 1 }, () => received)];
}

async function* pieces(...sizes: number[]): AsyncGenerator<Uint8Array> {
  let offset = 0;
  for (const size of sizes) {
    yield BYTES.subarray(offset, offset + size);
    offset += size;
  }
}

describe('assets.upload', () => {
  const ASSET_ID = '6f1c2b9e-8d4a-4e6f-9a7b-1c2d3e4f5a6b';

  it('streams a file in chunks of the chosen size, whatever the sizes of the pieces read', async () => {
    const service = fakeFetch(...uploadAnswers(5));
    const client = new CmsClient({ baseUrl: BASE_URL, apiKey: 'k', fetch: service.fetch });
    const result = await client.assets.upload(
      { content: pieces(7, 1, 10, 7), size: BYTES.length, fileName: 'fox.txt' },
      { assetId: ASSET_ID, chunkSize: 5, title: 'Fox', contentMD5: 'abc', clientInfo: 'importer' },
    );

    const chunks = service.sent.map((request) => request.body);
    expect(service.sent.every((request) => request.url === `${BASE_URL}/assets/uploadAsset` && request.method === 'POST')).toBe(true);
    expect(chunks.map((chunk) => [chunk.chunkIndex, chunk.chunkByteOffset, chunk.chunkSize])).toEqual([[0, 0, 5], [1, 5, 5], [2, 10, 5], [3, 15, 5], [4, 20, 5]]);
    expect(Buffer.concat(chunks.map((chunk) => Buffer.from(chunk.stream, 'base64')))).toEqual(BYTES);
    expect(new Set(chunks.map((chunk) => `${chunk.assetId} ${chunk.fileUploadId} ${chunk.totalChunkCount} ${chunk.totalFileSize} ${chunk.originalFileName}`)).size).toBe(1);
    expect(chunks[0]).toMatchObject({ assetId: ASSET_ID, totalChunkCount: 5, totalFileSize: 25, title: 'Fox', contentMD5: 'abc', clientInfo: 'importer' });
    expect(chunks.slice(1).some((chunk) => 'title' in chunk || 'clientInfo' in chunk || 'contentMD5' in chunk)).toBe(false);
    expect(result).toEqual({ assetId: ASSET_ID, duplicate: false, md5: createHash('md5').update(BYTES).digest('hex'), size: 25, chunkCount: 5 });
  });

  it('reads a Buffer, a Blob or a Node stream, and makes a new asset id by default', async () => {
    for (const content of [BYTES, new Blob([BYTES]), Readable.from([BYTES.subarray(0, 3), BYTES.subarray(3)])]) {
      const service = fakeFetch(...uploadAnswers(3));
      const client = new CmsClient({ baseUrl: BASE_URL, apiKey: 'k', fetch: service.fetch });
      const result = await client.assets.upload({ content, size: BYTES.length, fileName: 'fox.txt' }, { chunkSize: 10 });
      expect(result).toMatchObject({ assetId: expect.stringMatching(/^[0-9a-f-]{36}$/), duplicate: false, chunkCount: 3 });
      expect(service.sent[0]!.body.assetId).toBe(result.assetId);
    }
  });

  it('reports the existing asset when the service found the file to be a duplicate', async () => {
    const existing = '0e0e0e0e-8d4a-4e6f-9a7b-1c2d3e4f5a6b';
    const service = fakeFetch(...uploadAnswers(3, existing));
    const result = await new CmsClient({ baseUrl: BASE_URL, apiKey: 'k', fetch: service.fetch }).assets.upload({ content: BYTES, fileName: 'fox.txt' }, { assetId: ASSET_ID, chunkSize: 10 });
    expect(result).toMatchObject({ assetId: existing, duplicate: true });
  });

  it('sends an empty file as one empty chunk', async () => {
    const service = fakeFetch(...uploadAnswers(1));
    await new CmsClient({ baseUrl: BASE_URL, apiKey: 'k', fetch: service.fetch }).assets.upload({ content: Buffer.alloc(0), fileName: 'empty.txt' }, { assetId: ASSET_ID });
    expect(service.sent.map((request) => request.body)).toEqual([expect.objectContaining({ chunkIndex: 0, chunkSize: 0, totalChunkCount: 1, totalFileSize: 0, stream: '' })]);
  });

  it('refuses a stream without a size, a chunk size out of range, and content that does not match the size announced', async () => {
    const service = fakeFetch(...uploadAnswers(3), ...uploadAnswers(3));
    const assets = new CmsClient({ baseUrl: BASE_URL, apiKey: 'k', fetch: service.fetch }).assets;
    await expect(assets.upload({ content: pieces(25), fileName: 'fox.txt' })).rejects.toThrow('size is required to upload from a stream');
    await expect(assets.upload({ content: BYTES, fileName: 'fox.txt' }, { chunkSize: 16 * 1024 * 1024 + 1 })).rejects.toThrow(RangeError);
    await expect(assets.upload({ content: BYTES, fileName: 'fox.txt' }, { chunkSize: 0 })).rejects.toThrow(RangeError);
    expect(service.sent).toHaveLength(0);

    await expect(assets.upload({ content: pieces(25), size: 20, fileName: 'fox.txt' }, { chunkSize: 10 })).rejects.toThrow('the content is longer than the 20 bytes announced');
    expect(service.sent).toHaveLength(2);
    await expect(assets.upload({ content: pieces(25), size: 30, fileName: 'fox.txt' }, { chunkSize: 10 })).rejects.toThrow('the content held 25 bytes, not the 30 announced');
  });
});
