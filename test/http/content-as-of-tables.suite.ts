import { TOKENS } from '../../src/container';
import type { Document } from '../../infra/readstore/port';
import { CONTENT_TABLES } from '../../projections/read-models/content-tables';
import type { ContentTypeDocument } from '../../projections/read-models/content-types';
import { type ContentTableDocument, tableColumns, tableGeneration } from '../../projections/content-tables/schema';
import { versionColumns } from '../../projections/content-tables/versions-schema';
import { TablesReplay } from '../../projections/content-tables/replay';
import type { PageRequest } from '../../queries/content';
import { ContentAsOfQueries } from '../../queries/content-as-of';
import type { ContentTableRoutes } from '../../queries/content-table-source';
import { PublishedTotals } from '../../queries/published-totals';
import { client } from '../support/http';
import { seededRandom } from '../support/seeded-random';
import { type Engine, movableClock, startTestService, type TestService } from '../support/service';
import { openStoreSql } from '../support/store-sql';
import { eventually } from '../support/waiting';

const FIELDS = [
  { key: 'title', type: 'Text' },
  { key: 'price', type: 'Number' },
  { key: 'inStock', type: 'Boolean' },
  { key: 'releasedAt', type: 'DateTime' },
  { key: 'category', type: 'Text' },
  // No query uses it: retyped in a copy of the type, it makes that copy one no typed table answers (see retyped).
  { key: 'spare', type: 'Number' },
];
const CATEGORIES = ['light', 'heavy', 'Light', 'misc'];
const WORDS = ['apple', 'Apricot', 'banana', 'blueberry', 'cherry', 'apple pie'];

type Condition = { type: 'condition'; fieldKey: string; operator: string; value?: unknown; caseInsensitive?: boolean };
const where = (fieldKey: string, operator: string, value?: unknown, caseInsensitive?: boolean): Condition => ({ type: 'condition', fieldKey, operator, value, caseInsensitive });

/** The shapes an as-of list is asked in: filters and orders on content fields (the typed columns), system fields, none. */
const QUERIES: { name: string; filter?: unknown; order?: unknown }[] = [
  { name: 'category and order by price', filter: where('category', 'e', 'light'), order: { fieldKey: 'price', sortDir: 'desc' } },
  { name: 'range + two sort keys', filter: { type: 'and', conditions: [where('price', 'gte', 20), where('price', 'lt', 70)] }, order: [{ fieldKey: 'releasedAt' }, { fieldKey: 'title', sortDir: 'desc' }] },
  { name: 'start, case-insensitive', filter: where('title', 'start', 'AP', true), order: { fieldKey: 'createdAt', sortDir: 'desc' } },
  { name: 'contains', filter: where('title', 'contains', 'err'), order: { fieldKey: 'title' } },
  { name: 'noe or nnoe', filter: { type: 'or', conditions: [where('category', 'noe'), where('price', 'nnoe')] }, order: { fieldKey: 'category', sortDir: 'desc' } },
  { name: 'booleans', filter: where('inStock', 'e', true), order: [{ fieldKey: 'inStock' }, { fieldKey: 'price' }] },
  { name: 'dates', filter: where('releasedAt', 'gt', '2024-06-01T00:00:00Z'), order: { fieldKey: 'releasedAt', sortDir: 'desc' } },
  { name: 'not over a missing value', filter: { type: 'not', condition: where('price', 'gt', 50) }, order: { fieldKey: 'price' } },
  { name: 'in with null', filter: where('category', 'in', ['heavy', null]), order: { fieldKey: 'publishedAt' } },
  { name: 'order only', order: { fieldKey: 'price' } },
  { name: 'no filter, no order' },
];

function randomFields(random: ReturnType<typeof seededRandom>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (random.chance(0.9)) fields.title = random.pick(WORDS);
  if (random.chance(0.85)) fields.price = random.int(100);
  if (random.chance(0.9)) fields.inStock = random.chance(0.5);
  if (random.chance(0.8)) fields.releasedAt = new Date(Date.UTC(2024, random.int(12), 1 + random.int(28))).toISOString();
  if (random.chance(0.85)) fields.category = random.pick([...CATEGORIES, '']);
  return fields;
}

