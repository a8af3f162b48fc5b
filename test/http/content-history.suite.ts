import type { EventStore } from '../../infra/eventstore/port';
import { TOKENS } from '../../src/container';
import { client } from '../support/http';
import { type Engine, movableClock, startTestService, type TestService } from '../support/service';

const articleType = {
  name: 'Article',
  key: 'Article',
  fields: [
    { key: 'title', type: 'Text', required: true, translatable: true, sortIndex: 0 },
    { key: 'body', type: 'Text', sortIndex: 1 },
  ],
};

interface Entry {
  version: number;
  type: string;
  at: string;
}

/** Stage-aware versions, as-of reads, restore and diff (issue 16). */
export function describeContentHistory(engine: Engine): void {
  describe(`content history (${engine})`, () => {
    const clock = movableClock();
    let service: TestService;
    let api: ReturnType<typeof client>;
    let read: { key: string };
    let write: { key: string };
    /** The stream of the item `id` as its history lists it. */
    const historyOf = async (id: string): Promise<Entry[]> => (await api('GET', `/v2/contents/Article/${id}/history`, read)).body;
    /** Each write a minute after the previous one, so as-of times fall between versions. */
    const later = async <T>(write: () => Promise<T>): Promise<T> => {
      clock.advance(60_000);
      return write();
    };
    const plusMs = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

    beforeAll(async () => {
      service = await startTestService(engine, {}, clock);
      api = client(service.url);
      read = { key: service.readKey };
      write = { key: service.writeKey };
      expect((await api('PUT', '/locales', { ...write, body: { code: 'de' } })).status).toBe(200);
      expect((await api('PUT', '/content-types', { ...write, body: articleType })).status).toBe(200);
    });
    afterAll(() => service.close());

    /**
     * v1 draft "one"; v2 published; v3 draft "two" with a German translation nobody published;
     * v4 unpublished.
     */
    const lifecycle = async () => {
      const created = await later(() => api('PUT', '/v2/preview-contents/Article', { ...write, body: { fields: { title: 'one' } } }));
      const id: string = created.body.id;
      await later(() => api('PUT', `/v2/preview-contents/Article/${id}/publish`, { ...write, body: {} }));
      await later(() => api('PUT', '/v2/preview-contents/Article', { ...write, body: { id, fields: { title: 'two' }, translations: { title: { de: 'zwei' } } } }));
      await later(() => api('PUT', `/contents/Article/${id}/unpublish`, { ...write, body: {} }));
      const entries = await historyOf(id);
      expect(entries.map((entry) => entry.type)).toEqual(['ContentDraftSaved', 'ContentPublished', 'ContentDraftSaved', 'ContentUnpublished']);
      return { id, at: entries.map((entry) => entry.at) };
    };

    describe('versions answer the stage of their path', () => {
      it('published paths answer what was published at that version, and 404 when nothing was', async () => {
        const { id, at } = await lifecycle();
        expect((await api('GET', `/v2/contents/Article/${id}/versions/1`, read)).status).toBe(404);
        const published = await api('GET', `/v2/contents/Article/${id}/versions/2`, read);
        expect(published.status).toBe(200);
        expect(published.body).toEqual({
          version: 2,
          at: at[1],
          stage: 'published',
          updatedAt: at[1],
          publishedAt: at[1],
          item: { id, fields: { title: 'one' }, translations: {} },
        });
        // The later draft and its German translation were never published: version 3 still shows version 2's content.
        const afterDraft = await api('GET', `/v2/contents/Article/${id}/versions/3`, read);
        expect(afterDraft.body).toMatchObject({ version: 3, at: at[2], stage: 'published', updatedAt: at[1], publishedAt: at[1], item: { fields: { title: 'one' }, translations: {} } });
        expect((await api('GET', `/v2/contents/Article/${id}/versions/4`, read)).status).toBe(404);
        const v1 = await api('GET', `/contents/Article/${id}/versions/3`, read);
        expect(v1.body.item).toEqual({ id, contentType: 'Article', fields: [{ type: 'Text', key: 'title', value: 'one' }], createdAt: at[0], updatedAt: at[1] });
      });

      it('preview paths answer the draft, with when it was saved and when the item was last published', async () => {
        const { id, at } = await lifecycle();
        expect((await api('GET', `/v2/preview-contents/Article/${id}/versions/1`, read)).body).toEqual({
          version: 1,
          at: at[0],
          stage: 'draft',
          updatedAt: at[0],
          publishedAt: null,
          item: { id, fields: { title: 'one' }, translations: {} },
        });
        expect((await api('GET', `/v2/preview-contents/Article/${id}/versions/2`, read)).body).toMatchObject({ stage: 'draft', updatedAt: at[0], publishedAt: at[1] });
        expect((await api('GET', `/v2/preview-contents/Article/${id}/versions/3`, read)).body).toMatchObject({
          updatedAt: at[2],
          publishedAt: at[1],
          item: { fields: { title: 'two' }, translations: { title: { de: 'zwei' } } },
        });
        expect((await api('GET', `/v2/preview-contents/Article/${id}/versions/4`, read)).body).toMatchObject({ updatedAt: at[2], publishedAt: null });
        expect((await api('GET', `/preview-contents/Article/${id}/versions/3`, read)).body.item.fields).toEqual([{ type: 'Text', key: 'title', value: 'two' }]);
        expect((await api('GET', `/v2/preview-contents/Article/${id}/versions/5`, read)).status).toBe(404);
        expect((await api('GET', `/v2/preview-contents/Article/${id}/versions/0`, read)).status).toBe(404);
      });

      it('lists the history on the preview paths too', async () => {
        const { id } = await lifecycle();
        const published = await api('GET', `/contents/Article/${id}/history`, read);
        for (const base of ['/preview-contents', '/v2/preview-contents']) {
          const preview = await api('GET', `${base}/Article/${id}/history`, read);
          expect(preview.status).toBe(200);
          expect(preview.body).toEqual(published.body);
        }
        expect((await api('GET', `/v2/preview-contents/Article/unknown-item/history`, read)).status).toBe(404);
      });
    });

    describe('asOf on item reads', () => {
      it('answers the stage as it stood at that time, on V1 and V2, published and preview paths', async () => {
        const { id, at } = await lifecycle();
        const get = (path: string, time: string) => api('GET', `${path}/Article/${id}?asOf=${encodeURIComponent(time)}`, read);

        expect((await get('/v2/contents', plusMs(at[0]!, 1000))).status).toBe(404);
        const published = await get('/v2/contents', plusMs(at[2]!, 1000));
        expect(published.status).toBe(200);
        expect(published.body).toEqual({ id, fields: { title: 'one' }, translations: {} });
        expect(published.headers.get('content-location')).toBe(`/v2/contents/Article/${id}/versions/3`);
        expect((await get('/v2/contents', at[1]!)).body.fields).toEqual({ title: 'one' });
        expect((await get('/v2/contents', plusMs(at[3]!, 1000))).status).toBe(404);
        expect((await get('/contents', plusMs(at[1]!, 1000))).body).toEqual({
          id,
          contentType: 'Article',
          fields: [{ type: 'Text', key: 'title', value: 'one' }],
          createdAt: at[0],
          updatedAt: at[1],
        });

        expect((await get('/v2/preview-contents', plusMs(at[0]!, 1000))).body.fields).toEqual({ title: 'one' });
        expect((await get('/v2/preview-contents', plusMs(at[3]!, 1000))).body.translations).toEqual({ title: { de: 'zwei' } });
        expect((await get('/preview-contents', plusMs(at[2]!, 1000))).body.updatedAt).toBe(at[2]);
        // With a time zone offset: the same instant.
        const offset = new Date(Date.parse(at[2]!) + 1000).toISOString().replace('Z', '+00:00');
        expect((await get('/v2/preview-contents', offset)).body.fields).toEqual({ title: 'two' });
        // Before the item existed.
        expect((await get('/v2/preview-contents', plusMs(at[0]!, -1000))).status).toBe(404);
        // Without asOf the read is the ordinary one (the read model).
        expect((await api('GET', `/v2/preview-contents/Article/${id}`, read)).body.fields).toEqual({ title: 'two' });
      });

      it('refuses a time that is not an ISO date-time with a 400 naming asOf', async () => {
        const { id } = await lifecycle();
        for (const bad of ['yesterday', '2026-13-01T00:00:00Z', '']) {
          const answer = await api('GET', `/v2/contents/Article/${id}?asOf=${encodeURIComponent(bad)}`, read);
          expect(answer.status).toBe(400);
          expect(answer.body.errors).toEqual([expect.objectContaining({ field: 'asOf' })]);
        }
        expect((await api('GET', `/v2/contents/Article/${id}?asOf=2026-01-01T00:00:00Z`, { key: 'wrong' })).status).toBe(401);
      });
    });

    describe('restore', () => {
      it('makes the state of a version the draft with a ContentRestored carrying the reason; publishing stays separate', async () => {
        const { id } = await lifecycle();
        const restored = await api('POST', `/v2/preview-contents/Article/${id}/versions/1/restore`, { ...write, body: { reason: 'wrong title', clientInfo: 'editor' } });
        expect(restored.status).toBe(200);
        expect(restored.body).toEqual({ version: 5, restoredFrom: 1, item: { id, fields: { title: 'one' }, translations: {} } });
        // Read your write: the draft shows it at once; nothing was published.
        expect((await api('GET', `/v2/preview-contents/Article/${id}`, read)).body.fields).toEqual({ title: 'one' });
        expect((await api('GET', `/v2/contents/Article/${id}`, read)).status).toBe(404);
        const entries = await api('GET', `/v2/contents/Article/${id}/history`, read);
        expect(entries.body[4]).toMatchObject({ version: 5, type: 'ContentRestored', clientInfo: 'editor', actor: expect.stringMatching(/^key:/) });
        expect((await api('GET', `/v2/preview-contents/Article/${id}/versions/5`, read)).body.item.fields).toEqual({ title: 'one' });

        expect((await api('PUT', `/v2/preview-contents/Article/${id}/publish`, { ...write, body: {} })).status).toBe(200);
        expect((await api('GET', `/v2/contents/Article/${id}`, read)).body.fields).toEqual({ title: 'one' });
      });

      it('on a published path restores what was published then (V1 answers in the V1 model)', async () => {
        const { id } = await lifecycle();
        const restored = await api('POST', `/contents/Article/${id}/versions/3/restore`, { ...write, body: {} });
        expect(restored.status).toBe(200);
        expect(restored.body).toMatchObject({ version: 5, restoredFrom: 3, item: { id, contentType: 'Article', fields: [{ type: 'Text', key: 'title', value: 'one' }] } });
        // The German translation was only ever in a draft: the restored draft does not hold it.
        expect((await api('GET', `/v2/preview-contents/Article/${id}`, read)).body).toEqual({ id, fields: { title: 'one' }, translations: {} });
        // Nothing was published at version 1 or after the unpublish.
        expect((await api('POST', `/v2/contents/Article/${id}/versions/1/restore`, { ...write, body: {} })).status).toBe(404);
        expect((await api('POST', `/v2/contents/Article/${id}/versions/4/restore`, { ...write, body: {} })).status).toBe(404);
      });

      it('needs WriteAccess, checks its body, and 404s for unknown items and versions', async () => {
        const { id } = await lifecycle();
        expect((await api('POST', `/v2/preview-contents/Article/${id}/versions/1/restore`, { ...read, body: {} })).status).toBe(403);
        const bad = await api('POST', `/v2/preview-contents/Article/${id}/versions/1/restore`, { ...write, body: { reason: 42 } });
        expect(bad.status).toBe(400);
        expect(bad.body.errors).toEqual([expect.objectContaining({ field: 'reason' })]);
        expect((await api('POST', `/v2/preview-contents/Article/${id}/versions/1/restore`, { ...write, body: { reason: 'x'.repeat(2001) } })).status).toBe(400);
        expect((await api('POST', `/v2/preview-contents/Article/${id}/versions/9/restore`, { ...write, body: {} })).status).toBe(404);
        expect((await api('POST', `/v2/preview-contents/Article/nothing-here/versions/1/restore`, { ...write, body: {} })).status).toBe(404);
        expect((await historyOf(id)).length).toBe(4);
      });

      it('refuses a state the content type no longer allows (400 naming the field)', async () => {
        await api('PUT', '/content-types', { ...write, body: { name: 'Memo', key: 'Memo', fields: [{ key: 'text', type: 'Text' }] } });
        const created = await api('PUT', '/v2/preview-contents/Memo', { ...write, body: { fields: { text: 'a' } } });
        const id = created.body.id;
        const stricter = { name: 'Memo', key: 'Memo', fields: [{ key: 'text', type: 'Text' }, { key: 'due', type: 'DateTime', required: true }] };
        // The stored item has no `due`: the change is saved only when confirmed.
        expect((await api('PUT', '/content-types', { ...write, body: stricter })).status).toBe(409);
        expect((await api('PUT', '/content-types?confirmBreakingChanges=true', { ...write, body: stricter })).status).toBe(200);
        const refused = await api('POST', `/v2/preview-contents/Memo/${id}/versions/1/restore`, { ...write, body: {} });
        expect(refused.status).toBe(400);
        expect(refused.body.errors).toEqual([expect.objectContaining({ field: expect.stringContaining('due') })]);
      });
    });

    describe('reads of an item with many versions', () => {
      /** Counts the events `readStream` answers with their values from now on (history, versions and diff read through this store). */
      const countEventsRead = (): { events: number } => {
        const store: EventStore = service.service.container.resolve(TOKENS.unsealedEventStore);
        const counted = { events: 0 };
        const readStream = store.readStream.bind(store);
        store.readStream = async (...args) => {
          const events = await readStream(...args);
          counted.events += events.length;
          return events;
        };
        return counted;
      };

      it('read the values of only the events they show, however many versions the item has', async () => {
        const versions = 120;
        const created = await api('PUT', '/v2/preview-contents/Article', { ...write, body: { fields: { title: 'v1', body: 'x'.repeat(10_000) } } });
        const id: string = created.body.id;
        for (let version = 2; version <= versions; version++) {
          const saved = await api('PUT', '/v2/preview-contents/Article', { ...write, body: { id, fields: { title: `v${version}`, body: 'x'.repeat(10_000) } } });
          expect(saved.status).toBe(200);
        }
        const counted = countEventsRead();
        const history = await api('GET', `/v2/preview-contents/Article/${id}/history`, read);
        expect(history.body).toHaveLength(versions);
        expect(counted.events).toBeLessThanOrEqual(1);

        counted.events = 0;
        const version = await api('GET', `/v2/preview-contents/Article/${id}/versions/7`, read);
        expect(version.body.item.fields.title).toBe('v7');
        expect(counted.events).toBeLessThanOrEqual(2);

        counted.events = 0;
        const diff = await api('GET', `/v2/preview-contents/Article/${id}/diff?from=1&to=${versions}`, read);
        expect(diff.body).toEqual([{ op: 'replace', path: '/fields/title', value: `v${versions}` }]);
        expect(counted.events).toBeLessThanOrEqual(3);

        counted.events = 0;
        const asOf = await api('GET', `/v2/preview-contents/Article/${id}?asOf=${encodeURIComponent(clock.now().toISOString())}`, read);
        expect(asOf.body.fields.title).toBe(`v${versions}`);
        expect(counted.events).toBeLessThanOrEqual(2);
      });
    });

    describe('diff', () => {
      it('answers an RFC 6902 JSON Patch between the stage at two versions', async () => {
        const { id } = await lifecycle();
        const draft = await api('GET', `/v2/preview-contents/Article/${id}/diff?from=1&to=3`, read);
        expect(draft.status).toBe(200);
        expect(draft.body).toEqual(
          expect.arrayContaining([
            { op: 'replace', path: '/fields/title', value: 'two' },
            { op: 'add', path: '/translations/title', value: { de: 'zwei' } },
          ]),
        );
        expect(draft.body).toHaveLength(2);
        expect((await api('GET', `/v2/preview-contents/Article/${id}/diff?from=3&to=1`, read)).body).toEqual(
          expect.arrayContaining([{ op: 'replace', path: '/fields/title', value: 'one' }, { op: 'remove', path: '/translations/title' }]),
        );
        // The published content did not change between versions 2 and 3.
        expect((await api('GET', `/v2/contents/Article/${id}/diff?from=2&to=3`, read)).body).toEqual([]);
        expect((await api('GET', `/contents/Article/${id}/diff?from=2&to=3`, read)).body).toEqual([]);
        expect((await api('GET', `/preview-contents/Article/${id}/diff?from=1&to=3`, read)).body).toEqual(
          expect.arrayContaining([expect.objectContaining({ op: 'replace', value: 'two' })]),
        );
      });

      it('404s for a version where the stage held nothing, 400 names a missing or bad version', async () => {
        const { id } = await lifecycle();
        expect((await api('GET', `/v2/contents/Article/${id}/diff?from=1&to=2`, read)).status).toBe(404);
        const missing = await api('GET', `/v2/contents/Article/${id}/diff?to=2`, read);
        expect(missing.status).toBe(400);
        expect(missing.body.errors).toEqual([expect.objectContaining({ field: 'from' })]);
        const bad = await api('GET', `/v2/contents/Article/${id}/diff?from=1.5&to=x`, read);
        expect(bad.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(['from', 'to']);
      });
    });
  });
}
