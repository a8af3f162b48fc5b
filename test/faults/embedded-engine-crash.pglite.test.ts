import { client } from '../support/http';
import { startedWorkers } from '../support/recorded-workers';
import { startTestService, type TestService } from '../support/service';
import { delay } from '../support/waiting';

jest.mock('node:worker_threads', () => jest.requireActual<typeof import('../support/recorded-workers')>('../support/recorded-workers').recordingWorkerThreads());

const RESTART_INTERVAL_MS = 1000;
const noteType = { name: 'Note', key: 'Note', fields: [{ key: 'text', type: 'Text', required: true }] };

describe('the embedded engine thread stops under the service (pglite)', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService('pglite');
  }, 60_000);
  afterAll(() => service.close());

  it('answers 503 with Retry-After while the engine cannot be started again, never hangs, and heals without a restart', async () => {
    const api = client(service.url);
    const write = { key: service.writeKey };
    const read = { key: service.readKey };
    expect((await api('PUT', '/content-types', { ...write, body: noteType })).status).toBe(200);
    const before = await api('PUT', '/v2/contents/Note', { ...write, body: { fields: { text: 'before' } } });
    expect(before.status).toBe(200);

    // Stopped once: the next statement starts the engine again on the same data.
    await delay(RESTART_INTERVAL_MS);
    await startedWorkers.at(-1)!.terminate();
    expect((await api('GET', `/v2/contents/Note/${before.body.id}`, read)).status).toBe(200);

    // Stopped again within a second of that start: statements fail at once, as with a database that refuses connections.
    await startedWorkers.at(-1)!.terminate();
    const startedAt = Date.now();
    const refused = await api('PUT', '/v2/contents/Note', { ...write, body: { fields: { text: 'refused' } } });
    const ready = await api('GET', '/health/ready');
    expect(Date.now() - startedAt).toBeLessThan(1000);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(ready.status).toBe(503);

    await delay(RESTART_INTERVAL_MS);
    const after = await api('PUT', '/v2/contents/Note', { ...write, body: { fields: { text: 'after' } } });
    expect(after.status).toBe(200);
    // Read-your-writes holds again: the projections resumed on the engine started again.
    expect((await api('GET', `/v2/contents/Note/${after.body.id}`, read)).body.fields.text).toBe('after');
    expect((await api('GET', `/v2/contents/Note/${before.body.id}`, read)).body.fields.text).toBe('before');
  });
});