/**
 * As-of lists, ids and aggregates served from a type's typed versions table: the same answers
 * as a reference gives (the type's version rows replayed afresh from the log into an untyped
 * collection, queried through its documents), after the table is built (503 before), while it
 * mirrors later writes, across a field change and across the upgrades of the table's layout.
 */
export function describeContentAsOfTables(engine: Engine): void {
  describe(`as-of queries from typed versions tables (${engine})`, () => {
    const clock = movableClock();
    const random = seededRandom(16);
    let service: TestService;
    let api: ReturnType<typeof client>;
    const ids: string[] = [];
    /** Times after each round of writes. */
    const marks: string[] = [];

    const container = () => service.service.container;
    const builder = () => container().resolve(TOKENS.contentTables);
    const readStore = () => container().resolve(TOKENS.readStore);
    const asOfQueries = () => container().resolve(TOKENS.http).content.asOf.queries;
    const registry = async () => (await readStore().get<ContentTableDocument>(CONTENT_TABLES, `${service.workspaceId}:Product`))!;
    const asOf = (time: string) => `?asOf=${encodeURIComponent(time)}`;
    const put = async (path: string, body: unknown) => {
      const answer = await api('PUT', path, { key: service.writeKey, body });
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      return answer.body as { id: string };
    };
    const mark = () => {
      marks.push(clock.now().toISOString());
      clock.advance(60_000);
    };

    /** A round of history: new items published, some republished, unpublished, deleted or only drafted. */
    async function writeRound(newItems: number): Promise<void> {
      clock.advance(60_000);
      for (let index = 0; index < newItems; index++) ids.push((await put('/v2/contents/Product', { fields: randomFields(random) })).id);
      for (const id of ids.filter(() => random.chance(0.3))) {
        const action = random.int(4);
        if (action === 0) await put('/v2/contents/Product', { id, fields: randomFields(random) });
        if (action === 1) await api('PUT', `/contents/Product/${id}/unpublish`, { key: service.writeKey, body: {} });
        if (action === 2) await put('/v2/preview-contents/Product', { id, fields: randomFields(random) });
        if (action === 3 && random.chance(0.3)) {
          await api('DELETE', `/contents/Product/${id}`, { key: service.writeKey });
          ids.splice(ids.indexOf(id), 1);
        }
      }
      mark();
    }

    const typeDocument = async () => (await container().resolve(TOKENS.http).contentTypeQueries.get(service.workspaceId, 'Product'))!;
    /** A copy of the type with a field retyped: no typed table answers it. */
    const retyped = async (): Promise<ContentTypeDocument> => {
      const type = await typeDocument();
      return { ...type, fields: type.fields.map((field) => (field.key === 'spare' ? { ...field, type: 'Text' } : field)) };
    };

    const aggregateFilter = where('category', 'in', ['light', 'heavy']);

    /**
     * The type's version rows replayed from the log now (the replay a build runs, apart from the
     * live projections) into collections without typed columns, and as-of queries over them: the
     * rows compared through their documents, as the read store's generic filter compiler reads them.
     */
    async function reference() {
      const [rows, items, scratch] = ['asof_reference_versions', 'asof_reference_items', 'asof_reference_scratch'];
      for (const collection of [rows, items, scratch]) {
        await readStore().dropCollection(collection);
        await readStore().ensureCollection(collection, []);
      }
      const events = container().resolve(TOKENS.unsealedEventStore);
      const replay = new TablesReplay(events, readStore(), new Map([[`${service.workspaceId}:Product`, { collection: items, versions: rows }]]), scratch);
      await replay.until(await events.headPosition(), () => undefined);
      const routes = { versions: () => Promise.resolve({ collection: rows, typed: false, columns: [] }) } as unknown as ContentTableRoutes;
      const queries = new ContentAsOfQueries(readStore(), container().resolve(TOKENS.http).contentTypeQueries, clock, routes, new PublishedTotals(readStore(), () => false));
      return { rows, queries };
    }

    /** The list, ids and aggregates as the reference answers them. */
    async function fromReference(queries: ContentAsOfQueries, time: string, request: PageRequest) {
      const type = await typeDocument();
      const at = new Date(time);
      const found = await queries.search(service.workspaceId, type, at, request);
      return { ids: found.items.map((item) => item.itemId), total: found.total, idsPage: (await queries.ids(service.workspaceId, type, at, request)).ids };
    }

    async function aggregatesFromReference(queries: ContentAsOfQueries, time: string) {
      const type = await typeDocument();
      const at = new Date(time);
      return {
        sum: await queries.aggregate(service.workspaceId, type, at, { fieldKey: 'price', aggregateType: 'Sum', filter: aggregateFilter }),
        groups: await queries.aggregateGroups(service.workspaceId, type, at, { fieldKey: 'price', aggregateType: 'Avg', groupByFieldKey: 'category', filter: aggregateFilter }),
      };
    }

    /** Every query at every mark (and now) as the reference answers it, by mark. */
    async function referenceAnswers(): Promise<Record<string, unknown>> {
      const { queries } = await reference();
      const answers: Record<string, unknown> = {};
      for (const [mark, time] of [...marks, clock.now().toISOString()].entries()) {
        for (const [index, query] of QUERIES.entries()) {
          const request = { filter: query.filter, order: query.order, page: 1 + (index % 2), pageSize: 5 };
          answers[`${mark} ${query.name}`] = await fromReference(queries, time, request);
        }
        answers[`${mark} aggregates`] = await aggregatesFromReference(queries, time);
      }
      return answers;
    }

    /** As-of answers while no versions table answers the type: 503 with Retry-After, naming what is being built. */
    async function expectBeingBuilt(): Promise<void> {
      for (const path of ['/v2/contents/Product', '/v2/contents/Product/ids', '/v2/contents/Product/aggregate']) {
        const body = path.endsWith('aggregate') ? { fieldKey: 'price', aggregateType: 'Sum' } : {};
        const answer = await api('POST', `${path}${asOf(marks[1]!)}`, { key: service.readKey, body });
        expect({ path, status: answer.status, retryAfter: answer.headers.get('retry-after') }).toEqual({ path, status: 503, retryAfter: '5' });
        expect(answer.body.detail).toMatch(/as-of view of Product is being built/);
      }
      // What has no answer at all is refused first: a 503 would ask the client to come back for nothing.
      const future = await api('POST', `/v2/contents/Product${asOf(new Date(clock.now().getTime() + 3_600_000).toISOString())}`, { key: service.readKey, body: {} });
      expect({ status: future.status, detail: future.body.detail }).toEqual({ status: 400, detail: expect.stringMatching(/future/) });
    }

    const post = async (time: string, path: string, body: unknown) => {
      const answer = await api('POST', `${path}${asOf(time)}`, { key: service.readKey, body });
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      return answer.body;
    };

    async function fromApi(time: string, request: PageRequest) {
      const list = await post(time, '/v2/contents/Product', request);
      return { ids: list.items.map((item: { id: string }) => item.id), total: list.total, idsPage: (await post(time, '/v2/contents/Product/ids', request)).ids };
    }

    async function aggregatesFromApi(time: string) {
      return {
        sum: (await post(time, '/v2/contents/Product/aggregate', { fieldKey: 'price', aggregateType: 'Sum', filter: aggregateFilter })).value,
        groups: (await post(time, '/v2/contents/Product/aggregategroup', { fieldKey: 'price', aggregateType: 'Avg', groupByFieldKey: 'category', filter: aggregateFilter })).items,
      };
    }

    /** Every query at every mark (and now), answered by the API as the reference answers it; the answers, by mark. */
    async function expectSameAnswers(): Promise<Record<string, unknown>> {
      const expected = await referenceAnswers();
      const answers: Record<string, unknown> = {};
      for (const [mark, time] of [...marks, clock.now().toISOString()].entries()) {
        for (const [index, query] of QUERIES.entries()) {
          const request = { filter: query.filter, order: query.order, page: 1 + (index % 2), pageSize: 5 };
          const answered = await fromApi(time, request);
          expect({ time, query: query.name, ...answered }).toEqual({ time, query: query.name, ...(expected[`${mark} ${query.name}`] as object) });
          answers[`${mark} ${query.name}`] = answered;
        }
        const aggregates = await aggregatesFromApi(time);
        expect({ time, ...aggregates }).toEqual({ time, ...(expected[`${mark} aggregates`] as object) });
        answers[`${mark} aggregates`] = aggregates;
      }
      return answers;
    }

    /** The versions table holds exactly the rows a replay of the type's events makes now. */
    async function expectSameRows(table: string): Promise<void> {
      const byId = (documents: Document[]) => [...documents].sort((a, b) => (a.id < b.id ? -1 : 1));
      const expected = byId(await readStore().list((await reference()).rows, {}));
      expect(expected.length).toBeGreaterThanOrEqual(ids.length);
      expect(byId(await readStore().list(table, {}))).toEqual(expected);
    }

    /** A row only the versions table holds shows in the API's answer: the table serves. */
    async function expectServedFrom(table: string): Promise<void> {
      const now = clock.now().getTime();
      const sentinel = { id: `${service.workspaceId}:sentinel:1`, itemId: 'sentinel', stage: 'published', fields: { title: 'sentinel', price: 1 }, translations: {}, validFromMs: now - 1, validUntilMs: now + 3_600_000 };
      await readStore().apply([{ kind: 'upsert', collection: table, document: sentinel }]);
      const time = new Date(now).toISOString();
      const answer = await api('POST', `/v2/contents/Product${asOf(time)}`, { key: service.readKey, body: { filter: where('title', 'e', 'sentinel') } });
      await readStore().apply([{ kind: 'delete', collection: table, id: sentinel.id }]);
      expect(answer.body.items.map((item: { id: string }) => item.id)).toEqual(['sentinel']);
    }

    beforeAll(async () => {
      service = await startTestService(engine, {}, clock);
      api = client(service.url);
      // The test runs the builder's passes itself, to compare both sides of each switch.
      await builder().stop();
      await put('/content-types', { name: 'Product', key: 'Product', fields: FIELDS });
      mark();
      for (const newItems of [12, 8, 6]) await writeRound(newItems);
    }, 180_000);
    afterAll(() => service.close());

    it('answers 503 until the versions table is built by replay beside the content table, then answers as the reference does', async () => {
      expect((await registry()).serving).toBeNull();
      await expectBeingBuilt();
      const before = await referenceAnswers();

      await builder().runOnce();
      const entry = await registry();
      expect(entry.serving).toEqual(entry.wanted);
      expect(entry.serving!.versions).toBe(tableGeneration(service.workspaceId, 'Product', entry.serving!.fields).versions);
      expect(builder().status).toMatchObject({ state: 'succeeded', tables: [entry.serving!.collection, entry.serving!.versions] });
      await expectSameRows(entry.serving!.versions!);
      await expectServedFrom(entry.serving!.versions!);
      expect(await expectSameAnswers()).toEqual(before);
    }, 180_000);

    it('mirrors later publishes, republishes, unpublishes, draft saves and deletes into the versions table', async () => {
      await writeRound(5);
      await writeRound(3);
      await expectSameRows((await registry()).serving!.versions!);
      await expectSameAnswers();
    }, 180_000);

    it('on a field change answers from the old versions table (the new field from the document), builds the new one by replay with writes meanwhile, then switches', async () => {
      const old = (await registry()).serving!;
      const fields = [...FIELDS, { key: 'rating', type: 'Number' }];
      await put('/content-types', { name: 'Product', key: 'Product', fields });
      expect((await registry()).serving).toEqual(old);
      clock.advance(60_000);
      const rated = (await put('/v2/contents/Product', { fields: { title: 'rated', rating: 4 } })).id;
      mark();
      const byRating = { filter: where('rating', 'gte', 3), order: { fieldKey: 'rating', sortDir: 'desc' }, page: 1, pageSize: 10 };
      const now = () => clock.now().toISOString();
      expect(await fromApi(now(), byRating)).toMatchObject({ ids: [rated], total: 1 });
      await expectServedFrom(old.versions!);
      // A retyped field: the old table cannot answer the type alike, and no other table holds its versions.
      await expect(asOfQueries().search(service.workspaceId, await retyped(), new Date(now()), byRating)).rejects.toMatchObject({ kind: 'unavailable', retryAfterSeconds: 5 });

      const building = builder().runOnce();
      const during: string[] = [];
      for (let index = 0; index < 3; index++) {
        clock.advance(1000);
        during.push((await put('/v2/contents/Product', { fields: { title: `during ${index}`, rating: 5 + index } })).id);
        expect((await fromApi(now(), byRating)).ids).toEqual([...during].reverse().concat(rated));
      }
      await building;
      mark();
      const switched = (await registry()).serving!;
      expect(switched.versions).not.toBe(old.versions);
      expect(switched.fields.map((field) => field.key)).toContain('rating');
      expect(await fromApi(now(), byRating)).toMatchObject({ ids: [...during].reverse().concat(rated), total: 4 });
      await expectServedFrom(switched.versions!);
      await expectSameRows(switched.versions!);
      await expectSameAnswers();
    }, 180_000);

    it('comes up on a store of the previous layout (content tables without versions tables) and moves it to versions tables, answering alike throughout', async () => {
      const current = (await registry()).serving!;
      // As layout 2 leaves the store: a content table named for that layout, no versions table (as-of queries answer 503).
      const earlier = { collection: `${current.collection.slice(0, -8)}00000002`, fields: current.fields };
      await readStore().ensureCollection(earlier.collection, []);
      const documents = await readStore().list<Document>(current.collection, {});
      await readStore().apply(documents.map((document) => ({ kind: 'upsert', collection: earlier.collection, document })));
      await readStore().apply([{ kind: 'upsert', collection: CONTENT_TABLES, document: { ...(await registry()), wanted: earlier, serving: earlier } }]);
      await readStore().dropCollection(current.collection);
      await readStore().dropCollection(current.versions!);
      await expectBeingBuilt();
      const before = await referenceAnswers();

      // The upgrade: the service starts on this store, and its builder moves the entry to this layout in the background.
      service = await service.restart();
      api = client(service.url);
      const moved = await eventually(async () => {
        const serving = (await registry()).serving;
        return serving?.versions ? serving : undefined;
      }, 60_000);
      expect(moved).toEqual(current);
      await expectSameRows(moved.versions!);
      await expectServedFrom(moved.versions!);
      expect(await expectSameAnswers()).toEqual(before);
    }, 180_000);

    it('comes up on a store of layout 6 (versions documents apart) and moves to versions tables with their documents inline and content tables reading content_items\' documents, answering alike throughout', async () => {
      const current = (await registry()).serving!;
      // As layout 6 leaves the store: both tables keep their documents apart from the typed columns.
      const earlier = { collection: `${current.collection.slice(0, -8)}00000006`, versions: `${current.versions!.slice(0, -8)}00000006`, fields: current.fields };
      await readStore().ensureCollection(earlier.collection, [], tableColumns(current), { documentsApart: true });
      await readStore().ensureCollection(earlier.versions, [], versionColumns(current), { documentsApart: true });
      for (const [from, to] of [
        [current.collection, earlier.collection],
        [current.versions!, earlier.versions],
      ] as const) {
        const documents = await readStore().list<Document>(from, {});
        await readStore().apply(documents.map((document) => ({ kind: 'upsert', collection: to, document })));
      }
      await readStore().apply([{ kind: 'upsert', collection: CONTENT_TABLES, document: { ...(await registry()), wanted: earlier, serving: earlier } }]);
      await readStore().dropCollection(current.collection);
      await readStore().dropCollection(current.versions!);
      await expectServedFrom(earlier.versions);
      const before = await expectSameAnswers();

      service = await service.restart();
      api = client(service.url);
      const moved = await eventually(async () => {
        const serving = (await registry()).serving;
        return serving?.versions === current.versions ? serving : undefined;
      }, 60_000);
      expect(moved).toEqual(current);
      await expectSameRows(moved.versions!);
      await expectServedFrom(moved.versions!);
      expect(await expectSameAnswers()).toEqual(before);

      // Which tables hold documents (read from the store's catalog, with the service closed: PGlite is one process's):
      // the versions table inline, the content table none (since layout 8 they are content_items').
      await service.service.close();
      const sql = await openStoreSql(engine, service.environment);
      try {
        const apart = async (collection: string) => (await sql.query<{ found: string | null }>('select to_regclass($1)::text as found', [`"rm_${collection}-docs"`]))[0]!.found !== null;
        const inline = async (collection: string) => (await sql.query(`select 1 from information_schema.columns where table_name = $1 and column_name = 'doc'`, [`rm_${collection}`])).length > 0;
        expect({ content: await apart(moved.collection), versions: await apart(moved.versions!) }).toEqual({ content: false, versions: false });
        expect({ content: await inline(moved.collection), versions: await inline(moved.versions!) }).toEqual({ content: false, versions: true });
      } finally {
        await sql.close();
      }
      service = await service.restart();
      api = client(service.url);
    }, 180_000);
  });
}
