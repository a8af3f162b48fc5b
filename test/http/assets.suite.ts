import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { client } from '../support/http';
import { startS3Server } from '../support/s3-server';
import { type Engine, movableClock, startTestService, type TestService } from '../support/service';

export type BlobEngine = 'fs' | 's3';

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

interface Chunking {
  readonly assetId?: string;
  readonly fileUploadId?: string;
  readonly fileName?: string;
  readonly chunkSize?: number;
  readonly extra?: Record<string, unknown>;
}

function chunksOf(file: Buffer, options: Chunking = {}) {
  const assetId = options.assetId ?? randomUUID();
  const fileUploadId = options.fileUploadId ?? randomUUID();
  const size = options.chunkSize ?? Math.max(1, file.length);
  const count = Math.max(1, Math.ceil(file.length / size));
  return Array.from({ length: count }, (_, index) => {
    const bytes = file.subarray(index * size, (index + 1) * size);
    return {
      assetId,
      fileUploadId,
      originalFileName: options.fileName ?? 'file.bin',
      chunkIndex: index,
      chunkSize: bytes.length,
      totalChunkCount: count,
      chunkByteOffset: index * size,
      totalFileSize: file.length,
      stream: bytes.toString('base64'),
      ...(index === 0 ? options.extra : {}),
    };
  });
}

