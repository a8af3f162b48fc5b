import { comparePositions } from '../../infra/eventstore/port';
import { checkpointName } from '../../projections/projector';
import { CONTENT_TABLES } from '../../projections/read-models/content-tables';
import { publishedVersionScope } from '../../projections/read-models/published-versions';
import { type ContentTableDocument, contentTableId } from '../../projections/content-tables/schema';
import { PublishedTotals } from '../../queries/published-totals';
import { TOKENS } from '../../src/container';
import { client } from '../support/http';
import { eventually } from '../support/waiting';
import { ADMIN_TOKEN, type Engine, movableClock, startTestService, type TestService } from '../support/service';
import { deleteCheckpointEverywhere, resolvedCheckpointList } from '../../projections/group-checkpoint';

const authorType = { name: 'Author', key: 'Author', fields: [{ key: 'name', type: 'Text', sortIndex: 0 }] };
const articleType = {
  name: 'Article',
  key: 'Article',
  fields: [
    { key: 'title', type: 'Text', translatable: true, sortIndex: 0 },
    { key: 'rank', type: 'Number', sortIndex: 1 },
    { key: 'author', type: 'Relation', relationContentType: 'Author', sortIndex: 2 },
  ],
};
const unversionedType = { name: 'Notice', key: 'Notice', versioningDisabled: true, fields: [{ key: 'text', type: 'Text', sortIndex: 0 }] };

interface V2Item {
  id: string;
  fields: Record<string, unknown>;
}

