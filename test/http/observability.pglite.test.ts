import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { type RunningService, startService } from '../../src/server';
import { client } from '../support/http';
import { startHttpReceiver, type Receiver } from '../support/receivers';
import { ADMIN_TOKEN } from '../support/service';
import { eventually } from '../support/waiting';
import { copyPgliteTemplate } from '../support/pglite-template';

/** A metric's value in the Prometheus text, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('observability and rate limiting', () => {
  let dataDir: string;
  let service: RunningService;
  let api: ReturnType<typeof client>;
  let receiver: Receiver;
  let logText = '';
  const logs = () => logText.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cms-observability-'));
    await copyPgliteTemplate(join(dataDir, 'pglite'));
    receiver = await startHttpReceiver();
    const sink = new Writable({
      write(chunk, _encoding, done) {
        logText += String(chunk);
        done();
      },
    });
    const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, ADMIN_TOKEN, ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_ALLOW_HTTP: 'true', RATE_LIMIT_PER_SECOND: '20' });
    const logger = createLogger('info', sink);
    service = await startService(config, logger);
    api = client(service.url);
  });

  afterAll(async () => {
    await service?.close();
    await receiver?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('logs one JSON line per request with its id, workspace and route pattern, and never the key or the query string', async () => {
    const key = service.bootstrap!.writeKey;
    const answer = await api('PUT', '/content-types', { key, body: { name: 'Article', key: 'Article', fields: [{ key: 'title', type: 'Text' }] } });
    expect(answer.status).toBe(200);
    const traced = await api('GET', '/content-types?sharedAccessKey=secret-in-query', { key: service.bootstrap!.readKey, headers: { 'x-request-id': 'trace-42' } });

    const line = await eventually(() => logs().find((entry) => entry.requestId === 'trace-42'));
    expect(line).toMatchObject({ msg: 'request', method: 'GET', route: '/content-types', path: '/content-types', status: 200, workspaceId: service.bootstrap!.workspaceId });
    // The server's own id of the request too: what the events it caused record beside the client's.
    expect(line.serverRequestId).toBe(traced.headers.get('x-server-request-id'));
    expect(logText).not.toContain(key);
    expect(logText).not.toContain(service.bootstrap!.readKey);
    expect(logText).not.toContain('secret-in-query');
  });

  it('exposes Prometheus metrics: request latency by route, append latency, projection lag, queue depths and outcomes', async () => {
    const key = service.bootstrap!.writeKey;
    const job = await api('POST', '/scheduled-jobs', { key, body: { callbackUrl: `${receiver.url}/job` } });
    expect(job.status).toBe(200);
    const webhook = await api('PUT', '/webhooks', { key, body: { endpoint: `${receiver.url}/hook`, eventTypes: { Article: [0] } } });
    expect(webhook.status).toBe(200);
    const draft = await api('PUT', '/v2/preview-contents/Article', { key, body: { fields: { title: 'Measured' } } });
    expect((await api('PUT', `/v2/preview-contents/Article/${draft.body.id}/publish`, { key })).status).toBe(200);
    await receiver.waitFor(2);

    const text = await eventually(async () => {
      const answer = await api('GET', '/metrics');
      const body = typeof answer.body === 'string' ? answer.body : '';
      // The attempts' outcomes are appended by the process managers, which do not wait for the read models: lag reaches 0 once those are projected.
      const settled = body.includes('scheduler_job_attempts_total{outcome="done"} 1') && body.includes('webhook_delivery_attempts_total{outcome="sent"} 1');
      return settled && body.includes('projection_lag_events{projection="content_types"} 0') && body;
    });
    expect(sample(text, 'http_request_duration_seconds_count{method="PUT",route="/content-types",status="200"}')).toBe(1);
    expect(sample(text, 'eventstore_append_duration_seconds_count')).toBeGreaterThan(0);
    expect(sample(text, 'projection_lag_events{projection="content_types"}')).toBe(0);
    expect(sample(text, 'projection_lag_seconds{projection="content_types"}')).toBe(0);
    expect(sample(text, 'process_queue_depth{queue="scheduled_jobs"}')).toBe(0);
    expect(sample(text, 'process_queue_depth{queue="webhook_deliveries"}')).toBe(0);
    expect(text).toContain('process_resident_memory_bytes');
  });

  it('limits requests per credential with 429 and Retry-After, leaving other keys, probes and scrapes alone', async () => {
    const { readKey, writeKey } = service.bootstrap!;
    const answers = await Promise.all(Array.from({ length: 40 }, () => api('GET', '/content-types', { key: readKey })));
    const limited = answers.filter((answer) => answer.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited[0]!.body).toMatchObject({ status: 429, title: 'Too Many Requests' });
    expect((await api('GET', '/content-types', { key: writeKey })).status).not.toBe(429);
    const probes = await Promise.all(Array.from({ length: 40 }, () => api('GET', '/health/live')));
    expect(probes.every((probe) => probe.status === 200)).toBe(true);
  });
});