export function describeAssets(engine: Engine, blobs: BlobEngine): void {
  describe(`assets (${engine}, ${blobs})`, () => {
    let service: TestService;
    let api: ReturnType<typeof client>;
    let read: { key: string };
    let write: { key: string };
    let closeS3: (() => Promise<void>) | undefined;
    const clock = movableClock();

    const upload = async (file: Buffer, options: Chunking = {}) => {
      let last;
      for (const chunk of chunksOf(file, options)) last = await api('POST', '/assets/uploadAsset', { ...write, body: chunk });
      return last!;
    };
    const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } }).png().toBuffer();
    const download = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

    beforeAll(async () => {
      let environment: Record<string, string> = {};
      if (blobs === 's3') {
        const s3 = await startS3Server();
        closeS3 = s3.close;
        environment = { BLOB_STORE: 's3', S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY: s3.accessKey, S3_SECRET_KEY: s3.secretKey, S3_BUCKET: `assets-${Date.now()}` };
      }
      service = await startTestService(engine, environment, clock);
      api = client(service.url);
      read = { key: service.readKey };
      write = { key: service.writeKey };
    });

    afterAll(async () => {
      await service?.close();
      await closeS3?.();
    });

    it('assembles a multi-chunk upload sent out of order with one chunk twice, and gives the exact bytes back through shared access', async () => {
      const file = randomBytes(300_000);
      const chunks = chunksOf(file, { chunkSize: 64 * 1024, fileName: 'data.bin', extra: { title: 'Data', description: 'random bytes', clientInfo: 'test-suite' } });
      const order = [3, 0, 2, 2, 4, 1];
      const answers = [];
      for (const index of order) answers.push(await api('POST', '/assets/uploadAsset', { ...write, body: chunks[index] }));
      expect(answers.map((answer) => answer.status)).toEqual([200, 202, 200, 200, 200, 200]);
      expect(answers[0]!.body).toBe(chunks[0]!.assetId);
      expect(answers[1]!.body).toMatchObject({ id: chunks[0]!.assetId, title: 'Data' });

      const asset = (await api('GET', `/assets/${chunks[0]!.assetId}`, read)).body;
      expect(asset).toEqual({
        id: chunks[0]!.assetId,
        title: 'Data',
        description: 'random bytes',
        fileInfo: { contentType: 'application/octet-stream', hash: md5(file), fileSize: file.length, fileName: 'data.bin' },
        assetType: 'Other',
        lastUpdate: expect.any(String),
      });

      const shared = await api('POST', `/assets/${asset.id}/shared-access-keys`, { ...write, body: {} });
      expect(shared.status).toBe(201);
      expect(shared.body).toMatchObject({ sharedAccessKey: expect.stringMatching(/^sak_/), expiresAt: null, url: expect.stringContaining(`/shared-access/${service.workspaceId}/asset/${asset.id}`) });
      const got = await download(`${service.url}/shared-access/${service.workspaceId}/asset/${asset.id}?sharedAccessKey=${encodeURIComponent(shared.body.sharedAccessKey)}`);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('application/octet-stream');
      // A file the browser might run (anything but raster images, audio, video, PDF) is never shown inline.
      expect(got.headers.get('content-disposition')).toMatch(/^attachment; filename\*=UTF-8''data\.bin$/);
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      expect(got.headers.get('content-security-policy')).toContain('sandbox');
      expect(md5(Buffer.from(await got.arrayBuffer()))).toBe(md5(file));
    });

    it('assembles from the stored chunks when the service restarted in the middle of an upload', async () => {
      const file = randomBytes(200_000);
      const chunks = chunksOf(file, { chunkSize: 50_000, fileName: 'restarted.bin' });
      expect((await api('POST', '/assets/uploadAsset', { ...write, body: chunks[0] })).status).toBe(202);
      expect((await api('POST', '/assets/uploadAsset', { ...write, body: chunks[1] })).status).toBe(200);
      service = await service.restart();
      api = client(service.url);
      for (const chunk of chunks.slice(2)) expect((await api('POST', '/assets/uploadAsset', { ...write, body: chunk })).status).toBe(200);
      const asset = (await api('GET', `/assets/${chunks[0]!.assetId}`, read)).body;
      expect(asset.fileInfo).toMatchObject({ hash: md5(file), fileSize: file.length });
      const key = (await api('POST', `/assets/${asset.id}/shared-access-keys`, { ...write, body: {} })).body.sharedAccessKey;
      const got = await download(`${service.url}/shared-access/${service.workspaceId}/asset/${asset.id}?sharedAccessKey=${encodeURIComponent(key)}`);
      expect(md5(Buffer.from(await got.arrayBuffer()))).toBe(md5(file));
    });

    it('answers 202 with the whole asset for a one-chunk upload; finds it by hash; detects a duplicate unless told not to', async () => {
      const file = Buffer.from(`hello ${randomUUID()}\n`);
      const first = await upload(file, { fileName: 'hello.txt', extra: { title: 'Hello' } });
      expect(first.status).toBe(202);
      expect(first.body).toMatchObject({ title: 'Hello', assetType: 'Document', fileInfo: { contentType: 'text/plain', hash: md5(file), fileSize: file.length, fileName: 'hello.txt' } });

      const byHash = await api('POST', '/assets/getByHash', { ...read, body: { hash: md5(file), size: file.length } });
      expect(byHash.body).toEqual({ id: first.body.id, title: 'Hello', fileInfo: first.body.fileInfo });
      expect((await api('POST', '/assets/getByHash', { ...read, body: { hash: md5(Buffer.from('none')), size: 4 } })).status).toBe(404);
      expect((await api('POST', '/assets/getByHash', { ...read, body: { hash: 'xyz', size: 4 } })).status).toBe(400);

      const again = await upload(file, { fileName: 'copy.txt' });
      expect(again.body.id).toBe(first.body.id);
      const twoChunks = chunksOf(file, { fileName: 'copy.txt', chunkSize: 5 });
      let answer;
      for (const chunk of twoChunks) answer = await api('POST', '/assets/uploadAsset', { ...write, body: chunk });
      expect(answer!.body).toBe(first.body.id);
      // Sent again, the last chunk hears the same answer.
      expect((await api('POST', '/assets/uploadAsset', { ...write, body: twoChunks[twoChunks.length - 1] })).body).toBe(first.body.id);
      const forced = await upload(file, { fileName: 'copy.txt', extra: { ignoreCheckDuplicates: true } });
      expect(forced.body.id).not.toBe(first.body.id);
      expect((await api('GET', `/assets/${forced.body.id}`, read)).status).toBe(200);
    });

    it('refuses bad chunks with a 400 naming the field, and shows nothing of a failed upload', async () => {
      const file = randomBytes(1000);
      const [chunk] = chunksOf(file);
      const refused = async (body: Record<string, unknown>, field: string) => {
        const answer = await api('POST', '/assets/uploadAsset', { ...write, body });
        expect(answer.status).toBe(400);
        expect(answer.body.errors.map((error: { field: string }) => error.field)).toContain(field);
      };
      await refused({ ...chunk, chunkSize: 999 }, 'chunkSize');
      await refused({ ...chunk, chunkByteOffset: 10 }, 'chunkByteOffset');
      await refused({ ...chunk, chunkIndex: 1 }, 'chunkIndex');
      await refused({ ...chunk, totalChunkCount: 10_001 }, 'totalChunkCount');
      await refused({ ...chunk, stream: 'not base64!' }, 'stream');
      await refused({ ...chunk, assetId: 'nope' }, 'assetId');
      await refused({ ...chunk, originalFileName: '../etc/passwd' }, 'originalFileName');
      const { totalFileSize: _omitted, ...missing } = chunk!;
      await refused(missing, 'totalFileSize');

      const wrongMd5 = await upload(file, { extra: { contentMD5: md5(Buffer.from('other')) } });
      expect(wrongMd5.status).toBe(400);
      expect(wrongMd5.body.errors[0].field).toBe('contentMD5');
      const rightMd5 = await upload(file, { extra: { contentMD5: createHash('md5').update(file).digest('base64') } });
      expect(rightMd5.status).toBe(202);

      // Chunks that do not tile the file: 0..499 and 600..999 leave a gap.
      const gap = chunksOf(file, { chunkSize: 500 });
      const second = { ...gap[1]!, chunkByteOffset: 600, chunkSize: 400, stream: file.subarray(600).toString('base64') };
      expect((await api('POST', '/assets/uploadAsset', { ...write, body: gap[0] })).status).toBe(202);
      const failed = await api('POST', '/assets/uploadAsset', { ...write, body: second });
      expect(failed.status).toBe(400);
      expect((await api('GET', `/assets/${gap[0]!.assetId}`, read)).status).toBe(404);

      // A chunk sent again to an upload that failed hears why, not a success.
      const retried = await api('POST', '/assets/uploadAsset', { ...write, body: second });
      expect(retried.status).toBe(400);
      expect(retried.body.detail).toContain('this upload failed');

      // A refused chunk never replaces the bytes of the one accepted under its index.
      const original = randomBytes(1000);
      const pair = chunksOf(original, { chunkSize: 500 });
      expect((await api('POST', '/assets/uploadAsset', { ...write, body: pair[1] })).status).toBe(200);
      const impostor = { ...pair[1]!, chunkSize: 400, stream: randomBytes(400).toString('base64') };
      expect((await api('POST', '/assets/uploadAsset', { ...write, body: impostor })).status).toBe(409);
      expect((await api('POST', '/assets/uploadAsset', { ...write, body: pair[0] })).status).toBe(202);
      expect((await api('GET', `/assets/${pair[0]!.assetId}`, read)).body.fileInfo.hash).toBe(md5(original));

      expect((await api('POST', '/assets/uploadAsset', { ...read, body: chunk })).status).toBe(403);
      expect((await api('POST', '/assets/uploadAsset', { body: chunk })).status).toBe(401);
    });

    it('updates title and description, searches, and deletes the asset with its file', async () => {
      const tag = randomUUID().slice(0, 8);
      const doc = await upload(Buffer.from(`doc ${tag}`), { fileName: `report-${tag}.pdf`, extra: { title: `Report ${tag}` } });
      const image = await upload(await png(40, 20), { fileName: `photo-${tag}.png`, extra: { title: `Photo ${tag}` } });
      expect(image.body.assetType).toBe('Image');

      expect((await api('PUT', `/assets/${doc.body.id}`, { ...write, body: { title: `Annual ${tag}`, description: 'numbers' } })).body).toEqual({ success: true });
      expect((await api('GET', `/assets/${doc.body.id}`, read)).body).toMatchObject({ title: `Annual ${tag}`, description: 'numbers', assetType: 'Document' });
      expect((await api('PUT', `/assets/${randomUUID()}`, { ...write, body: { title: 'x' } })).status).toBe(404);

      const search = async (body: Record<string, unknown>) => (await api('POST', '/assets/search', { ...read, body })).body;
      expect((await search({ text: tag })).items.map((item: { id: string }) => item.id).sort()).toEqual([doc.body.id, image.body.id].sort());
      expect((await search({ text: tag.toUpperCase(), assetType: 'Image' })).items.map((item: { id: string }) => item.id)).toEqual([image.body.id]);
      expect(await search({ text: tag, pageSize: 1, page: 2 })).toMatchObject({ page: 2, pageSize: 1, total: 2, items: [expect.any(Object)] });
      expect((await api('POST', '/assets/search', { ...read, body: { pageSize: 101 } })).status).toBe(400);

      const key = (await api('POST', `/assets/${doc.body.id}/shared-access-keys`, { ...write, body: {} })).body.sharedAccessKey;
      // An unfinished second upload leaves chunks behind; deleting the asset removes them with its files.
      const [unfinished] = chunksOf(randomBytes(1000), { assetId: doc.body.id, chunkSize: 500 });
      expect((await api('POST', '/assets/uploadAsset', { ...write, body: unfinished })).status).toBe(202);
      expect((await api('DELETE', `/assets/${doc.body.id}`, write)).body).toEqual({ success: true });
      if (blobs === 'fs') {
        const stored = (area: string) => existsSync(join(service.environment.DATA_DIR!, 'blobs', area, service.workspaceId, doc.body.id));
        expect(['assets', 'uploads', 'renditions'].filter(stored)).toEqual([]);
      }
      expect((await api('GET', `/assets/${doc.body.id}`, read)).status).toBe(404);
      expect((await download(`${service.url}/shared-access/${service.workspaceId}/asset/${doc.body.id}?sharedAccessKey=${key}`)).status).toBe(404);
      expect((await api('DELETE', `/assets/${doc.body.id}`, write)).status).toBe(404);
    });

    it('serves byte ranges, and refuses a wrong, revoked or expired shared access key', async () => {
      const file = randomBytes(5000);
      const asset = (await upload(file, { fileName: 'range.bin' })).body;
      const issue = async (body: Record<string, unknown>) => (await api('POST', `/assets/${asset.id}/shared-access-keys`, { ...write, body })).body.sharedAccessKey as string;
      const key = await issue({});
      const url = (sharedAccessKey: string) => `${service.url}/shared-access/${service.workspaceId}/asset/${asset.id}?sharedAccessKey=${encodeURIComponent(sharedAccessKey)}`;

      const part = await download(url(key), { range: 'bytes=100-199' });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 100-199/${file.length}`);
      expect(Buffer.from(await part.arrayBuffer())).toEqual(file.subarray(100, 200));
      const tail = await download(url(key), { range: 'bytes=-10' });
      expect(Buffer.from(await tail.arrayBuffer())).toEqual(file.subarray(file.length - 10));
      expect((await download(url(key), { range: 'bytes=9000-9100' })).status).toBe(416);

      expect((await download(url(`${key.slice(0, -2)}xx`))).status).toBe(403);
      expect((await download(url('not-a-key'))).status).toBe(403);
      expect((await download(`${service.url}/shared-access/${service.workspaceId}/asset/${randomUUID()}?sharedAccessKey=${key}`)).status).toBe(404);
      expect((await download(`${service.url}/shared-access/${service.workspaceId}/asset/${asset.id}`)).status).toBe(400);

      expect((await api('DELETE', `/assets/${asset.id}/shared-access-keys/${encodeURIComponent(key)}`, write)).status).toBe(200);
      expect((await download(url(key))).status).toBe(403);
      const shortLived = await issue({ expiresInSeconds: 1 });
      expect((await download(url(shortLived))).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect((await download(url(shortLived))).status).toBe(403);
    });

    it('resizes images keeping the aspect ratio, negotiates the format, caches renditions, and refuses what is not an image', async () => {
      const original = await png(400, 200);
      const asset = (await upload(original, { fileName: 'banner.png' })).body;
      const image = async (query: string, headers: Record<string, string> = {}) => {
        const answer = await fetch(`${service.url}/images/${asset.id}${query}`, { headers: { 'x-api-key': service.readKey, ...headers } });
        return { status: answer.status, headers: answer.headers, bytes: Buffer.from(await answer.arrayBuffer()) };
      };
      const size = async (bytes: Buffer) => {
        const { width, height, format } = await sharp(bytes).metadata();
        return { width, height, format };
      };

      const byWidth = await image('?width=100');
      expect(byWidth.status).toBe(200);
      expect(byWidth.headers.get('content-type')).toBe('image/png');
      expect(await size(byWidth.bytes)).toEqual({ width: 100, height: 50, format: 'png' });
      expect(await size((await image('?height=50')).bytes)).toMatchObject({ width: 100, height: 50 });
      expect(await size((await image('?width=100&height=100')).bytes)).toMatchObject({ width: 100, height: 50 });
      expect(await size((await image('?width=800')).bytes)).toMatchObject({ width: 400, height: 200 });

      // No parameter keeps the original: its bytes as stored, even with an Accept that would convert a rendition.
      const plain = await image('', { accept: 'image/webp,*/*' });
      expect(plain.status).toBe(200);
      expect(plain.headers.get('content-type')).toBe('image/png');
      expect(plain.bytes).toEqual(original);
      expect((await image('', { 'if-none-match': plain.headers.get('etag')! })).status).toBe(304);

      const webp = await image('?width=100', { accept: 'image/webp,*/*' });
      expect(webp.headers.get('content-type')).toBe('image/webp');
      expect((await size(webp.bytes)).format).toBe('webp');
      const jpeg = await image('?width=100&format=jpeg&quality=50', { accept: 'image/webp,*/*' });
      expect(jpeg.headers.get('content-type')).toBe('image/jpeg');

      const etag = byWidth.headers.get('etag')!;
      expect(etag).toBeTruthy();
      expect(byWidth.headers.get('cache-control')).toContain('max-age');
      expect((await image('?width=100', { 'if-none-match': etag })).status).toBe(304);
      expect((await image('?width=100', { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
      expect((await image('?width=100')).bytes).toEqual(byWidth.bytes);

      for (const bad of ['quality=0', 'quality=101', 'width=0', 'width=abc', 'format=gif']) expect((await image(`?${bad}`)).status).toBe(400);
      for (const [query, field, message] of [['width=0', 'width', 'must be an integer from 1 to 8000'], ['height=8001', 'height', 'must be an integer from 1 to 8000'], ['width=1.5', 'width', 'must be an integer from 1 to 8000'], ['quality=0', 'quality', 'must be an integer from 1 to 100']]) {
        const refused = await api('GET', `/images/${asset.id}?${query}`, read);
        expect(refused.body.errors).toEqual([{ field, message }]);
      }
      const bypath = await fetch(`${service.url}/images/bypath/${asset.id}/banner.png?width=40`, { headers: { 'x-api-key': service.readKey } });
      expect(bypath.status).toBe(200);
      expect((await sharp(Buffer.from(await bypath.arrayBuffer())).metadata()).width).toBe(40);
      expect((await fetch(`${service.url}/images/bypath/${asset.id}/other.png`, { headers: { 'x-api-key': service.readKey } })).status).toBe(404);
      expect((await fetch(`${service.url}/images/bypath/..%2F..%2Fetc/passwd`, { headers: { 'x-api-key': service.readKey } })).status).toBe(404);

      const broken = (await upload(Buffer.from(`junk ${randomUUID()}`), { fileName: 'broken.png' })).body;
      expect(broken.assetType).toBe('Image');
      expect((await fetch(`${service.url}/images/${broken.id}?width=10`, { headers: { 'x-api-key': service.readKey } })).status).toBe(404);
      // A decompression bomb: small as a file, 100 million pixels and more once decoded.
      const bomb = await sharp({ create: { width: 10_001, height: 10_001, channels: 3, background: '#000' } }).toColourspace('b-w').png().toBuffer();
      const bombAsset = (await upload(bomb, { fileName: 'bomb.png' })).body;
      const refused = await fetch(`${service.url}/images/${bombAsset.id}?width=10`, { headers: { 'x-api-key': service.readKey } });
      expect(refused.status).toBe(400);
      // A refusal is not the rendition: nothing in it may be cached as if it were.
      expect([refused.headers.get('etag'), refused.headers.get('cache-control')]).toEqual([null, null]);
      // Under the decoder's limit but over the rendition's: refused from the header, naming the side asked.
      const tooLarge = await api('GET', `/images/${asset.id}?width=8000&enlarge=true&format=avif`, read);
      expect(tooLarge.status).toBe(400);
      expect(tooLarge.body.errors).toEqual([{ field: 'width', message: 'gives more than 16777216 pixels' }]);
      const text = (await upload(Buffer.from(`not an image ${randomUUID()}`), { fileName: 'notes.txt' })).body;
      expect((await fetch(`${service.url}/images/${text.id}`, { headers: { 'x-api-key': service.readKey } })).status).toBe(404);
      expect((await fetch(`${service.url}/images/${randomUUID()}`, { headers: { 'x-api-key': service.readKey } })).status).toBe(404);
      expect((await fetch(`${service.url}/images/${asset.id}`)).status).toBe(401);
    });

    it('keeps at most 100 renditions of an asset version, dropping them to make room, and serves every one', async () => {
      const asset = (await upload(await png(300, 150), { fileName: 'many.png' })).body;
      const widths = Array.from({ length: 130 }, (_, index) => index + 1);
      for (const width of widths) {
        const answer = await fetch(`${service.url}/images/${asset.id}?width=${width}`, { headers: { 'x-api-key': service.readKey } });
        expect(answer.status).toBe(200);
        expect((await sharp(Buffer.from(await answer.arrayBuffer())).metadata()).width).toBe(width);
      }
      if (blobs === 'fs') {
        const kept = readdirSync(join(service.environment.DATA_DIR!, 'blobs', 'renditions', service.workspaceId, asset.id, 'v1'));
        // 100 were kept, then dropped for the 101st: the last 30 are left.
        expect(kept).toHaveLength(30);
      }
    });

    if (blobs === 'fs') {
      /** The signed URL's path and query, sent to this service (PUBLIC_BASE_URL names another port in tests). */
      const local = (url: string) => `${service.url}${new URL(url).pathname}${new URL(url).search}`;
      const sign = async (assetId: string, body: Record<string, unknown>, key = read.key) => api('POST', `/images/${assetId}/signed-urls`, { key, body });
      const anonymous = async (url: string, headers: Record<string, string> = {}) => {
        const answer = await fetch(url, { headers });
        return { status: answer.status, headers: answer.headers, bytes: Buffer.from(await answer.arrayBuffer()) };
      };
      const detailOf = (answer: { bytes: Buffer }) => (JSON.parse(answer.bytes.toString()) as { detail: string }).detail;

      // Each test uploads images of sizes of its own: an equal file would be found a duplicate of another test's asset.
      it('serves a signed rendition URL with no key, cacheable by any cache until it expires, and refuses it changed, expired or of a replaced file', async () => {
        const asset = (await upload(await png(480, 240), { fileName: 'signed.png' })).body;
        const issued = await sign(asset.id, { width: 320, format: 'webp', expiresInSeconds: 7200 });
        expect(issued.status).toBe(200);
        expect(issued.body).toEqual({ url: expect.stringContaining(`/images/signed/${service.workspaceId}/${asset.id}/1?format=webp&width=320&expires=`), expiresAt: expect.any(String), assetVersion: 1 });
        const expires = Date.parse(issued.body.expiresAt) / 1000;
        // Rounded up to the hour, so the same request within the hour gives the same URL (and cache entry).
        expect(expires % 3600).toBe(0);
        expect(expires - clock.now().getTime() / 1000).toBeGreaterThanOrEqual(7200);
        expect((await sign(asset.id, { format: 'webp', width: 320, expiresInSeconds: 7200 })).body.url).toBe(issued.body.url);
        const url = local(issued.body.url);

        const image = await anonymous(url, { accept: 'image/avif,*/*' });
        expect(image.status).toBe(200);
        expect(image.headers.get('content-type')).toBe('image/webp');
        expect(await sharp(image.bytes).metadata()).toMatchObject({ width: 320, height: 160, format: 'webp' });
        const maxAge = Number(/^public, max-age=(\d+), immutable$/.exec(image.headers.get('cache-control') ?? '')?.[1]);
        expect(Math.abs(maxAge - (expires - clock.now().getTime() / 1000))).toBeLessThan(5);
        // The format is in the URL, never chosen by Accept: a shared cache may keep one answer for everyone.
        expect(image.headers.get('vary') ?? '').not.toContain('Accept');
        const etag = image.headers.get('etag')!;
        const unchanged = await anonymous(url, { 'if-none-match': etag });
        expect(unchanged.status).toBe(304);
        expect(unchanged.headers.get('cache-control')).toMatch(/^public, max-age=\d+, immutable$/);
        // Without a format, the original's, whatever the browser accepts.
        const plain = await anonymous(local((await sign(asset.id, { width: 100 })).body.url), { accept: 'image/avif,image/webp,*/*' });
        expect([plain.status, plain.headers.get('content-type')]).toEqual([200, 'image/png']);

        const refusedAs = async (changed: string, status: number, detail: string) => {
          const refused = await anonymous(changed);
          expect([refused.status, refused.headers.get('content-type'), refused.headers.get('cache-control'), refused.headers.get('etag')]).toEqual([status, expect.stringContaining('application/problem+json'), 'no-store', null]);
          expect(detailOf(refused)).toContain(detail);
        };
        const mismatch = 'the signature does not match this image URL';
        await refusedAs(url.replace('width=320', 'width=640'), 403, mismatch);
        await refusedAs(url.replace('format=webp', 'format=png'), 403, mismatch);
        await refusedAs(url.replace(`expires=${expires}`, `expires=${expires + 3600}`), 403, mismatch);
        await refusedAs(`${url.slice(0, -1)}${url.endsWith('A') ? 'B' : 'A'}`, 403, mismatch);
        await refusedAs(url.replace(`/${asset.id}/`, `/${randomUUID()}/`), 403, mismatch);
        await refusedAs(url.replace(`/${service.workspaceId}/`, `/${randomUUID()}/`), 403, mismatch);
        await refusedAs(`${url}&height=10`, 403, mismatch);
        await refusedAs(`${url}&utm=1`, 400, 'names parameters a signed image URL does not take: utm');
        await refusedAs(url.replace(/&signature=[^&]+/, ''), 400, 'signature');

        // A new upload of the asset is a new version: the old URL names a file that is gone, a new one is signed for it.
        const reuploaded = await upload(await png(240, 120), { assetId: asset.id, fileName: 'signed.png' });
        expect(reuploaded.status).toBe(202);
        await refusedAs(url, 410, 'has been replaced by version 2');
        const second = await sign(asset.id, { width: 320, format: 'webp', expiresInSeconds: 7200 });
        expect(second.body.assetVersion).toBe(2);
        expect((await sharp((await anonymous(local(second.body.url))).bytes).metadata()).width).toBe(240);

        // Every transform bound holds as for the keyed endpoint: the rendition cap is checked when the URL is served.
        const capped = await anonymous(local((await sign(asset.id, { width: 8000, enlarge: true, format: 'avif' })).body.url));
        expect(capped.status).toBe(400);
        expect(detailOf(capped)).toContain('more than the 16777216 a rendition may have');

        clock.advance(3 * 3600 * 1000);
        await refusedAs(local(second.body.url), 403, `this image URL expired at ${new Date(expires * 1000).toISOString()}`);
      });

      it('refuses signing what is not there or out of bounds, rotates the signing key with a grace period, and keeps URLs across a restart', async () => {
        const asset = (await upload(await png(66, 66), { fileName: 'rotated.png' })).body;
        const text = (await upload(Buffer.from(`not an image ${randomUUID()}`), { fileName: 'notes.txt' })).body;
        expect((await sign(text.id, {})).status).toBe(404);
        expect((await sign(randomUUID(), {})).status).toBe(404);
        const refused = await sign(asset.id, { width: 0, format: 'gif', expiresInSeconds: 366 * 86_400, crop: true });
        expect(refused.status).toBe(400);
        expect(refused.body.errors).toHaveLength(4);
        expect(refused.body.errors).toEqual(
          expect.arrayContaining([
            { field: 'crop', message: 'holds members a signed URL request does not take: crop' },
            { field: 'width', message: 'must be an integer from 1 to 8000' },
            { field: 'format', message: 'must be one of jpeg, png, webp, avif' },
            { field: 'expiresInSeconds', message: 'must be an integer from 60 to 31536000' },
          ]),
        );
        expect((await api('POST', `/images/${asset.id}/signed-urls`, { body: {} })).status).toBe(401);

        const first = local((await sign(asset.id, { width: 32 })).body.url);
        expect((await anonymous(first)).status).toBe(200);
        // Rotating changes what every URL may be signed with: a write key's decision.
        expect((await api('POST', '/images/signing-key/rotate', { ...read, body: {} })).status).toBe(403);
        const rotated = await api('POST', '/images/signing-key/rotate', { ...write, body: { previousKeyGraceSeconds: 600 } });
        expect(rotated.status).toBe(200);
        expect(rotated.body.generation).toBe(2);
        expect(Date.parse(rotated.body.previousKeyValidUntil) - clock.now().getTime()).toBeGreaterThan(595_000);
        const second = local((await sign(asset.id, { width: 32 })).body.url);
        expect(second).not.toBe(first);
        // Within the grace period both keys are accepted; the URLs outlive a restart (the keys are derived, not held in memory).
        service = await service.restart();
        api = client(service.url);
        const restarted = (url: string) => url.replace(/^http:\/\/[^/]+/, service.url);
        expect((await anonymous(restarted(first))).status).toBe(200);
        expect((await anonymous(restarted(second))).status).toBe(200);
        clock.advance(601 * 1000);
        const expired = await anonymous(restarted(first));
        expect(expired.status).toBe(403);
        expect(detailOf(expired)).toContain('signed with a key rotated out since');
        expect((await anonymous(restarted(second))).status).toBe(200);

        // No grace: a leaked key stops at once.
        expect((await api('POST', '/images/signing-key/rotate', { ...write, body: { previousKeyGraceSeconds: 0 } })).body.generation).toBe(3);
        expect((await anonymous(restarted(second))).status).toBe(403);
        const badRotation = await api('POST', '/images/signing-key/rotate', { ...write, body: { previousKeyGraceSeconds: -1, keep: true } });
        expect(badRotation.body.errors).toEqual(
          expect.arrayContaining([
            { field: 'keep', message: 'holds members a rotation does not take: keep' },
            { field: 'previousKeyGraceSeconds', message: 'must be an integer from 0 to 2592000' },
          ]),
        );
      });

      it('serves renditions through a shared access link with the transform parameters, within every bound, as long as the key holds', async () => {
        const asset = (await upload(await png(420, 210), { fileName: 'shared.png' })).body;
        const key = (await api('POST', `/assets/${asset.id}/shared-access-keys`, { ...write, body: {} })).body.sharedAccessKey as string;
        const shared = (query: string) => `${service.url}/shared-access/${service.workspaceId}/asset/${asset.id}?sharedAccessKey=${encodeURIComponent(key)}${query}`;

        const resized = await anonymous(shared('&width=120'), { accept: 'image/webp,*/*' });
        expect([resized.status, resized.headers.get('content-type'), resized.headers.get('cache-control')]).toEqual([200, 'image/webp', 'private, no-cache']);
        expect(await sharp(resized.bytes).metadata()).toMatchObject({ width: 120, height: 60 });
        expect((await anonymous(shared('&width=120'), { accept: 'image/webp,*/*', 'if-none-match': resized.headers.get('etag')! })).status).toBe(304);
        expect((await sharp((await anonymous(shared('&height=50&format=jpeg&quality=40'))).bytes).metadata())).toMatchObject({ width: 100, format: 'jpeg' });
        // Without a parameter the link still downloads the file itself.
        const file = await anonymous(shared(''));
        expect([file.status, file.headers.get('content-disposition')]).toEqual([200, "inline; filename*=UTF-8''shared.png"]);

        const refusedWidth = await api('GET', `/shared-access/${service.workspaceId}/asset/${asset.id}?sharedAccessKey=${encodeURIComponent(key)}&width=9000`);
        expect(refusedWidth.body.errors).toEqual([{ field: 'width', message: 'must be an integer from 1 to 8000' }]);
        const capped = await api('GET', `/shared-access/${service.workspaceId}/asset/${asset.id}?sharedAccessKey=${encodeURIComponent(key)}&width=8000&enlarge=true&format=avif`);
        expect([capped.status, capped.body.errors]).toEqual([400, [{ field: 'width', message: 'gives more than 16777216 pixels' }]]);
        const text = (await upload(Buffer.from(`plain text ${randomUUID()}`), { fileName: 'plain.txt' })).body;
        const textKey = (await api('POST', `/assets/${text.id}/shared-access-keys`, { ...write, body: {} })).body.sharedAccessKey as string;
        expect((await anonymous(`${service.url}/shared-access/${service.workspaceId}/asset/${text.id}?sharedAccessKey=${encodeURIComponent(textKey)}&width=10`)).status).toBe(404);

        expect((await api('DELETE', `/assets/${asset.id}/shared-access-keys/${encodeURIComponent(key)}`, write)).status).toBe(200);
        expect((await anonymous(shared('&width=120'))).status).toBe(403);
        expect((await anonymous(shared('&width=120'), { 'if-none-match': resized.headers.get('etag')! })).status).toBe(403);
      });

      it('answers 404 saying the file is missing from storage when an asset\'s file is gone, for downloads and renditions', async () => {
        const asset = (await upload(await png(64, 64), { fileName: 'gone.png' })).body;
        const key = (await api('POST', `/assets/${asset.id}/shared-access-keys`, { ...write, body: {} })).body.sharedAccessKey;
        const folder = join(service.environment.DATA_DIR!, 'blobs', 'assets', service.workspaceId, asset.id);
        await rm(folder, { recursive: true });

        const detail = `the file of asset ${asset.id} is missing from storage`;
        const downloaded = await download(`${service.url}/shared-access/${service.workspaceId}/asset/${asset.id}?sharedAccessKey=${encodeURIComponent(key)}`);
        expect(downloaded.status).toBe(404);
        expect(downloaded.headers.get('content-type')).toContain('application/problem+json');
        expect(downloaded.headers.get('content-disposition')).toBeNull();
        expect(((await downloaded.json()) as { detail: string }).detail).toBe(detail);
        const ranged = await download(`${service.url}/shared-access/${service.workspaceId}/asset/${asset.id}?sharedAccessKey=${encodeURIComponent(key)}`, { range: 'bytes=0-9' });
        expect(ranged.status).toBe(404);
        const rendition = await api('GET', `/images/${asset.id}?width=32`, read);
        expect(rendition.status).toBe(404);
        expect(rendition.body.detail).toBe(detail);
        expect(rendition.headers.get('etag')).toBeNull();
        // The asset itself is still there: its metadata lives in the read model, not in the blob store.
        expect((await api('GET', `/assets/${asset.id}`, read)).status).toBe(200);
      });
    }
  });
}