/** As-of list, ids and aggregate queries (issue 16 item 5) from the typed versions tables. */
export function describeContentAsOf(engine: Engine): void {
  describe(`as-of lists, ids and aggregates (${engine})`, () => {
    const clock = movableClock();
    let service: TestService;
    let api: ReturnType<typeof client>;
    let read: { key: string };
    let write: { key: string };
    const ids: Record<string, string> = {};
    /** marks[n]: a time after step n's writes and before step n + 1's. */
    const marks: string[] = [];

    /** A minute passes before each step's writes; the mark is taken after them. */
    const step = async (writes: () => Promise<void>) => {
      clock.advance(60_000);
      await writes();
      marks.push(clock.now().toISOString());
      clock.advance(60_000);
    };
    const put = async (path: string, body: unknown) => {
      const answer = await api('PUT', path, { ...write, body });
      expect(answer.status).toBe(200);
      return answer.body as { id: string };
    };
    const asOf = (time: string) => `?asOf=${encodeURIComponent(time)}`;
    const list = async (time: string, body: Record<string, unknown> = {}) => {
      const answer = await api('POST', `/v2/contents/Article${asOf(time)}`, { ...read, body });
      expect(answer.status).toBe(200);
      return answer.body as { items: V2Item[]; total: number; totalPages: number };
    };
    const titles = async (time: string, body: Record<string, unknown> = {}) => (await list(time, body)).items.map((item) => item.fields.title);
    const readStore = () => service.service.container.resolve(TOKENS.readStore);
    /** The type's versions table, which the totals' hour of events is read from. */
    const versionsOf = async (type: string) => (await readStore().get<ContentTableDocument>(CONTENT_TABLES, contentTableId(service.workspaceId, type)))!.serving!.versions!;
    /** Every type's tables are built and the builder idle: as-of queries answer from the versions tables (503 before). */
    const tablesBuilt = () =>
      eventually(async () => {
        const entries = await readStore().list<ContentTableDocument>(CONTENT_TABLES, {});
        const building = service.service.container.resolve(TOKENS.contentTables).status?.state === 'running';
        return entries.length === 3 && entries.every((entry) => entry.serving?.versions && entry.serving.collection === entry.wanted?.collection) && !building ? true : undefined;
      }, 60_000);

    beforeAll(async () => {
      service = await startTestService(engine, {}, clock);
      api = client(service.url);
      read = { key: service.readKey };
      write = { key: service.writeKey };
      await put('/locales', { code: 'de' });
      for (const type of [authorType, articleType, unversionedType]) await put('/content-types', type);

      marks.push(clock.now().toISOString());
      await step(async () => {
        ids.ann = (await put('/v2/contents/Author', { fields: { name: 'Ann' } })).id;
        ids.a = (await put('/v2/contents/Article', { fields: { title: 'a1', rank: 1, author: ids.ann }, translations: { title: { de: 'a1-de' } } })).id;
        await put('/v2/contents/Notice', { fields: { text: 'first' } });
      });
      await step(async () => {
        ids.b = (await put('/v2/contents/Article', { fields: { title: 'b1', rank: 2 } })).id;
      });
      await step(async () => {
        await put('/v2/contents/Article', { id: ids.a, fields: { title: 'a2', rank: 3, author: ids.ann } });
        await put('/v2/contents/Author', { id: ids.ann, fields: { name: 'Anna' } });
      });
      await step(async () => {
        expect((await api('PUT', `/contents/Article/${ids.b}/unpublish`, { ...write, body: {} })).status).toBe(200);
        ids.c = (await put('/v2/preview-contents/Article', { fields: { title: 'c-draft', rank: 9 } })).id;
        await put('/v2/preview-contents/Article', { id: ids.a, fields: { title: 'a3-draft', rank: 30 } });
      });
      await step(async () => {
        ids.d = (await put('/v2/contents/Article', { fields: { title: 'd1', rank: 5 } })).id;
      });
      await step(async () => {
        expect((await api('DELETE', `/contents/Article/${ids.d}`, { ...write })).status).toBe(200);
      });
      await tablesBuilt();
    }, 180_000);
    afterAll(() => service.close());

    it('lists what the published list served at each time: publishes, republishes and unpublishes, never a draft', async () => {
      expect(await list(marks[0]!)).toMatchObject({ items: [], total: 0, totalPages: 0 });
      expect(await titles(marks[1]!)).toEqual(['a1']);
      const second = await list(marks[2]!, { order: { fieldKey: 'rank', sortDir: 'Desc' } });
      expect(second).toMatchObject({ total: 2, totalPages: 1 });
      expect(second.items).toEqual([
        { id: ids.b, fields: { title: 'b1', rank: 2 }, translations: {} },
        { id: ids.a, fields: { title: 'a1', rank: 1, author: ids.ann }, translations: { title: { de: 'a1-de' } } },
      ]);
      expect((await titles(marks[3]!, { order: { fieldKey: 'title' } }))).toEqual(['a2', 'b1']);
      // B unpublished, C only a draft, A's newer draft not published.
      expect(await titles(marks[4]!)).toEqual(['a2']);
    });

    it('applies filters, orders, paging and totals as the current list does', async () => {
      const filtered = await list(marks[3]!, { filter: { type: 'condition', fieldKey: 'rank', operator: 'gt', value: 2 } });
      expect(filtered).toMatchObject({ total: 1, items: [{ id: ids.a, fields: { title: 'a2' } }] });
      const paged = await list(marks[3]!, { order: { fieldKey: 'rank' }, page: 2, pageSize: 1 });
      expect(paged).toMatchObject({ total: 2, totalPages: 2, items: [{ id: ids.a }] });
      // Just before the republish the first version is served, from it on the second.
      const history = (await api('GET', `/v2/contents/Article/${ids.a}/history`, read)).body as { type: string; at: string }[];
      const republishedAt = history.filter((entry) => entry.type === 'ContentPublished')[1]!.at;
      const justBefore = new Date(Date.parse(republishedAt) - 1).toISOString();
      expect(await titles(justBefore, { filter: { type: 'condition', fieldKey: 'id', operator: 'e', value: ids.a } })).toEqual(['a1']);
      expect(await titles(republishedAt, { filter: { type: 'condition', fieldKey: 'id', operator: 'e', value: ids.a } })).toEqual(['a2']);
    });

    it('answers now exactly as the current list, ids and aggregates do', async () => {
      const now = clock.now().toISOString();
      for (const [path, body] of [
        ['/v2/contents/Article', { order: { fieldKey: 'title' }, locale: 'de', includeRelations: ['author'] }],
        ['/v2/contents/Article/ids', {}],
        ['/contents/Article/ids', { filter: { type: 'condition', fieldKey: 'rank', operator: 'gte', value: 1 } }],
        ['/contents/Article/aggregate', { fieldKey: 'rank', aggregateType: 'Sum' }],
        ['/v2/contents/Article/aggregategroup', { fieldKey: 'rank', aggregateType: 'Count', groupByFieldKey: 'title' }],
      ] as const) {
        const current = await api('POST', path, { ...read, body });
        const then = await api('POST', `${path}${asOf(now)}`, { ...read, body });
        expect({ path, status: then.status, body: then.body }).toEqual({ path, status: 200, body: current.body });
      }
    });

    it('answers ids and aggregates of the past on V1 and V2 paths', async () => {
      for (const base of ['/contents', '/v2/contents']) {
        const idsThen = await api('POST', `${base}/Article/ids${asOf(marks[2]!)}`, { ...read, body: {} });
        expect(idsThen.status).toBe(200);
        expect({ ...idsThen.body, ids: [...idsThen.body.ids].sort() }).toEqual({ ids: [ids.a, ids.b].sort(), total: 2 });
        const sum = await api('POST', `${base}/Article/aggregate${asOf(marks[3]!)}`, { ...read, body: { fieldKey: 'rank', aggregateType: 'sum' } });
        expect(sum.body).toEqual({ value: 5 });
        const groups = await api('POST', `${base}/Article/aggregategroup${asOf(marks[2]!)}`, { ...read, body: { fieldKey: 'rank', aggregateType: 'Max', groupByFieldKey: 'title' } });
        expect(groups.body).toEqual({ items: [{ groupValue: 'a1', aggregateValue: 1 }, { groupValue: 'b1', aggregateValue: 2 }] });
      }
    });

    it('flattens locales and expands relations as they were published then', async () => {
      const [first] = (await list(marks[1]!, { locale: 'de', includeRelations: ['author'] })).items;
      expect(first).toEqual({ id: ids.a, fields: { title: 'a1-de', rank: 1, author: { id: ids.ann, fields: { name: 'Ann' }, translations: {} } }, translations: { title: { de: 'a1-de' } } });
      const [later] = (await list(marks[3]!, { filter: { type: 'condition', fieldKey: 'id', operator: 'e', value: ids.a }, includeRelations: ['author'] })).items;
      expect(later!.fields.author).toEqual({ id: ids.ann, fields: { name: 'Anna' }, translations: {} });
    });

    it('never shows a deleted item, not even at a time it was published', async () => {
      expect(await titles(marks[5]!)).toEqual(['a2']);
      const count = await api('POST', `/v2/contents/Article/aggregate${asOf(marks[5]!)}`, { ...read, body: { fieldKey: 'rank', aggregateType: 'Count' } });
      expect(count.body).toEqual({ value: 1 });
    });

    it('answers unfiltered totals from item_counts, exactly as counting the versions served then', async () => {
      const readStore = service.service.container.resolve(TOKENS.readStore);
      const totals = new PublishedTotals(readStore, () => true);
      const everyTime = [...marks, clock.now().toISOString()];
      for (const time of everyTime) {
        // A filter every version matches makes the store count: the reference for the total.
        const counted = await list(time, { filter: { type: 'condition', fieldKey: 'rank', operator: 'gte', value: 0 }, pageSize: 100 });
        const answered = await list(time, { pageSize: 1 });
        const idsThen = await api('POST', `/v2/contents/Article/ids${asOf(time)}`, { ...read, body: { pageSize: 1 } });
        expect({ time, list: answered.total, pages: answered.totalPages, ids: idsThen.body.total }).toEqual({ time, list: counted.total, pages: counted.total, ids: counted.total });
        expect({ time, series: await totals.at(publishedVersionScope(service.workspaceId, 'Article'), await versionsOf('Article'), new Date(time)) }).toEqual({ time, series: counted.total });
      }
      // Published, published, republished, unpublished; D published then deleted, so never counted.
      expect(await Promise.all(marks.map(async (mark) => (await list(mark)).total))).toEqual([0, 1, 2, 2, 1, 1, 1]);
      // A page past the end still carries the total.
      expect(await list(marks[2]!, { page: 3, pageSize: 1 })).toMatchObject({ items: [], total: 2, totalPages: 2 });
    });

    it('refuses what it cannot answer with a problem naming asOf', async () => {
      const refusals: [string, string, Record<string, unknown>, number, RegExp][] = [
        ['POST', `/v2/contents/Article?asOf=yesterday`, {}, 400, /asOf/],
        ['POST', `/v2/contents/Article/ids?asOf=2026-11-24`, {}, 400, /asOf/],
        ['POST', `/v2/contents/Article${asOf(new Date(clock.now().getTime() + 3_600_000).toISOString())}`, {}, 400, /future/],
        ['POST', `/v2/preview-contents/Article${asOf(marks[2]!)}`, {}, 400, /published paths only/],
        ['POST', `/contents/Notice/ids${asOf(marks[1]!)}`, {}, 400, /versioning is disabled/],
        ['POST', `/v2/contents/Missing${asOf(marks[1]!)}`, {}, 404, /Missing/],
      ];
      for (const [method, path, body, status, detail] of refusals) {
        const answer = await api(method, path, { ...read, body });
        expect({ path, status: answer.status, type: answer.headers.get('content-type') }).toEqual({ path, status, type: expect.stringContaining('application/problem+json') });
        expect(answer.body.detail).toMatch(detail);
        if (status === 400) expect(answer.body.errors).toEqual([expect.objectContaining({ field: 'asOf' })]);
      }
      expect((await api('POST', `/v2/contents/Article${asOf(marks[1]!)}`, { body: {} })).status).toBe(401);
    });

    it('is backfilled from the log when added to a store that already holds published history, answering 503 until it is at the head', async () => {
      const body = { order: { fieldKey: 'title' }, includeRelations: ['author'] };
      const before = await Promise.all(marks.map((mark) => list(mark, body)));
      const readStore = service.service.container.resolve(TOKENS.readStore);
      const projections = service.service.container.resolve(TOKENS.projections);
      const checkpointsBefore = resolvedCheckpointList(await readStore.listCheckpoints());

      // As an upgrade that adds this read model finds the store: its collections and checkpoint absent.
      await projections.stop();
      const added = projections.projectors.find((projector) => projector.name === 'published_versions')!;
      for (const collection of added.collections) await readStore.dropCollection(collection.name);
      await deleteCheckpointEverywhere(readStore, checkpointName(added));
      await projections.start();
      const waiting = await api('POST', `/v2/contents/Article${asOf(marks[3]!)}`, { ...read, body: {} });
      expect(waiting.status).toBe(503);
      expect(waiting.headers.get('retry-after')).toBe('5');

      await service.service.container.resolve(TOKENS.rebuilds).startProjections();
      // A publish while it is being built lands in it too.
      clock.advance(60_000);
      await put('/v2/contents/Article', { id: ids.a, fields: { title: 'a4', rank: 4, author: ids.ann } });
      const afterPublish = clock.now().toISOString();
      for (;;) {
        const status = await api('GET', '/admin/projections/rebuild', { bearer: ADMIN_TOKEN });
        if (status.body.state !== 'running') {
          // content_tables computes the typed versions tables' rows from published_versions' item states: it is backfilled with it, and with content_items, which it also reads.
          expect(status.body).toMatchObject({ state: 'succeeded', projections: ['content_items', 'content_tables', 'item_counts', 'published_versions'] });
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }

      // Its registry rebuilt with nothing serving, the builder builds every type's tables again by
      // replay; until a type's versions table is built its as-of queries answer 503, never less than exact.
      const during = await api('POST', `/v2/contents/Article${asOf(marks[3]!)}`, { ...read, body });
      if (during.status !== 200) expect({ status: during.status, retryAfter: during.headers.get('retry-after'), detail: during.body.detail }).toEqual({ status: 503, retryAfter: '5', detail: expect.stringMatching(/as-of view of Article/) });
      else expect(during.body).toEqual(before[3]);
      await tablesBuilt();
      expect(await Promise.all(marks.map((mark) => list(mark, body)))).toEqual(before);
      expect(await titles(afterPublish)).toEqual(['a4']);
      // The served counts kept beside the item states are rebuilt with them: the totals of each time, as counted.
      const totals = new PublishedTotals(readStore, () => true);
      const scope = publishedVersionScope(service.workspaceId, 'Article');
      expect(await Promise.all(marks.map(async (mark) => totals.at(scope, await versionsOf('Article'), new Date(mark))))).toEqual(before.map((answer) => answer.total));
      const checkpointsAfter = new Map((resolvedCheckpointList(await readStore.listCheckpoints())).map((checkpoint) => [checkpoint.name, checkpoint.position]));
      for (const checkpoint of checkpointsBefore) {
        expect(comparePositions(checkpointsAfter.get(checkpoint.name)!, checkpoint.position)).toBeGreaterThanOrEqual(0);
      }
    });

    it('upgrades a store built by published_versions version 3 (its published_versions table and checkpoint) blue/green, and drops that table', async () => {
      const body = { order: { fieldKey: 'title' }, includeRelations: ['author'] };
      const now = clock.now().toISOString();
      const before = await Promise.all([...marks, now].map((mark) => list(mark, body)));
      const projections = service.service.container.resolve(TOKENS.projections);
      const current = checkpointName(projections.projectors.find((projector) => projector.name === 'published_versions')!);
      expect(current).toBe('published_versions@5');

      // As the previous release leaves the store: a published_versions table holding every version (here one row of it), and its
      // version-3 checkpoint where this version's stands (its own row, or its place in the live read models' group row).
      await projections.stop();
      await readStore().ensureCollection('published_versions', []);
      const stale = { id: `${service.workspaceId}:${ids.a}:2`, scope: `${service.workspaceId}:Article`, itemId: ids.a, fields: { title: 'a1' }, validFromMs: 0, validUntilMs: Date.parse(now) };
      await readStore().apply([{ kind: 'upsert', collection: 'published_versions', document: stale }]);
      const naming = (await readStore().listCheckpoints()).filter((checkpoint) => checkpoint.name === current || (checkpoint.name.startsWith('live:') && checkpoint.name.split(/[:,]/).includes(current)));
      expect(naming.length).toBeGreaterThan(0);
      for (const { name, position } of naming) {
        await readStore().apply([], [{ name: name.replace(current, 'published_versions@3'), position }]);
        await readStore().deleteCheckpoint(name);
      }
      expect(resolvedCheckpointList(await readStore().listCheckpoints()).map((checkpoint) => checkpoint.name)).not.toContain(current);

      await projections.start();
      // Version 5 continues version 4 only (version 3 kept other counts): it is backfilled, with content_tables and item_counts, which read it; as-of lists answer 503 meanwhile.
      expect(projections.awaitingBackfill.map((projector) => projector.name)).toEqual(['content_tables', 'item_counts', 'published_versions']);
      const waiting = await api('POST', `/v2/contents/Article${asOf(now)}`, { ...read, body });
      expect([waiting.status, waiting.headers.get('retry-after')]).toEqual([503, '5']);
      await service.service.container.resolve(TOKENS.rebuilds).startProjections();
      const rebuilt = await eventually(async () => {
        const status = await api('GET', '/admin/projections/rebuild', { bearer: ADMIN_TOKEN });
        return status.body.state !== 'running' && status.body;
      }, 60_000);
      expect(rebuilt).toMatchObject({ state: 'succeeded' });
      expect(projections.awaitingBackfill).toEqual([]);
      await tablesBuilt();
      const names = resolvedCheckpointList(await readStore().listCheckpoints()).map((checkpoint) => checkpoint.name);
      expect(names).toContain(current);
      expect(names).not.toContain('published_versions@3');
      // The old table is dropped: the erased values it might hold go with it (a dropped table answers an error, read as nothing).
      expect(await readStore().list('published_versions', {}).catch(() => [])).toEqual([]);
      expect(await Promise.all([...marks, now].map((mark) => list(mark, body)))).toEqual(before);
      // Later writes are projected as before: a republish shows at its time, with its relation target as it stood then.
      clock.advance(60_000);
      await put('/v2/contents/Article', { id: ids.a, fields: { title: 'a5', rank: 5, author: ids.ann } });
      const [republished] = (await list(clock.now().toISOString(), { filter: { type: 'condition', fieldKey: 'id', operator: 'e', value: ids.a }, includeRelations: ['author'] })).items;
      expect(republished).toMatchObject({ fields: { title: 'a5', author: { id: ids.ann, fields: { name: 'Anna' } } } });
      expect(await Promise.all([...marks, now].map((mark) => list(mark, body)))).toEqual(before);
    });

    it('keeps totals exact whatever order event times come in, across hours, days, months and years', async () => {
      const readStore = service.service.container.resolve(TOKENS.readStore);
      const scope = publishedVersionScope(service.workspaceId, 'Article');
      const totals = new PublishedTotals(readStore, () => true);
      const now = clock.now().getTime();
      const hour = 3_600_000;
      const day = 24 * hour;
      // Instances whose clocks are behind (or an import of an old log) write after the events above.
      const at = async (ms: number, write: () => Promise<unknown>) => {
        clock.advance(ms - clock.now().getTime());
        await write();
        return ms;
      };
      const e1 = await at(now - 400 * day, async () => (ids.e = (await put('/v2/contents/Article', { fields: { title: 'e1', rank: 7 } })).id));
      const e2 = await at(now - 40 * day, () => api('PUT', `/contents/Article/${ids.e}/unpublish`, { ...write, body: {} }));
      const f1 = await at(now - 3 * hour, async () => (ids.f = (await put('/v2/contents/Article', { fields: { title: 'f1', rank: 8 } })).id));
      const g1 = await at(now - 2 * hour, async () => (ids.g = (await put('/v2/contents/Article', { fields: { title: 'g1', rank: 9 } })).id));
      // A republish dated before the version it replaces: that version was never served.
      const f2 = await at(now - 5 * hour, () => put('/v2/contents/Article', { id: ids.f, fields: { title: 'f2', rank: 8 } }));
      await at(now - hour, () => api('DELETE', `/contents/Article/${ids.g}`, { ...write }));
      clock.advance(now + 60_000 - clock.now().getTime());
      // Projected in the batch that serves the item (a write's own wait may time out on a loaded machine).
      await eventually(async () => ((await api('GET', `/v2/contents/Article/${ids.g}`, read)).status === 404 ? true : undefined));

      const times = [e1 - 1, e1, e1 + hour, e1 + 40 * day, e2 - 1, e2, e2 + day, f2 - 1, f2, f2 + hour, f1 - 1, f1, f1 + 1, g1, g1 + 1, g1 + hour, ...marks.map(Date.parse), clock.now().getTime()];
      for (const time of times.map((ms) => new Date(ms).toISOString())) {
        // A filter every version matches makes the store count: the reference.
        const counted = (await list(time, { filter: { type: 'condition', fieldKey: 'rank', operator: 'gte', value: 0 }, pageSize: 100 })).total;
        expect({ time, list: (await list(time, { pageSize: 1 })).total, series: await totals.at(scope, await versionsOf('Article'), new Date(time)) }).toEqual({ time, list: counted, series: counted });
      }
      expect((await list(new Date(e1 + hour).toISOString())).items.map((item) => item.id)).toEqual([ids.e]);
      expect((await list(new Date(g1 + 1).toISOString())).items.map((item) => item.fields.title)).toEqual(expect.arrayContaining(['f2']));
      expect((await list(new Date(g1 + 1).toISOString())).items.map((item) => item.id)).not.toContain(ids.g);
    });
  });
}
