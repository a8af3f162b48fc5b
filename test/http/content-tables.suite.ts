import { comparePositions, type Position, positionFromString } from '../../infra/eventstore/port';
import { TOKENS } from '../../src/container';
import type { Document, IndexDefinition } from '../../infra/readstore/port';
import { CONTENT_ITEMS } from '../../projections/read-models/content-items';
import { CONTENT_TABLES } from '../../projections/read-models/content-tables';
import type { ContentTypeDocument } from '../../projections/read-models/content-types';
import { type ContentTableDocument, tableColumns, type TypedField } from '../../projections/content-tables/schema';
import { versionColumns } from '../../projections/content-tables/versions-schema';
import { RETIRED_CONTENT_TABLES } from '../../projections/content-tables/builder';
import { openStoreSql } from '../support/store-sql';
import { eventually } from '../support/waiting';
import { notBuiltAlready, QUERY_INDEX_GROUP, queryIndexDefinitions } from '../../projections/content-tables/query-indexes';
import { contentTypeStream } from '../../src/domain/content-type/events';
import type { QueryIndex } from '../../src/domain/content-type/query-indexes';
import type { PageRequest } from '../../queries/content';
import { client } from '../support/http';
import { seededRandom } from '../support/seeded-random';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';
import { deleteCheckpointEverywhere } from '../../projections/group-checkpoint';

const FIELDS = [
  { key: 'title', type: 'Text' },
  { key: 'body', type: 'RichText' },
  { key: 'price', type: 'Number' },
  { key: 'inStock', type: 'Boolean' },
  { key: 'releasedAt', type: 'DateTime' },
  { key: 'category', type: 'Text' },
  { key: 'meta', type: 'Json' },
  { key: 'name', type: 'Text', translatable: true },
  // No query uses it: retyped in a copy of the type, it makes that copy one no typed table answers (see fromDocuments).
  { key: 'spare', type: 'Number' },
];
const CATEGORIES = ['light', 'heavy', 'Light', 'misc'];
const WORDS = ['apple', 'Apricot', 'banana', 'blueberry', 'cherry', 'apple pie', '50% off', 'snake_case'];

type Api = ReturnType<typeof client>;
type Condition = { type: 'condition'; fieldKey: string; operator: string; value?: unknown; caseInsensitive?: boolean };
const where = (fieldKey: string, operator: string, value?: unknown, caseInsensitive?: boolean): Condition => ({ type: 'condition', fieldKey, operator, value, caseInsensitive });

/** Filters and orders covering each operator on each field type, with nulls and ties. */
const QUERIES: { name: string; filter?: unknown; order?: unknown }[] = [
  { name: 'equality + sort', filter: where('category', 'e', 'light'), order: { fieldKey: 'price', sortDir: 'desc' } },
  { name: 'range + sort', filter: { type: 'and', conditions: [where('price', 'gte', 20), where('price', 'lt', 70)] }, order: [{ fieldKey: 'releasedAt' }, { fieldKey: 'title', sortDir: 'desc' }] },
  { name: 'ne and nin match missing', filter: { type: 'and', conditions: [where('category', 'ne', 'misc'), where('title', 'nin', ['apple', 'banana'])] }, order: { fieldKey: 'title' } },
  { name: 'start', filter: where('title', 'start', 'ap'), order: { fieldKey: 'title' } },
  { name: 'start, case-insensitive', filter: where('title', 'start', 'AP', true), order: { fieldKey: 'createdAt', sortDir: 'desc' } },
  { name: 'contains on RichText', filter: where('body', 'contains', 'err'), order: { fieldKey: 'body' } },
  { name: 'contains % literally, case-insensitive', filter: where('title', 'contains', '% OFF', true) },
  { name: 'end', filter: where('title', 'end', 'case') },
  { name: 'noe and nnoe', filter: { type: 'or', conditions: [where('category', 'noe'), where('price', 'nnoe')] }, order: { fieldKey: 'category', sortDir: 'desc' } },
  { name: 'booleans, sorted', filter: where('inStock', 'e', true), order: [{ fieldKey: 'inStock' }, { fieldKey: 'price' }] },
  { name: 'dates', filter: where('releasedAt', 'gt', '2024-06-01T00:00:00Z'), order: { fieldKey: 'releasedAt', sortDir: 'desc' } },
  { name: 'not over a missing value', filter: { type: 'not', condition: where('price', 'gt', 50) }, order: { fieldKey: 'price' } },
  { name: 'in with null', filter: where('category', 'in', ['heavy', null]), order: { fieldKey: 'updatedAt' } },
  { name: 'Json field through the document', filter: where('meta', 'e', 'x') },
  { name: 'translatable field compares its invariant value', filter: where('name', 'e', 'Base 3') },
  { name: 'id and system fields', filter: where('publishedAt', 'nnoe'), order: { fieldKey: 'id', sortDir: 'desc' } },
  { name: 'no filter, no order' },
];

