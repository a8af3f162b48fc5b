import { applyPatch } from 'rfc6902';
import { client, type RequestOptions } from '../support/http';
import { type Engine, startTestService, type TestService } from '../support/service';
import { type Bystander, createBystander, measureWhile, unheldP99 } from '../support/tenant-latency';

const listType = { name: 'List', key: 'List', fields: [{ key: 'list', type: 'Json' }] };

/** Long arrays in an item's versions: the history routes answer them without holding other workspaces. */
export function describeHistoryAttacks(engine: Engine): void {
  describe(`history routes under long arrays (${engine})`, () => {
    let service: TestService;
    let bystander: Bystander;
    let api: ReturnType<typeof client>;
    let read: RequestOptions;
    let write: RequestOptions;

    beforeAll(async () => {
      service = await startTestService(engine);
      api = client(service.url);
      read = { key: service.readKey };
      write = { key: service.writeKey };
      bystander = await createBystander(service.url);
      expect((await api('PUT', '/content-types', { ...write, body: listType })).status).toBe(200);
    }, 120_000);

    afterAll(() => service?.close());

    it('diffs two versions of a 10,000-element array while a bystander stays within twice its usual p99', async () => {
      const length = 10_000;
      const ascending = Array.from({ length }, (_, index) => ({ n: index }));
      // Every element moved, and a few changed: the worst case of an array diff (rfc6902 ran out of heap at 1,000).
      const shuffled = [...ascending].reverse().map((element, index) => (index % 1000 === 0 ? { n: -1 } : element));
      const created = await api('PUT', '/v2/preview-contents/List', { ...write, body: { fields: { list: ascending } } });
      expect(created.status).toBe(200);
      const id: string = created.body.id;
      expect((await api('PUT', '/v2/preview-contents/List', { ...write, body: { id, fields: { list: shuffled } } })).status).toBe(200);
      const probe = { path: '/content-types', key: bystander.readKey };

      const baseline = await measureWhile(service.url, probe, () => Promise.resolve(), 1000);
      const { attack: diff, latency } = await measureWhile(service.url, probe, () => api('GET', `/v2/preview-contents/List/${id}/diff?from=1&to=2`, read), 1000);

      expect(diff.status).toBe(200);
      const before = (await api('GET', `/v2/preview-contents/List/${id}/versions/1`, read)).body.item;
      const after = (await api('GET', `/v2/preview-contents/List/${id}/versions/2`, read)).body.item;
      expect(applyPatch(before, diff.body).filter((error) => error !== null)).toEqual([]);
      expect(before).toEqual(after);
      expect(latency.statuses.filter((status) => status !== 200)).toEqual([]);
      expect(latency.p99Ms).toBeLessThanOrEqual(unheldP99(baseline.latency));
    });
  });
}
