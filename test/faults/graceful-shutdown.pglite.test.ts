import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BuiltService, startBuiltService } from '../support/built-service';
import { call } from '../support/http';
import { startSlowRequest } from '../support/raw-http';
import { ADMIN_TOKEN } from '../support/service';
import { delay } from '../support/waiting';

const SHUTDOWN_LIMIT_MS = 10_000;
const noteType = { name: 'Note', key: 'Note', fields: [{ key: 'text', type: 'Text', required: true }] };

describe('SIGTERM to the built service while requests are in flight (pglite)', () => {
  let dataDir: string;
  let service: BuiltService | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cms-sigterm-'));
  });

  afterAll(async () => {
    if (service && service.process.exitCode === null && service.process.signalCode === null) {
      service.process.kill('SIGKILL');
      await service.exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('finishes the requests in flight, refuses new connections and exits 0 within 10 s', async () => {
    const environment = { DATA_DIR: dataDir, ADMIN_TOKEN };
    service = await startBuiltService(environment, { firstStart: true });
    const { writeKey, readKey } = service.firstStart!;
    expect((await call(service.url, 'PUT', '/content-types', { key: writeKey, body: noteType })).status).toBe(200);

    // Kept-alive connections, as a load balancer holds them.
    const agent = new http.Agent({ keepAlive: true });
    const file = randomBytes(256 * 1024);
    const assetId = randomUUID();
    const chunk = {
      assetId,
      fileUploadId: randomUUID(),
      originalFileName: 'in-flight.bin',
      chunkIndex: 0,
      chunkSize: file.length,
      totalChunkCount: 1,
      chunkByteOffset: 0,
      totalFileSize: file.length,
      stream: file.toString('base64'),
    };
    const json = { 'content-type': 'application/json' };
    const upload = startSlowRequest(service.url, { method: 'POST', path: '/assets/uploadAsset', headers: { ...json, 'x-api-key': writeKey }, body: Buffer.from(JSON.stringify(chunk)) }, agent);
    const write = startSlowRequest(service.url, { method: 'PUT', path: '/v2/contents/Note', headers: { ...json, 'x-api-key': writeKey }, body: Buffer.from(JSON.stringify({ fields: { text: 'in flight at SIGTERM' } })) }, agent);
    await Promise.all([upload.started, write.started]);
    await delay(200);

    const signalledAt = Date.now();
    service.process.kill('SIGTERM');
    await delay(300);
    const refused = await fetch(`${service.url}/health/live`).then(
      (response) => `answered ${response.status}`,
      (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.message,
    );
    upload.finish();
    write.finish();
    const [uploaded, written] = await Promise.all([upload.answer, write.answer]);
    const exit = await service.exited;
    const exitedAfterMs = Date.now() - signalledAt;
    agent.destroy();

    expect(refused).toBe('ECONNREFUSED');
    expect(uploaded.status).toBe(202);
    expect(JSON.parse(uploaded.body).fileInfo.hash).toBe(createHash('md5').update(file).digest('hex'));
    expect(written.status).toBe(200);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(exitedAfterMs).toBeLessThan(SHUTDOWN_LIMIT_MS);

    // Both were kept: a start on the same data serves them.
    service = await startBuiltService(environment);
    expect((await call(service.url, 'GET', `/assets/${assetId}`, { key: readKey })).body.fileInfo.fileSize).toBe(file.length);
    expect((await call(service.url, 'GET', `/v2/contents/Note/${JSON.parse(written.body).id}`, { key: readKey })).body.fields).toEqual({ text: 'in flight at SIGTERM' });
    service.process.kill('SIGTERM');
    expect((await service.exited).code).toBe(0);
    console.log(`FAULTS graceful-shutdown: exit 0 after ${exitedAfterMs} ms with two requests in flight at SIGTERM (both completed)`);
  }, 60_000);
});
