import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_CHUNK_BYTES } from '../../src/http/routes/assets';
import { client } from '../support/http';
import { sendRaw } from '../support/raw-http';
import { type Engine, startTestService, type TestService } from '../support/service';
import { type Bystander, createBystander, type LatencySample, measureWhile } from '../support/tenant-latency';

const WINDOW_MS = 2000;

/** One chunk of an upload as its JSON body, built before any measurement (stringifying megabytes blocks the test's own loop). */
function chunkBody(file: Buffer, fields: { assetId?: string; fileUploadId?: string } = {}): { assetId: string; fileUploadId: string; bytes: Buffer } {
  const assetId = fields.assetId ?? randomUUID();
  const fileUploadId = fields.fileUploadId ?? randomUUID();
  const text = JSON.stringify({
    assetId,
    fileUploadId,
    originalFileName: 'upload.bin',
    chunkIndex: 0,
    chunkSize: file.length,
    totalChunkCount: 1,
    chunkByteOffset: 0,
    totalFileSize: file.length,
    stream: file.toString('base64'),
  });
  return { assetId, fileUploadId, bytes: Buffer.from(text) };
}

/**
 * Uploads attacked from one workspace with its ordinary keys, while another workspace keeps
 * reading: the upload is served or refused, and the bystander is answered as before.
 */
export function describeUploadAttacks(engine: Engine): void {
  describe(`upload attacks from one workspace (${engine})`, () => {
    let service: TestService;
    let bystander: Bystander;
    let api: ReturnType<typeof client>;

    /** Sends a prepared chunk as bytes through node:http: fetch would copy 22 MB on the test's loop, which is the service's too. */
    const postChunk = async (key: string, body: Buffer) => {
      const answer = await sendRaw(service.url, { method: 'POST', path: '/assets/uploadAsset', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body });
      return { status: answer.status, body: JSON.parse(answer.body) as any };
    };
    const bystanderRead = () => ({ path: '/content-types', key: bystander.readKey });
    /**
     * The bystander's latency with nothing else running, measured in the same run as the attack
     * it is compared with and over as long a window: on a shared machine a single probe can be
     * held by a collection or another process, so p99 is read over a few hundred probes.
     */
    const baseline = async (): Promise<LatencySample> => (await measureWhile(service.url, bystanderRead(), () => sleep(WINDOW_MS), WINDOW_MS)).latency;
    /** Within twice the baseline, or 100 ms over it when the baseline is a few milliseconds. */
    const expectUnheld = (during: LatencySample, before: LatencySample) => {
      expect(during.statuses.filter((status) => status !== 200)).toEqual([]);
      expect(during.p99Ms).toBeLessThanOrEqual(Math.max(2 * before.p99Ms, before.p99Ms + 100));
    };

    beforeAll(async () => {
      service = await startTestService(engine);
      api = client(service.url);
      bystander = await createBystander(service.url);
    }, 120_000);

    afterAll(async () => {
      await service?.close();
    });

    it('stores a chunk of the largest size without holding the other workspace (it froze the service for minutes)', async () => {
      const file = randomBytes(MAX_CHUNK_BYTES);
      const chunk = chunkBody(file);
      const before = await baseline();
      const { attack: answer, latency } = await measureWhile(service.url, bystanderRead(), () => postChunk(service.writeKey, chunk.bytes), WINDOW_MS);
      expect(answer.status).toBe(202);
      expect(answer.body).toMatchObject({ id: chunk.assetId, fileInfo: { fileSize: MAX_CHUNK_BYTES } });
      expectUnheld(latency, before);
    }, 120_000);
  });
}
