import http from 'node:http';
import sharp from 'sharp';
import { randomUUID } from 'node:crypto';
import { client } from '../support/http';
import { type RawAnswer, sendRaw } from '../support/raw-http';
import { startHttpReceiver, type Receiver } from '../support/receivers';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/service';
import { type GeneratedRequest, malformedRequests } from './malformed/generator';
import type { Fixtures } from './malformed/routes';

const REQUESTS = 10_000;
const SEED = 20_261_123;
const CONCURRENCY = 8;

const productType = {
  name: 'Product',
  key: 'Product',
  fields: [
    { key: 'title', type: 'Text', required: true, sortIndex: 0 },
    { key: 'price', type: 'Number', sortIndex: 1 },
    { key: 'inStock', type: 'Boolean', sortIndex: 2 },
    { key: 'released', type: 'DateTime', sortIndex: 3 },
    { key: 'tags', type: 'Json', sortIndex: 4 },
    { key: 'maker', type: 'Relation', sortIndex: 5 },
    { key: 'serial', type: 'Encrypted', sortIndex: 6 },
  ],
};

interface Outcome {
  readonly request: GeneratedRequest;
  readonly answer: RawAnswer;
}

/** Why an answer is a finding, or null when it is one the request may get. */
function finding({ request, answer }: Outcome): string | null {
  if (answer.status === 0) return `no answer (${answer.error})`;
  if (answer.status >= 500) return `server error ${answer.status}`;
  if (request.expectStatus !== undefined && answer.status !== request.expectStatus) return `expected ${request.expectStatus}, got ${answer.status}`;
  if (answer.status >= 400) return null;
  if (answer.status >= 200 && answer.status < 300 && request.mayBeValid) return null;
  return `unexpected ${answer.status}`;
}

describe('10,000 generated malformed requests (pglite)', () => {
  let service: TestService;
  let receiver: Receiver;
  let fixtures: Fixtures;

  beforeAll(async () => {
    receiver = await startHttpReceiver();
    service = await startTestService('pglite', { RATE_LIMIT_PER_SECOND: '0', ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_ALLOW_HTTP: 'true' });
    const api = client(service.url);
    const write = { key: service.writeKey };
    expect((await api('PUT', '/content-types', { ...write, body: productType })).status).toBe(200);
    const item = await api('PUT', '/v2/contents/Product', { ...write, body: { fields: { title: 'seed', price: 5, inStock: true, tags: { a: 1 } } } });
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 1, g: 2, b: 3 } } }).png().toBuffer();
    const asset = await api('POST', '/assets/uploadAsset', {
      ...write,
      body: {
        assetId: randomUUID(),
        fileUploadId: randomUUID(),
        originalFileName: 'seed.png',
        chunkIndex: 0,
        chunkSize: png.length,
        totalChunkCount: 1,
        chunkByteOffset: 0,
        totalFileSize: png.length,
        stream: png.toString('base64'),
      },
    });
    const webhook = await api('PUT', '/webhooks', { ...write, body: { endpoint: `${receiver.url}/seed`, eventTypes: { Product: [3] } } });
    const job = await api('POST', '/scheduled-jobs', { ...write, body: { delaySeconds: 3600, callbackUrl: `${receiver.url}/seed-job` } });
    const release = await api('POST', '/v2/releases', { ...write, body: { name: 'seed' } });
    for (const answer of [item, asset, webhook, job, release]) expect(answer.status).toBeLessThan(300);
    fixtures = {
      workspaceId: service.workspaceId,
      readKey: service.readKey,
      writeKey: service.writeKey,
      adminToken: ADMIN_TOKEN,
      contentType: 'Product',
      itemId: item.body.id,
      assetId: asset.body.id,
      assetFileName: 'seed.png',
      webhookId: webhook.body.id,
      jobId: job.body.id,
      releaseId: release.body.id,
      receiverUrl: receiver.url,
    };
  });

  afterAll(async () => {
    await service?.close();
    await receiver?.close();
  });

  it('answers every one with a 4xx (or a 2xx where the input happens to be valid), never a 5xx', async () => {
    const requests = malformedRequests(fixtures, REQUESTS, SEED);
    const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });
    const outcomes: Outcome[] = [];
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const request = requests[next++]!;
        outcomes.push({ request, answer: await sendRaw(service.url, request, agent) });
      }
    };
    const startedAt = Date.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    agent.destroy();
    const seconds = (Date.now() - startedAt) / 1000;

    const findings = outcomes
      .map((outcome) => ({ outcome, why: finding(outcome) }))
      .filter((entry) => entry.why !== null)
      .map(({ outcome: { request, answer }, why }) => `${why}: [${request.category}] ${request.method} ${request.path.slice(0, 160)} ${String(request.body ?? '').slice(0, 160)} -> ${answer.body.slice(0, 300)}`);
    const byClass = (low: number) => outcomes.filter(({ answer }) => answer.status >= low && answer.status < low + 100).length;
    const categories = [...new Set(requests.map((request) => request.category))].sort();
    const perCategory = categories.map((category) => {
      const mine = outcomes.filter(({ request }) => request.category === category);
      return `${category} ${mine.length} (2xx ${mine.filter(({ answer }) => answer.status < 300).length})`;
    });
    console.log(
      [
        `FAULTS malformed: sent ${outcomes.length} in ${seconds.toFixed(1)} s, 2xx ${byClass(200)}, 4xx ${byClass(400)}, 5xx ${byClass(500)},`,
        `no answer ${outcomes.filter(({ answer }) => answer.status === 0).length}; ${perCategory.join(', ')}`,
      ].join('\n'),
    );

    expect(outcomes).toHaveLength(REQUESTS);
    expect(findings).toEqual([]);
    // The service is still healthy afterwards.
    expect((await client(service.url)('GET', '/health/ready')).status).toBe(200);
  }, 150_000);
});