/** What PUT .../query-indexes answers for `{ indexes: [{ fields: ['category', { key: 'price', direction: 'desc' }] }, { fields: ['inStock', 'releasedAt'] }, { fields: ['publishedAt'] }] }`. */
const DECLARED: QueryIndex[] = [
  { fields: [{ key: 'category', direction: 'asc' }, { key: 'price', direction: 'desc' }] },
  { fields: [{ key: 'inStock', direction: 'asc' }, { key: 'releasedAt', direction: 'asc' }] },
  { fields: [{ key: 'publishedAt', direction: 'asc' }] },
  // The tie-breaker placed: a price range ordered by release date reads the index in the page's order.
  { fields: [{ key: 'releasedAt', direction: 'desc' }, { key: 'id', direction: 'asc' }, { key: 'price', direction: 'asc' }] },
];
/** As GET .../query-indexes lists them: each with who keeps it, nothing forbidden, and the indexes a write of a row updates (primary key, (stage, id), the item id's prefix index, the four). */
const LISTED = (declared: readonly QueryIndex[]) => ({ indexes: declared.map((index) => ({ ...index, origin: 'declared' })), forbidden: [], indexesPerWrite: 3 + declared.length });
/** The pages the declared indexes serve. */
const INDEXED_QUERIES: { filter: unknown; order: unknown }[] = [
  { filter: where('category', 'e', 'light'), order: { fieldKey: 'price', sortDir: 'desc' } },
  { filter: where('category', 'e', 'heavy'), order: { fieldKey: 'price' } },
  { filter: where('inStock', 'e', true), order: { fieldKey: 'releasedAt', sortDir: 'Desc' } },
  { filter: { type: 'and', conditions: [where('price', 'gte', 10), where('price', 'lt', 60)] }, order: { fieldKey: 'releasedAt', sortDir: 'Desc' } },
];

/** The indexes layout 4 gave a content table: a b-tree per system date and field, three text indexes per Text field. */
const LAYOUT_4_TABLE_INDEXES = (fields: readonly TypedField[]): IndexDefinition[] => {
  const paths = fields.map((field) => `fields.${field.key}`);
  const text = fields.filter((field) => field.type === 'Text' || field.type === 'RichText').map((field) => `fields.${field.key}`);
  return [
    { fields: ['stage', 'id'] },
    ...['itemId', 'createdAt', 'updatedAt', 'publishedAt', ...paths].map((path) => ({ fields: ['stage', path, 'id'] })),
    ...text.flatMap((path): IndexDefinition[] => [{ fields: ['stage', path], text: 'prefix' }, { fields: ['stage', path], text: 'prefix-folded' }, { fields: [path], text: 'substring' }]),
    { fields: ['stage', 'itemId'], text: 'prefix' },
  ];
};
/** And a versions table: validity, then a b-tree per system column and field ending in the validity, and the text indexes. */
const LAYOUT_4_VERSION_INDEXES = (fields: readonly TypedField[]): IndexDefinition[] => {
  const validity = ['validFromMs', 'validUntilMs'];
  const text = fields.filter((field) => field.type === 'Text' || field.type === 'RichText').map((field) => `fields.${field.key}`);
  return [
    { fields: validity },
    { fields: ['validUntilMs', 'validFromMs'] },
    { fields: ['id', ...validity] },
    ...['itemId', 'createdAt', 'updatedAt', 'publishedAt', ...fields.map((field) => `fields.${field.key}`)].map((path) => ({ fields: [path, 'id', ...validity] })),
    ...text.flatMap((path): IndexDefinition[] => [{ fields: [path], text: 'prefix' }, { fields: [path], text: 'prefix-folded' }, { fields: [path], text: 'substring' }]),
    { fields: ['itemId'], text: 'prefix' },
  ];
};

