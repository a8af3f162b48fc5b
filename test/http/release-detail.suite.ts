import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../infra/eventstore/port';
import { TOKENS } from '../../src/container';
import { contentStream } from '../../src/domain/content/events';
import { releaseStream } from '../../src/domain/release/events';
import { client } from '../support/http';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';
import { eventually } from '../support/waiting';

const docType = { name: 'Doc', key: 'Doc', fields: [{ key: 'title', type: 'Text' }] };
const ITEMS = 1000;
/** Items whose drafts and published texts are large: together more than one answer's diff budget. */
const LARGE = 40;
const LARGE_TEXT = 10_000;

const quantile = (values: readonly number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * q)]!;
const median = (values: readonly number[]) => quantile(values, 0.5);

/** GET /v2/releases/{id} of a release of 1,000 items with many versions each: paged, its diffs bounded, and other workspaces still served. */
export function describeReleaseDetail(engine: Engine): void {
  describe(`the detail of a large release (${engine})`, () => {
    let service: TestService;
    let api: ReturnType<typeof client>;
    let read: { key: string };
    let releaseId: string;
    let ids: string[];

    beforeAll(async () => {
      service = await startTestService(engine);
      api = client(service.url);
      read = { key: service.readKey };
      const write = { key: service.writeKey };
      expect((await api('PUT', '/content-types', { ...write, body: docType })).status).toBe(200);

      // Written in one append, as fast as the read models take it: each item's draft, its publish and three later drafts, and the release of them all.
      const store = service.service.container.resolve<EventStore>(TOKENS.unsealedEventStore);
      ids = Array.from({ length: ITEMS }, () => randomUUID());
      const metadata = { workspaceId: service.workspaceId, actor: 'system', correlationId: randomUUID(), timestamp: new Date().toISOString() };
      const ref = (itemId: string) => ({ workspaceId: service.workspaceId, itemId, contentType: 'Doc' });
      const text = (i: number, version: number) => (i < LARGE ? `${version}`.repeat(LARGE_TEXT) : `item ${i} version ${version}`);
      const draft = (itemId: string, i: number, version: number) => ({ type: 'ContentDraftSaved', data: { ...ref(itemId), created: version === 1, fields: { title: text(i, version) }, translations: {} }, metadata });
      const events = (itemId: string, i: number) => [
        draft(itemId, i, 1),
        { type: 'ContentPublished', data: { ...ref(itemId), firstPublish: true, fields: { title: text(i, 1) }, translations: {} }, metadata },
        ...[3, 4, 5].map((version) => draft(itemId, i, version)),
      ];
      releaseId = randomUUID();
      const release = { workspaceId: service.workspaceId, releaseId };
      const entries = ids.map((itemId) => ({ type: 'ReleaseItemSet', data: { ...release, itemId, contentType: 'Doc', action: 'publish', version: 5, pinned: false }, metadata }));
      await store.appendMany([
        ...ids.map((itemId, i) => ({ stream: contentStream(service.workspaceId, itemId), events: events(itemId, i), expectedRevision: 'no_stream' as const })),
        { stream: releaseStream(service.workspaceId, releaseId), events: [{ type: 'ReleaseCreated', data: { ...release, name: 'big' }, metadata }, ...entries], expectedRevision: 'no_stream' as const },
      ]);
      // The read models take the append in one batch; a poll's connection can be dropped meanwhile, which only means polling again.
      const polled = (path: string) => api('GET', path, read).catch(() => null);
      await eventually(async () => (await polled(`/v2/releases/${releaseId}?pageSize=1`))?.body.itemCount === ITEMS, 100_000);
      await eventually(async () => (await polled(`/v2/preview-contents/Doc/${ids[ITEMS - 1]}`))?.body.fields?.title === text(ITEMS - 1, 5), 100_000);
    }, 120_000);
    afterAll(() => service.close());

    it('answers a page of entries, and diffs no more content per answer than its budget: a left-out entry says why and is answered alone', async () => {
      const first = await api('GET', `/v2/releases/${releaseId}`, read);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ id: releaseId, status: 'Open', itemCount: ITEMS, page: 1, pageSize: 100, hasMore: true });
      expect(first.body.items.map((item: { itemId: string }) => item.itemId)).toEqual(ids.slice(0, 100));
      const entries = first.body.items as { itemId: string; version: number; problem: string | null; diff: unknown[] | null; diffLeftOut?: string }[];
      expect(entries.every((entry) => entry.version === 5 && entry.problem === null)).toBe(true);
      // Each large entry compares two texts of 10,000 characters: 19 fit in a budget of 400,000, and the small ones after them.
      const leftOut = entries.filter((entry) => entry.diff === null);
      expect(leftOut.map((entry) => entry.itemId)).toEqual(ids.slice(19, LARGE));
      const diffed = entries.filter((entry) => entry.diff !== null);
      expect(diffed[0]!.diff).toEqual([{ op: 'replace', path: '/fields/title', value: '5'.repeat(LARGE_TEXT) }]);
      expect(leftOut[0]!.diffLeftOut).toMatch(/budget.*GET \/v2\/releases\/\{id\}\/items\/\{itemId\}/);

      const alone = await api('GET', `/v2/releases/${releaseId}/items/${leftOut[0]!.itemId}`, read);
      expect(alone.status).toBe(200);
      expect(alone.body).toEqual({ itemId: leftOut[0]!.itemId, contentType: 'Doc', action: 'publish', version: 5, pinned: false, problem: null, diff: [{ op: 'replace', path: '/fields/title', value: '5'.repeat(LARGE_TEXT) }] });
      expect((await api('GET', `/v2/releases/${releaseId}/items/${randomUUID()}`, read)).status).toBe(404);

      const last = await api('GET', `/v2/releases/${releaseId}?page=10&pageSize=100`, read);
      expect(last.body).toMatchObject({ itemCount: ITEMS, page: 10, hasMore: false });
      expect(last.body.items.map((item: { itemId: string }) => item.itemId)).toEqual(ids.slice(900));
      expect(last.body.items[0]).toMatchObject({ problem: null, diff: [{ op: 'replace', path: '/fields/title', value: 'item 900 version 5' }] });
      expect((await api('GET', `/v2/releases/${releaseId}?pageSize=201`, read)).status).toBe(400);
    });

    it('serves another workspace while the detail is read over and over: its reads stay within a bound of their time alone', async () => {
      const other = (await api('POST', '/admin/workspaces', { bearer: ADMIN_TOKEN, body: { name: 'neighbour' } })).body.id as string;
      const keyOf = async (policies: string[]) => (await api('POST', `/admin/workspaces/${other}/api-keys`, { bearer: ADMIN_TOKEN, body: { name: policies[0], policies } })).body.key as string;
      const [otherWrite, otherRead] = [await keyOf(['WriteAccess']), await keyOf(['ReadAccess'])];
      expect((await api('PUT', '/content-types', { key: otherWrite, body: docType })).status).toBe(200);
      const itemId = (await api('PUT', '/v2/contents/Doc', { key: otherWrite, body: { fields: { title: 'neighbour' } } })).body.id as string;
      const timedRead = async () => {
        const started = performance.now();
        expect((await api('GET', `/v2/contents/Doc/${itemId}`, { key: otherRead })).status).toBe(200);
        return performance.now() - started;
      };
      const alone: number[] = [];
      for (let i = 0; i < 40; i++) alone.push(await timedRead());

      // One reader of the detail after the other: on PGlite (one connection) the neighbour's read waits for the statements of the detail read in flight, whatever they are.
      // No item's history is replayed to answer the detail: the entries are read from the read models.
      const store = service.service.container.resolve<EventStore>(TOKENS.unsealedEventStore);
      const streamReads = [jest.spyOn(store, 'readStreams'), jest.spyOn(store, 'readStream')];
      let detailReads = 0;
      const detailMs: number[] = [];
      let reading = true;
      const detailLoop = (async () => {
        while (reading) {
          const started = performance.now();
          expect((await api('GET', `/v2/releases/${releaseId}?page=${(detailReads % 10) + 1}`, read)).status).toBe(200);
          detailMs.push(performance.now() - started);
          detailReads++;
        }
      })();
      const busy: number[] = [];
      while (detailReads < 12) busy.push(await timedRead());
      reading = false;
      await detailLoop;
      expect(streamReads.map((spy) => spy.mock.calls.length)).toEqual([0, 0]);
      for (const spy of streamReads) spy.mockRestore();

      console.log(`another workspace's read: median ${median(alone).toFixed(1)} ms alone, ${median(busy).toFixed(1)} ms during ${detailReads} release detail reads of median ${median(detailMs).toFixed(0)} ms (${busy.length} reads); p90 ${quantile(alone, 0.9).toFixed(1)} and ${quantile(busy, 0.9).toFixed(1)} ms; max ${Math.max(...alone).toFixed(1)} and ${Math.max(...busy).toFixed(1)} ms`);
      // Replaying every item's stream held the event loop in stretches (the neighbour's p90 rose to 194-302 ms on PostgreSQL, max 470-527 ms);
      // on PGlite the neighbour's statements also queue behind the detail's on its one connection: there it may wait out a detail read in flight,
      // the longest of them included (a CI run under the other jest worker saw a p90 of 539 ms against a bound taken from the median detail read).
      const queuedBehind = engine === 'pglite' ? Math.max(...detailMs) : 0;
      expect(quantile(busy, 0.9)).toBeLessThan(median(alone) * 10 + 250 + queuedBehind);
    }, 60_000);
  });
}
