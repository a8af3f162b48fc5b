import { randomBytes } from 'node:crypto';
import { ChunkBodyReader, MAX_FIELDS_BYTES, parseChunkBody } from '../../src/http/chunk-body';
import { chunkBody } from '../../src/http/routes/assets';

const body = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('parseChunkBody', () => {
  it('decodes stream wherever it stands and parses the other fields as JSON', async () => {
    const bytes = randomBytes(10_001);
    for (const fields of [
      { stream: bytes.toString('base64'), chunkIndex: 0, title: 'a' },
      { chunkIndex: 0, stream: bytes.toString('base64'), title: 'a' },
      { chunkIndex: 0, title: 'a', stream: bytes.toString('base64') },
    ]) {
      const parsed = await parseChunkBody(body(fields));
      expect(parsed.bytes).toEqual(bytes);
      expect(parsed.fields).toEqual({ chunkIndex: 0, title: 'a', stream: null });
    }
  });

  it('is not fooled by a "stream" inside another string, escapes, nesting or whitespace', async () => {
    const bytes = Buffer.from('hello');
    const text = `{ "title" : "say \\"stream\\":\\"AAAA\\" \\\\", "nested": {"stream": "x", "list": [1, "]}"]}, "stream"  :  "${bytes.toString('base64')}" , "n": -1.5e3, "ok": true }`;
    const parsed = await parseChunkBody(Buffer.from(text));
    expect(parsed.bytes).toEqual(bytes);
    expect(parsed.fields).toEqual({ title: 'say "stream":"AAAA" \\', nested: { stream: 'x', list: [1, ']}'] }, stream: null, n: -1500, ok: true });
  });

  it('decodes across slices and with padding', async () => {
    for (const size of [0, 1, 2, 3, 5 * 1024 * 1024 + 7]) {
      const bytes = randomBytes(size);
      expect((await parseChunkBody(body({ stream: bytes.toString('base64') }))).bytes!.equals(bytes)).toBe(true);
    }
  });

  it('reads the same body whatever pieces it arrives in, down to one byte at a time', () => {
    const bytes = randomBytes(1_000);
    const text = Buffer.from(`{ "ti\\"tle" : "a\\\\b\\"" , "n": [1, {"stream": "]"}], "stream" : "${bytes.toString('base64')}", "z": null }`);
    for (const size of [1, 2, 3, 5, 7, 64, 1_000]) {
      const reader = new ChunkBodyReader(text.length);
      for (let start = 0; start < text.length; start += size) reader.push(text.subarray(start, start + size));
      const parsed = reader.end();
      expect(parsed.bytes!.equals(bytes)).toBe(true);
      expect(parsed.fields).toEqual({ 'ti"tle': 'a\\b"', n: [1, { stream: ']' }], stream: null, z: null });
    }
  });

  it('answers 413 for members other than stream past their bound, before parsing them', async () => {
    const stream = randomBytes(300_000).toString('base64');
    await expect(parseChunkBody(body({ stream, title: 'x'.repeat(MAX_FIELDS_BYTES - 100) }))).resolves.toMatchObject({ fields: { stream: null } });
    await expect(parseChunkBody(body({ stream, title: 'x'.repeat(MAX_FIELDS_BYTES) }))).rejects.toMatchObject({ status: 413 });
    await expect(parseChunkBody(body({ stream, list: Array.from({ length: 40_000 }, () => 1) }))).rejects.toMatchObject({ status: 413 });
  });

  it('accepts every member at its schema limit even when a client escapes each character as \\uXXXX (6 bytes a UTF-16 unit)', async () => {
    const escaped = (text: string) => `"${Array.from({ length: text.length }, (_, unit) => `\\u${text.charCodeAt(unit).toString(16).padStart(4, '0')}`).join('')}"`;
    // Non-BMP characters: two UTF-16 units each, the schema's max counts units.
    const atLimit = (units: number) => '\u{1F30D}'.repeat(units / 2);
    const members: Record<string, string> = {
      assetId: JSON.stringify('6f1c0c3e-8d2a-4b7e-9a51-2f4e8c9d0b1a'),
      fileUploadId: JSON.stringify('0c9d8e7f-6a5b-4c3d-8e1f-a2b3c4d5e6f7'),
      originalFileName: escaped(atLimit(254)),
      chunkIndex: '0',
      chunkSize: '3',
      totalChunkCount: '1',
      chunkByteOffset: '0',
      totalFileSize: '3',
      title: escaped(atLimit(500)),
      description: escaped(atLimit(5000)),
      contentMD5: escaped('a'.repeat(64)),
      ignoreCheckDuplicates: 'false',
      clientInfo: escaped(atLimit(2000)),
    };
    const text = `{${Object.entries(members).map(([key, value]) => `"${key}":${value}`).join(',')},"stream":"QUJD"}`;
    expect(Buffer.byteLength(text)).toBeGreaterThan(45_000);
    const parsed = await parseChunkBody(Buffer.from(text));
    expect(parsed.bytes).toEqual(Buffer.from('ABC'));
    expect(chunkBody.safeParse(parsed.fields).success).toBe(true);
  });

  it('leaves a stream that is not a string to the schema', async () => {
    await expect(parseChunkBody(body({ stream: 5, chunkIndex: 1 }))).resolves.toEqual({ fields: { stream: 5, chunkIndex: 1 }, bytes: null });
    await expect(parseChunkBody(body({ chunkIndex: 1 }))).resolves.toEqual({ fields: { chunkIndex: 1 }, bytes: null });
  });

  it('answers 400 for what is not a JSON object or not base64', async () => {
    for (const text of ['', 'null', '[1]', '{"a":1', '{"a":1} x', '{"a" 1}', '{"a":tru}', '{"stream":"abc', '{"a":"x",}', '{"stream":"ab!d"}', '{"\\q":1}', '{"stream":"QQ==QUJD"}', '{"stream":"QUJ"}', '{"stream":"QUJD","stream":"QUJD"}']) {
      await expect(parseChunkBody(Buffer.from(text))).rejects.toMatchObject({ status: 400 });
    }
  });
});
