import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { type RunningService, startService } from '../../src/server';
import { client } from '../support/http';
import { ADMIN_TOKEN } from '../support/service';
import { eventually } from '../support/waiting';
import { describeSecretAttacks } from './attacks-secrets.suite';
import { copyPgliteTemplate } from '../support/pglite-template';

describeSecretAttacks('pglite');

/** Issue 14, finding 9a: a shared-access key in the path of its revoke call reached the request log. */
describe('secrets carried in a path stay out of the request log (pglite)', () => {
  let dataDir: string;
  let service: RunningService;
  let logText = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cms-attacks-log-'));
    await copyPgliteTemplate(join(dataDir, 'pglite'));
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logText += String(chunk);
        done();
      },
    });
    service = await startService(loadConfig({ PORT: '0', DATA_DIR: dataDir, ADMIN_TOKEN }), createLogger('info', sink));
  }, 120_000);

  afterAll(async () => {
    await service?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('redacts a shared-access key (revoked, or sent with a method its path does not take) and an action callback id', async () => {
    const api = client(service.url);
    const write = { key: service.bootstrap!.writeKey };
    const assetId = randomUUID();
    const file = Buffer.from('shared file');
    const uploaded = await api('POST', '/assets/uploadAsset', {
      ...write,
      body: { assetId, fileUploadId: randomUUID(), originalFileName: 'a.txt', chunkIndex: 0, chunkSize: file.length, totalChunkCount: 1, chunkByteOffset: 0, totalFileSize: file.length, stream: file.toString('base64') },
    });
    expect(uploaded.status).toBe(202);
    const shared = await api('POST', `/assets/${assetId}/shared-access-keys`, { ...write, body: {} });
    expect(shared.status).toBe(201);
    const sharedKey: string = shared.body.sharedAccessKey;
    const operationId = randomUUID();

    expect((await api('GET', `/assets/${assetId}/shared-access-keys/${sharedKey}`, write)).status).toBe(405);
    expect((await api('POST', `/actions/callback/${service.bootstrap!.workspaceId}/${operationId}`, { body: {} })).status).toBeGreaterThanOrEqual(400);
    expect((await api('DELETE', `/assets/${assetId}/shared-access-keys/${sharedKey}`, write)).status).toBe(200);

    const lines = () => logText.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { path?: string; method?: string });
    const revoke = await eventually(() => lines().find((line) => line.method === 'DELETE' && line.path?.startsWith(`/assets/${assetId}/shared-access-keys/`)));
    expect(revoke.path).toBe(`/assets/${assetId}/shared-access-keys/[redacted]`);
    expect(lines().some((line) => line.path === `/actions/callback/${service.bootstrap!.workspaceId}/[redacted]`)).toBe(true);
    expect(logText).not.toContain(sharedKey);
    // The secret is the 43 characters after `sak_<id>_`; base64url may itself hold underscores.
    expect(logText).not.toContain(sharedKey.slice(-43));
    expect(logText).not.toContain(operationId);
  });
});
