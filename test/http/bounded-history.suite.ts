import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../infra/eventstore/port';
import { STREAM_PAGE } from '../../infra/eventstore/stream-pages';
import { TOKENS } from '../../src/container';
import { contentStream } from '../../src/domain/content/events';
import { client } from '../support/http';
import { watchLargestRead } from '../support/largest-read';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';
import { eventually } from '../support/waiting';

const docType = { name: 'Doc', key: 'Doc', fields: [{ key: 'title', type: 'Text' }] };
const VERSIONS = 250;
const PINNED = 150;
/** From this version on the long item's changes are made by one actor, whom the bulk undo selects. */
const UNDONE_FROM = 200;

/**
 * Issue 28: no request reads a whole item stream at once. One item of 250 versions (2.5 pages): every
 * path that used to read its stream in one call (release items, validate, preview, entry, publish,
 * revert, item schedule, bulk undo, the operator's history) answers right while no single read of the
 * log returns more than a page.
 */
export function describeBoundedHistory(engine: Engine): void {
  describe(`history reads bounded by a page (${engine})`, () => {
    let service: TestService;
    let api: ReturnType<typeof client>;
    let read: { key: string };
    let write: { key: string };
    const admin = { bearer: ADMIN_TOKEN };
    let reads: ReturnType<typeof watchLargestRead>;
    const long = randomUUID();
    let small: string[];
    /** The answer of `call`, with the most events one read of the log returned while it ran. */
    const measured = async <T>(call: () => Promise<T>): Promise<{ answer: T; largest: number }> => {
      reads.reset();
      const answer = await call();
      return { answer, largest: reads.largest() };
    };

    beforeAll(async () => {
      service = await startTestService(engine);
      api = client(service.url);
      read = { key: service.readKey };
      write = { key: service.writeKey };
      expect((await api('PUT', '/content-types', { ...write, body: docType })).status).toBe(200);
      small = [];
      for (const title of ['a', 'b', 'c']) small.push((await api('PUT', '/v2/preview-contents/Doc', { ...write, body: { fields: { title } } })).body.id as string);

      const ref = { workspaceId: service.workspaceId, itemId: long, contentType: 'Doc' };
      const metadata = (version: number) => ({ workspaceId: service.workspaceId, actor: version >= UNDONE_FROM ? 'key:bulk' : 'system', correlationId: randomUUID(), timestamp: new Date().toISOString() });
      const events = Array.from({ length: VERSIONS }, (_, i) => {
        const version = i + 1;
        if (version === 2) return { type: 'ContentPublished', data: { ...ref, firstPublish: true, fields: { title: 'v1' }, translations: {} }, metadata: metadata(version) };
        return { type: 'ContentDraftSaved', data: { ...ref, created: version === 1, fields: { title: `v${version}` }, translations: {} }, metadata: metadata(version) };
      });
      await service.service.container.resolve<EventStore>(TOKENS.unsealedEventStore).append(contentStream(service.workspaceId, long), events, 'no_stream');
      await eventually(async () => (await api('GET', `/v2/preview-contents/Doc/${long}`, read)).body.fields?.title === `v${VERSIONS}`, 30_000);
      reads = watchLargestRead(service.service.container.resolve<EventStore>(TOKENS.eventStore));
    }, 60_000);
    afterAll(() => service.close());

    it("lists the operator's history of a long item a page at a time, and a range of it on request", async () => {
      const path = `/admin/workspaces/${service.workspaceId}/contents/${long}/history`;
      const whole = await measured(() => api('GET', path, admin));
      expect(whole.answer.status).toBe(200);
      expect(whole.answer.body.map((entry: { version: number }) => entry.version)).toEqual(Array.from({ length: VERSIONS }, (_, i) => i + 1));
      expect(whole.answer.body[1]).toMatchObject({ version: 2, type: 'ContentPublished', actor: 'system', contentType: 'Doc', clientInfo: null, serverRequestId: null });
      expect(whole.largest).toBe(STREAM_PAGE);

      const range = await measured(() => api('GET', `${path}?fromVersion=101&limit=150`, admin));
      expect(range.answer.body.map((entry: { version: number }) => entry.version)).toEqual(Array.from({ length: 150 }, (_, i) => i + 101));
      expect(range.largest).toBeLessThanOrEqual(STREAM_PAGE);
      expect((await api('GET', `${path}?fromVersion=${VERSIONS + 1}`, admin)).body).toEqual([]);
      expect((await api('GET', `${path}?limit=0`, admin)).status).toBe(400);
      expect((await api('GET', `${path}?page=2`, admin)).status).toBe(400);
      expect((await api('GET', `/admin/workspaces/${service.workspaceId}/contents/${randomUUID()}/history?fromVersion=2`, admin)).status).toBe(404);
    });

    it('plans a bulk undo on a long item walking its stream a page at a time', async () => {
      const planned = await measured(() => api('POST', `/admin/workspaces/${service.workspaceId}/content-undo`, { ...admin, body: { selector: { actor: 'key:bulk' }, dryRun: true, itemIds: [long] } }));
      expect(planned.answer.status).toBe(200);
      expect(planned.answer.body.items).toEqual([
        { itemId: long, contentType: 'Doc', currentVersion: VERSIONS, firstChange: UNDONE_FROM, restoreVersion: UNDONE_FROM - 1, action: 'restore', publishedAction: 'none', laterChanges: [] },
      ]);
      expect(planned.largest).toBeLessThanOrEqual(STREAM_PAGE);
    });

    it('puts a long item in a release, previews, validates, publishes and reverts it, and schedules it, reading a page at most', async () => {
      const created = await api('POST', '/v2/releases', { ...write, body: { name: 'long' } });
      const releaseId = created.body.id as string;
      const items = [{ itemId: long, contentType: 'Doc', action: 'publish', version: PINNED }, ...small.map((itemId) => ({ itemId, contentType: 'Doc', action: 'publish' }))];
      const set = await measured(() => api('POST', `/v2/releases/${releaseId}/items`, { ...write, body: { items } }));
      expect(set.answer.status).toBe(200);
      expect(set.largest).toBeLessThanOrEqual(STREAM_PAGE);

      // The pinned version's draft lies 100 events back from the item's last: only its stream still holds it.
      const entry = await measured(() => api('GET', `/v2/releases/${releaseId}/items/${long}`, read));
      expect(entry.answer.body).toMatchObject({ problem: null, diff: [{ op: 'replace', path: '/fields/title', value: `v${PINNED}` }] });
      const preview = await measured(() => api('GET', `/v2/contents/Doc/${long}?release=${releaseId}`, read));
      expect(preview.answer.body.fields.title).toBe(`v${PINNED}`);
      const validated = await measured(() => api('POST', `/v2/releases/${releaseId}/validate`, read));
      expect(validated.answer.body).toEqual({ valid: true, problems: [] });
      for (const { largest } of [entry, preview, validated]) expect(largest).toBeLessThanOrEqual(STREAM_PAGE);

      const published = await measured(() => api('POST', `/v2/releases/${releaseId}/publish`, write));
      expect(published.answer.body.status).toBe('Published');
      expect((await api('GET', `/v2/contents/Doc/${long}`, read)).body.fields.title).toBe(`v${PINNED}`);
      const reverted = await measured(() => api('POST', `/v2/releases/${releaseId}/revert`, { ...write, body: { reason: 'too early' } }));
      expect(reverted.answer.body.status).toBe('Reverted');
      expect((await api('GET', `/v2/contents/Doc/${long}`, read)).body.fields.title).toBe('v1');
      for (const { largest } of [published, reverted]) expect(largest).toBeLessThanOrEqual(STREAM_PAGE);

      const publishAt = new Date(Date.now() + 86_400_000).toISOString();
      const scheduled = await measured(() => api('POST', '/v2/releases/item-schedules', { ...write, body: { itemId: long, contentType: 'Doc', publishAt } }));
      expect(scheduled.answer.status).toBe(201);
      expect(scheduled.answer.body.releases[0].items[0]).toMatchObject({ itemId: long, version: VERSIONS + 2, pinned: true });
      expect(scheduled.largest).toBeLessThanOrEqual(STREAM_PAGE);
    });
  });
}