async function seedItems(api: Api, writeKey: string, count: number, seed: number): Promise<string[]> {
  const random = seededRandom(seed);
  const ids: string[] = [];
  for (let index = 0; index < count; index++) {
    const fields: Record<string, unknown> = { name: `Base ${index % 5}` };
    if (random.chance(0.9)) fields.title = random.pick(WORDS);
    if (random.chance(0.8)) fields.body = `<p>${random.pick(WORDS)} ${random.pick(WORDS)}</p>`;
    if (random.chance(0.85)) fields.price = random.int(100) + (random.chance(0.3) ? 0.5 : 0);
    if (random.chance(0.9)) fields.inStock = random.chance(0.5);
    if (random.chance(0.8)) fields.releasedAt = new Date(Date.UTC(2024, random.int(12), 1 + random.int(28))).toISOString();
    if (random.chance(0.85)) fields.category = random.pick([...CATEGORIES, '']);
    if (random.chance(0.3)) fields.meta = random.pick(['x', 1, { nested: true }]);
    const saved = await api('PUT', '/v2/contents/Product', { key: writeKey, body: { fields, translations: { name: { en: `Translated ${index}` } } } });
    expect({ status: saved.status, body: saved.status === 200 ? null : saved.body }).toEqual({ status: 200, body: null });
    ids.push(saved.body.id);
    if (index % 4 === 0) await api('PUT', '/v2/preview-contents/Product', { key: writeKey, body: { id: saved.body.id, fields: { ...fields, title: 'draft only' } } });
  }
  return ids;
}

