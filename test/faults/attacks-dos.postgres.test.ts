import { client } from '../support/http';
import { startTestService, type TestService } from '../support/service';
import { createBystander, measureWhile } from '../support/tenant-latency';
import { describeAttacks } from './attacks-dos.suite';

describeAttacks('postgres');

describe('the read statement timeout (postgres)', () => {
  let service: TestService;

  beforeAll(async () => {
    service = await startTestService('postgres', { READ_STATEMENT_TIMEOUT_MS: '100' });
  });

  afterAll(() => service?.close());

  it('answers a read running past READ_STATEMENT_TIMEOUT_MS with 503 problem+json, while writes and other tenants go on', async () => {
    const api = client(service.url);
    const write = { key: service.writeKey };
    const type = { name: 'Article', key: 'Article', fields: [{ key: 'title', type: 'Text' }] };
    expect((await api('PUT', '/content-types', { ...write, body: type })).status).toBe(200);
    // Writes (appends, projection batches) are not timed out: each of these takes its time and is answered.
    for (let index = 0; index < 40; index++) {
      expect((await api('PUT', '/v2/contents/Article', { ...write, body: { fields: { title: 'a'.repeat(10_000) } } })).status).toBe(200);
    }
    const bystander = await createBystander(service.url);
    // The costliest filter accepted: LIKE compares its 200 characters at nearly every position of 40 values of 10,000.
    const costly = { filter: { type: 'condition', fieldKey: 'title', operator: 'contains', value: `${'a'.repeat(199)}b` } };
    const { attack: answer, latency } = await measureWhile(service.url, { path: '/content-types', key: bystander.readKey }, () =>
      api('POST', '/v2/contents/Article', { key: service.readKey, body: costly }),
    );
    expect(answer.status).toBe(503);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(answer.body.detail).toContain('read statement timeout');
    expect(latency.statuses.every((status) => status === 200)).toBe(true);
    expect(latency.maxMs).toBeLessThan(1000);
    // A cheap read on the same collection is unaffected.
    expect((await api('POST', '/v2/contents/Article', { key: service.readKey, body: { pageSize: 1 } })).status).toBe(200);
  });
});