export function describeContentTables(engine: Engine): void {
  describe(`typed content tables (${engine})`, () => {
    let service: TestService;
    let api: Api;

    const container = () => service.service.container;
    const builder = () => container().resolve(TOKENS.contentTables);
    const readStore = () => container().resolve(TOKENS.readStore);
    const registry = () => readStore().get<ContentTableDocument>(CONTENT_TABLES, `${service.workspaceId}:Product`);
    const typeDocument = async () => (await container().resolve(TOKENS.http).contentTypeQueries.get(service.workspaceId, 'Product'))!;

    /** The answer content_items gives: the same query for a type with a field retyped, which no typed table answers. */
    async function fromDocuments(request: PageRequest, stage: 'draft' | 'published') {
      const type = await typeDocument();
      const untyped: ContentTypeDocument = { ...type, fields: type.fields.map((field) => (field.key === 'spare' ? { ...field, type: 'Text' } : field)) };
      const found = await container().resolve(TOKENS.http).content.queries.search(service.workspaceId, untyped, stage, request);
      return { ids: found.items.map((item) => item.itemId), total: found.total };
    }

    async function fromApi(path: string, request: PageRequest) {
      const answer = await api('POST', `${path}/Product`, { key: service.readKey, body: request });
      expect(answer.status).toBe(200);
      return { ids: answer.body.items.map((item: { id: string }) => item.id), total: answer.body.total };
    }

    async function expectSameAnswers(): Promise<void> {
      for (const query of QUERIES) {
        for (const [path, stage] of [['/v2/contents', 'published'], ['/v2/preview-contents', 'draft']] as const) {
          for (const page of [1, 2]) {
            const request = { filter: query.filter, order: query.order, page, pageSize: 7 };
            const expected = await fromDocuments(request, stage);
            expect({ query: query.name, stage, page, ...(await fromApi(path, request)) }).toEqual({ query: query.name, stage, page, ...expected });
          }
        }
      }
    }

    const queryIndexesPath = (workspaceId = service.workspaceId, type = 'Product') => `/admin/workspaces/${workspaceId}/content-types/${type}/query-indexes`;
    const declare = (body: unknown, path = queryIndexesPath()) => api('PUT', path, { bearer: ADMIN_TOKEN, body });

    /** Asked again, the store has nothing to create or drop: the builder built exactly `declared` on the serving table. */
    async function expectDeclaredIndexesBuilt(declared: readonly QueryIndex[]): Promise<void> {
      const serving = (await registry())!.serving!;
      const indexes = queryIndexDefinitions(declared, serving);
      expect(indexes).toHaveLength(declared.length);
      // The lean table has no index per field: each declared one is built.
      const built = notBuiltAlready(indexes);
      expect(built).toHaveLength(declared.length);
      expect(await readStore().ensureIndexes(serving.collection, QUERY_INDEX_GROUP, built)).toEqual({ created: [], dropped: [] });
    }

    const indexedAnswers = async () => {
      const answers = [];
      for (const query of INDEXED_QUERIES) {
        for (const path of ['/v2/contents', '/v2/preview-contents']) for (const page of [1, 2]) answers.push(await fromApi(path, { ...query, page, pageSize: 5 }));
      }
      return answers;
    };

    const aggregates = async () => {
      const read = { key: service.readKey };
      const filter = where('price', 'gte', 10);
      return {
        sum: (await api('POST', '/v2/contents/Product/aggregate', { ...read, body: { fieldKey: 'price', aggregateType: 'Sum', filter } })).body,
        count: (await api('POST', '/contents/Product/aggregate', { ...read, body: { fieldKey: 'category', aggregateType: 'Count' } })).body,
        groups: (await api('POST', '/v2/contents/Product/aggregategroup', { ...read, body: { fieldKey: 'price', aggregateType: 'Avg', groupByFieldKey: 'category', filter } })).body,
        booleanGroups: (await api('POST', '/v2/preview-contents/Product/aggregategroup', { ...read, body: { fieldKey: 'price', aggregateType: 'Max', groupByFieldKey: 'inStock' } })).body,
        ids: (await api('POST', '/v2/contents/Product/ids', { ...read, body: { filter: where('title', 'start', 'b'), order: { fieldKey: 'price' }, page: 1, pageSize: 5 } })).body,
      };
    };

    beforeAll(async () => {
      // The query indexes here are the test's own: no advised one may come between its checks (query-advisor.suite.ts tests the advisor).
      service = await startTestService(engine, { QUERY_ADVISOR: 'false' });
      api = client(service.url);
      // The test runs the builder's passes itself, to look at both sides of each switch.
      await builder().stop();
      expect((await api('PUT', '/locales', { key: service.writeKey, body: { code: 'en', name: 'English' } })).status).toBe(200);
      expect((await api('PUT', '/content-types', { key: service.writeKey, body: { name: 'Product', key: 'Product', fields: FIELDS } })).status).toBe(200);
      await seedItems(api, service.writeKey, 40, 7);
    });
    afterAll(() => service.close());

    it('builds the type table by replay and answers every filter, order, page and aggregate as content_items does', async () => {
      expect((await registry())?.serving).toBeNull();
      const before = await aggregates();
      await expectSameAnswers();

      await builder().runOnce();
      const entry = (await registry())!;
      expect(entry.serving).toEqual(entry.wanted);
      expect(await readStore().count(entry.serving!.collection, {})).toBe(await readStore().count(CONTENT_ITEMS, { filter: { type: 'condition', field: 'contentType', operator: 'e', value: 'Product' } }));
      expect(builder().status).toMatchObject({ state: 'succeeded', phase: 'done', fraction: 1, tables: [entry.serving!.collection, entry.serving!.versions] });

      await expectSameAnswers();
      expect(await aggregates()).toEqual(before);

      // A translatable field filters (and sorts) by its invariant value, `fields.name`, never by a translation.
      const byName = (value: string) => fromApi('/v2/contents', { filter: where('name', 'e', value), page: 1, pageSize: 100 });
      expect((await byName('Base 3')).total).toBe(8);
      expect((await byName('Translated 3')).total).toBe(0);

      const status = await api('GET', '/admin/projections', { bearer: ADMIN_TOKEN });
      expect(status.body.contentTables.tables).toEqual([
        { workspaceId: service.workspaceId, contentType: 'Product', state: 'serving', servingTable: entry.serving!.collection, wantedTable: entry.serving!.collection, queryIndexes: 'none' },
      ]);
      expect(status.body.contentTables.build).toMatchObject({ state: 'succeeded', fraction: 1 });
      const metrics = await api('GET', '/metrics');
      expect(metrics.body).toContain('content_table_builds_total{outcome="succeeded"} 1');
      expect(metrics.body).toContain('content_table_build_progress 1');
    });

    it('mirrors later writes, publishes, unpublishes and deletes into the table', async () => {
      const ids = await seedItems(api, service.writeKey, 6, 11);
      await api('PUT', `/contents/Product/${ids[0]}/unpublish`, { key: service.writeKey });
      await api('DELETE', `/v2/contents/Product/${ids[1]}`, { key: service.writeKey });
      await api('PUT', '/v2/contents/Product', { key: service.writeKey, body: { id: ids[2], fields: { title: 'apple', price: 55, category: 'light' } } });
      const table = (await registry())!.serving!.collection;
      expect(await readStore().count(table, {})).toBe(await readStore().count(CONTENT_ITEMS, { filter: { type: 'condition', field: 'contentType', operator: 'e', value: 'Product' } }));
      await expectSameAnswers();
    });

    it('builds declared query indexes on the serving table without a rebuild, recorded as an event; answers stay the same', async () => {
      // As a version before query indexes left the registry: the entry has no queryIndexes.
      const { queryIndexes: _none, ...earlier } = (await registry())!;
      await readStore().apply([{ kind: 'upsert', collection: CONTENT_TABLES, document: earlier }]);
      await builder().runOnce();
      const serving = (await registry())!.serving!;
      const before = await indexedAnswers();
      const events = () => container().resolve(TOKENS.eventStore).readStream(contentTypeStream(service.workspaceId, 'Product'));
      expect(await api('GET', queryIndexesPath(), { bearer: ADMIN_TOKEN })).toMatchObject({ status: 200, body: { indexes: [], state: 'none' } });

      const body = {
        indexes: [
          { fields: ['category', { key: 'price', direction: 'desc' }] },
          { fields: ['inStock', 'releasedAt'] },
          { fields: ['publishedAt'] },
          { fields: [{ key: 'releasedAt', direction: 'desc' }, 'id', 'price'] },
        ],
      };
      // Declared, not built yet: the builder's next pass builds them.
      expect(await declare(body)).toMatchObject({ status: 200, body: { ...LISTED(DECLARED), state: 'building' } });
      expect((await api('GET', queryIndexesPath(), { bearer: ADMIN_TOKEN })).body).toEqual({ ...LISTED(DECLARED), state: 'building' });
      const recorded = await events();
      expect(recorded.at(-1)).toMatchObject({ type: 'ContentTypeQueryIndexesDeclared', data: { key: 'Product', indexes: DECLARED }, metadata: { actor: expect.stringMatching(/^admin/) } });
      // The list already declared, again: nothing changes, nothing is recorded.
      expect((await declare(body)).status).toBe(200);
      expect(await events()).toHaveLength(recorded.length);
      // As a version before this one built the id-placed declaration on a serving table: `id` meant the item id, and a second id ended the index.
      const earlierBuild = { fields: ['stage', 'fields.releasedAt', 'itemId', 'fields.price', 'id'], descending: ['fields.releasedAt'] };
      expect((await readStore().ensureIndexes(serving.collection, QUERY_INDEX_GROUP, [earlierBuild])).created).toHaveLength(1);

      await builder().runOnce();
      expect((await registry())!.serving).toEqual(serving);
      // Exactly the declared ones: the earlier build was dropped, without a rebuild.
      await expectDeclaredIndexesBuilt(DECLARED);
      expect((await api('GET', queryIndexesPath(), { bearer: ADMIN_TOKEN })).body).toEqual({ ...LISTED(DECLARED), state: 'built' });
      expect((await api('GET', '/admin/projections', { bearer: ADMIN_TOKEN })).body.contentTables.tables).toEqual([expect.objectContaining({ contentType: 'Product', queryIndexes: 'built' })]);
      expect(await indexedAnswers()).toEqual(before);
      await expectSameAnswers();
      // The totals of equality on a declared index's first field now come from kept counts: exact through writes of every kind.
      const written = await seedItems(api, service.writeKey, 5, 23);
      await api('PUT', '/v2/contents/Product', { key: service.writeKey, body: { id: written[0], fields: { title: 'moved', price: 3, category: 'heavy', inStock: false } } });
      await api('PUT', `/contents/Product/${written[1]}/unpublish`, { key: service.writeKey });
      await api('DELETE', `/v2/contents/Product/${written[2]}`, { key: service.writeKey });
      await expectSameAnswers();
      const afterWrites = await indexedAnswers();

      // A shorter list: the indexes no longer declared are dropped, again without a rebuild.
      expect((await declare({ indexes: [body.indexes[0], body.indexes[1]] })).status).toBe(200);
      await builder().runOnce();
      expect((await registry())!.serving).toEqual(serving);
      await expectDeclaredIndexesBuilt(DECLARED.slice(0, 2));
      expect(await indexedAnswers()).toEqual(afterWrites);
      await expectSameAnswers();
    });

    it('refuses query indexes on unknown or untyped fields, repeated ones and too many (400), of unknown workspaces and types (404), without the admin token (401)', async () => {
      const declared = (await api('GET', queryIndexesPath(), { bearer: ADMIN_TOKEN })).body;
      const nine = ['title', 'body', 'price', 'inStock', 'releasedAt', 'category', 'name', 'spare', 'createdAt'].map((key) => ({ fields: [key] }));
      const refused: [unknown, string][] = [
        [{ indexes: [{ fields: ['category', 'nope'] }] }, 'indexes.0.fields.1'],
        [{ indexes: [{ fields: ['meta', 'price'] }] }, 'indexes.0.fields.0'],
        [{ indexes: [{ fields: ['title', 'title'] }] }, 'indexes.0.fields.1'],
        [{ indexes: [{ fields: ['title'] }, { fields: [{ key: 'title' }] }] }, 'indexes.1'],
        [{ indexes: [{ fields: ['title', 'price', 'category', 'inStock'] }] }, 'indexes.0.fields'],
        [{ indexes: [{ fields: [] }] }, 'indexes.0.fields'],
        [{ indexes: nine }, 'indexes'],
        [{ indexes: [{ fields: [{ key: 'price', direction: 'down' }] }] }, 'indexes.0.fields.0'],
        [{}, 'indexes'],
      ];
      for (const [body, field] of refused) {
        const answer = await declare(body);
        expect({ body, status: answer.status, fields: answer.body.errors?.map((error: { field: string }) => error.field) }).toEqual({ body, status: 400, fields: expect.arrayContaining([expect.stringMatching(new RegExp(`^${field.replace(/\./g, '\\.')}`))]) });
      }
      expect((await declare({ indexes: nine.slice(0, 8) })).status).toBe(200);
      expect((await declare({ indexes: declared.indexes })).status).toBe(200);
      expect((await api('GET', queryIndexesPath(), { bearer: ADMIN_TOKEN })).body).toEqual(declared);

      for (const path of [queryIndexesPath('no-such-workspace'), queryIndexesPath(service.workspaceId, 'NoSuchType')]) {
        expect((await declare({ indexes: [] }, path)).status).toBe(404);
        expect((await api('GET', path, { bearer: ADMIN_TOKEN })).status).toBe(404);
      }
      expect((await api('GET', queryIndexesPath(), { key: service.writeKey })).status).toBe(401);
      expect((await api('PUT', queryIndexesPath(), { key: service.writeKey, body: { indexes: [] } })).status).toBe(401);
    });

    it('on a field change keeps answering (from the old table, a new field read from the document), builds the new table by replay with writes arriving meanwhile, then switches', async () => {
      const old = (await registry())!.serving!;
      // A field added, and one retyped (Json to Text: the values queried are strings, which both read models compare alike).
      const fields = [...FIELDS.filter((field) => field.key !== 'meta'), { key: 'meta', type: 'Text' }, { key: 'rating', type: 'Number' }];
      expect((await api('PUT', '/content-types', { key: service.writeKey, body: { name: 'Product', key: 'Product', fields } })).status).toBe(200);
      const changed = (await registry())!;
      expect(changed.serving).toEqual(old);
      expect(changed.wanted!.collection).not.toBe(old.collection);
      const status = await api('GET', '/admin/projections', { bearer: ADMIN_TOKEN });
      expect(status.body.contentTables.tables).toEqual([expect.objectContaining({ contentType: 'Product', state: 'building', servingTable: old.collection })]);

      const rated = await api('PUT', '/v2/contents/Product', { key: service.writeKey, body: { fields: { title: 'rated', rating: 4 } } });
      const byRating = { filter: where('rating', 'gte', 3), page: 1, pageSize: 10 };
      expect(await fromApi('/v2/contents', byRating)).toEqual({ ids: [rated.body.id], total: 1 });

      // A write while the new table is indexed is replayed into it before the switch's pause (which writers wait through), not during it.
      const events = container().resolve(TOKENS.eventStore);
      const store = readStore();
      const analyze = store.analyzeCollection.bind(store);
      let writtenWhileIndexed: Position | null = null;
      const analyzing = jest.spyOn(store, 'analyzeCollection').mockImplementationOnce(async (name) => {
        expect((await api('PUT', '/v2/contents/Product', { key: service.writeKey, body: { fields: { title: 'while indexed', rating: 1 } } })).status).toBe(200);
        writtenWhileIndexed = await events.headPosition();
        return analyze(name);
      });
      const projections = container().resolve(TOKENS.projections);
      const pause = projections.pause.bind(projections);
      let replayedAtPause: Position | null = null;
      const pausing = jest.spyOn(projections, 'pause').mockImplementationOnce(() => {
        replayedAtPause = positionFromString(builder().status!.position);
        return pause();
      });
      const building = builder().runOnce();
      const during: string[] = [];
      for (let index = 0; index < 5; index++) {
        const saved = await api('PUT', '/v2/contents/Product', { key: service.writeKey, body: { fields: { title: `during ${index}`, rating: 5 + index } } });
        during.push(saved.body.id);
        const answer = await fromApi('/v2/contents', byRating);
        expect(answer.ids).toEqual(expect.arrayContaining([rated.body.id, ...during]));
      }
      await building;
      analyzing.mockRestore();
      pausing.mockRestore();
      expect(comparePositions(replayedAtPause!, writtenWhileIndexed!)).toBeGreaterThanOrEqual(0);
      const switched = (await registry())!;
      expect(switched.serving).toEqual(switched.wanted);
      expect(switched.serving!.collection).not.toBe(old.collection);
      const answer = await fromApi('/v2/contents', { ...byRating, order: { fieldKey: 'rating', sortDir: 'desc' } });
      expect(answer).toEqual({ ids: [...during].reverse().concat(rated.body.id), total: 6 });
      await expectSameAnswers();
      // The new table got the declared indexes after its load, with the others.
      await expectDeclaredIndexesBuilt(DECLARED.slice(0, 2));
      // The old table serves no more; it is dropped after a grace period for queries that read the registry before the switch.
      expect(await readStore().get(CONTENT_TABLES, `${service.workspaceId}:Product`)).toMatchObject({ serving: { collection: switched.serving!.collection } });
    });

    it('moves to a new table layout on upgrade: the earlier table serves until the table of this layout is built, with the same answers', async () => {
      const current = (await registry())!;
      // As an earlier layout version leaves the store: the registry names a table this version no longer builds,
      // with the typed columns beside the documents in one table (layouts 5 and earlier).
      const earlier = { collection: `${current.serving!.collection.slice(0, -8)}00000001`, fields: current.serving!.fields };
      await readStore().ensureCollection(earlier.collection, [], tableColumns(current.serving!));
      const documents = await readStore().list<Document>(current.serving!.collection, {});
      expect(documents.length).toBeGreaterThan(40);
      await readStore().apply(documents.map((document) => ({ kind: 'upsert', collection: earlier.collection, document })));
      await readStore().apply([{ kind: 'upsert', collection: CONTENT_TABLES, document: { ...current, wanted: earlier, serving: earlier } }]);
      await readStore().dropCollection(current.serving!.collection);
      const before = await aggregates();
      await expectSameAnswers();

      await builder().runOnce();
      const moved = (await registry())!;
      expect(moved.serving).toEqual(current.serving);
      expect(await readStore().count(moved.serving!.collection, {})).toBe(documents.length);
      await expectSameAnswers();
      expect(await aggregates()).toEqual(before);
      const status = await api('GET', '/admin/projections', { bearer: ADMIN_TOKEN });
      expect(status.body.contentTables.tables).toEqual([expect.objectContaining({ state: 'serving', servingTable: current.serving!.collection })]);
    });

    it('upgrades a populated store from per-field indexes (layout 4) to the lean layout on restart, serving the same answers throughout', async () => {
      const current = (await registry())!;
      const fields = current.serving!.fields;
      // As layout 4 left the store: both tables under that layout's names, every field indexed.
      const earlier = { collection: `${current.serving!.collection.slice(0, -8)}00000004`, versions: `${current.serving!.versions!.slice(0, -8)}00000004`, fields };
      for (const [from, to, columns, indexes] of [
        [current.serving!.collection, earlier.collection, tableColumns(current.serving!), LAYOUT_4_TABLE_INDEXES(fields)],
        [current.serving!.versions!, earlier.versions, versionColumns(current.serving!), LAYOUT_4_VERSION_INDEXES(fields)],
      ] as const) {
        await readStore().ensureCollection(to, indexes, columns);
        const documents = await readStore().list<Document>(from, {});
        await readStore().apply(documents.map((document) => ({ kind: 'upsert', collection: to, document })));
        await readStore().dropCollection(from);
      }
      await readStore().apply([{ kind: 'upsert', collection: CONTENT_TABLES, document: { ...current, wanted: earlier, serving: earlier } }]);
      const before = await aggregates();
      await expectSameAnswers();

      // The new version starts on this store; its builder relays and builds in the background while the layout 4 tables serve.
      service = await service.restart();
      api = client(service.url);
      const upgraded = await eventually(async () => {
        expect(await aggregates()).toEqual(before);
        const entry = (await registry())!;
        return entry.serving?.collection === current.serving!.collection ? entry : undefined;
      }, 60_000);
      // The test runs the builder's passes itself again.
      await builder().stop();
      expect(upgraded.serving).toEqual(current.serving);
      await expectSameAnswers();
      expect(await aggregates()).toEqual(before);
      await expectDeclaredIndexesBuilt(DECLARED.slice(0, 2));
      expect(await readStore().list(RETIRED_CONTENT_TABLES, {})).toEqual(expect.arrayContaining([expect.objectContaining({ id: earlier.collection }), expect.objectContaining({ id: earlier.versions })]));

      // Lean: the primary key, (stage, id), the item id's prefix and the two declared; the versions table its primary key and three validity indexes.
      // The layout 4 table (retired, dropped after a grace period) had its primary key, its own 31 and the two declared (brought in line while it served).
      const tables = [upgraded.serving!.collection, upgraded.serving!.versions!, earlier.collection].map((table) => `rm_${table}`);
      if (engine === 'pglite') await service.service.close();
      try {
        const sql = await openStoreSql(engine, service.environment);
        try {
          const counts = await sql.query<{ table: string; indexes: number }>(`select tablename as table, count(*)::int as indexes from pg_indexes where tablename = any($1) group by tablename`, [tables]);
          expect(Object.fromEntries(counts.map((row) => [row.table, row.indexes]))).toEqual({ [tables[0]!]: 5, [tables[1]!]: 4, [tables[2]!]: 1 + LAYOUT_4_TABLE_INDEXES(fields).length + 2 });
        } finally {
          await sql.close();
        }
      } finally {
        if (engine === 'pglite') {
          service = await service.restart();
          api = client(service.url);
          await builder().stop();
        }
      }
    });

    it('is added to a store that already holds items (an upgrade): backfilled, then built, answering correctly throughout', async () => {
      const projections = container().resolve(TOKENS.projections);
      const rebuilds = container().resolve(TOKENS.rebuilds);
      const tables = projections.projectors.find((projector) => projector.name === 'content_tables')!;
      const expectedIds = await fromDocuments({ filter: where('price', 'gte', 30), order: { fieldKey: 'price' }, page: 1, pageSize: 500 }, 'published');
      const byPrice = { filter: where('price', 'gte', 30), order: { fieldKey: 'price' }, page: 1, pageSize: 500 };

      // As a version without typed tables leaves the store: no registry, no tables, no checkpoint.
      await projections.stop();
      const serving = (await registry())!.serving!.collection;
      await readStore().dropCollection(serving);
      for (const collection of tables.collections) await readStore().dropCollection(collection.name);
      await deleteCheckpointEverywhere(readStore(), tables.name);
      await rebuilds.startProjections();
      expect(await fromApi('/v2/contents', byPrice)).toEqual(expectedIds);
      const written = await api('PUT', '/v2/contents/Product', { key: service.writeKey, body: { fields: { title: 'during the upgrade', price: 31 } } });
      expect(written.status).toBe(200);

      for (let waited = 0; rebuilds.status?.state === 'running' && waited < 15_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
      // It reads content_items and published_versions as they stood at each event: they are replayed with it (and swapped in at the head, never behind).
      expect(rebuilds.status).toMatchObject({ state: 'succeeded', projections: ['content_items', 'content_tables', 'published_versions'] });
      expect((await registry())?.serving).toBeNull();
      const withWrite = await fromDocuments(byPrice, 'published');
      expect(withWrite.ids).toContain(written.body.id);
      expect(await fromApi('/v2/contents', byPrice)).toEqual(withWrite);

      // Replayed from the log, the registry holds the declared indexes again.
      expect((await registry())?.queryIndexes).toEqual(DECLARED.slice(0, 2));

      await builder().runOnce();
      expect((await registry())!.serving!.collection).toBe(serving);
      await expectDeclaredIndexesBuilt(DECLARED.slice(0, 2));
      expect(await fromApi('/v2/contents', byPrice)).toEqual(withWrite);
      await expectSameAnswers();
    });
  });
}
