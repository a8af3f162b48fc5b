import { randomBytes, randomUUID } from 'node:crypto';
import type { AppendRequest } from '../../infra/eventstore/port';
import type { ReadStore } from '../../infra/readstore/port';
import type { FindQuery, Filter } from '../../infra/readstore/query';
import { CONTENT_TABLES } from '../../projections/read-models/content-tables';
import type { ContentTableDocument } from '../../projections/content-tables/schema';
import { contentStream } from '../../src/domain/content/events';
import { TOKENS } from '../../src/container';
import { client } from '../support/http';
import { pagePlan, statementPlan } from '../support/query-plans';
import { seededRandom } from '../support/seeded-random';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';
import { openStoreSql } from '../support/store-sql';
import { delay, eventually } from '../support/waiting';

const ITEMS = 3000;
const CATEGORIES = Array.from({ length: 10 }, (_, index) => `c${index}`);
/** Small thresholds, so a test's few dozen queries make a shape frequent; every query counts as slow. */
const ADVISOR = {
  QUERY_CACHE: 'false',
  QUERY_ADVISOR_MIN_COUNT: '15',
  QUERY_ADVISOR_MIN_MEAN_MS: '0',
  QUERY_ADVISOR_INTERVAL_MS: '200',
  QUERY_ADVISOR_DROP_UNUSED_MS: '3600000',
};

type Condition = { type: 'condition'; fieldKey: string; operator: string; value?: unknown };
const where = (fieldKey: string, operator: string, value?: unknown): Condition => ({ type: 'condition', fieldKey, operator, value });

/**
 * The query index advisor end to end, over a real socket: a new filter + sort shape asked again
 * and again against a few thousand items makes the service declare the index that serves it (an
 * event of the actor system, in the audit feed and the type's log), the page's plan then reads
 * that index, the shapes are listed through the admin API; a forbid, or the advisor turned off,
 * keeps it from declaring; an advised index nothing reads is dropped after the configured time.
 */
export function describeQueryAdvisor(engine: Engine): void {
  describe(`query index advisor (${engine})`, () => {
    let service: TestService;
    let api: ReturnType<typeof client>;
    const admin = { bearer: ADMIN_TOKEN };
    const typePath = () => `/admin/workspaces/${service.workspaceId}/content-types/Product`;
    const indexes = async () => (await api('GET', `${typePath()}/query-indexes`, admin)).body;
    const shapes = async () => (await api('GET', `${typePath()}/query-shapes`, admin)).body;
    const registry = async () => (await service.service.container.resolve(TOKENS.readStore).get<ContentTableDocument>(CONTENT_TABLES, `${service.workspaceId}:Product`))!;
    const systemDeclarations = async () =>
      (await api('GET', `/admin/workspaces/${service.workspaceId}/audit?type=ContentTypeQueryIndexesDeclared&actorKind=system`, admin)).body.items as { stream: string; summary: { reason?: string } }[];
    const restart = async (environment: Record<string, string>) => {
      service = await service.restart(environment);
      api = client(service.url);
    };

    const list = async (filter: unknown, order: unknown) => {
      const answer = await api('POST', '/v2/contents/Product', { key: service.readKey, body: { filter, order, page: 1, pageSize: 20 } });
      expect(answer.status).toBe(200);
      return answer.body as { items: { fields: Record<string, unknown> }[]; total: number };
    };
    /** The filter + sort shape of the test: a page of one category, dearest first. */
    const byCategory = (index: number) => list(where('category', 'e', CATEGORIES[index % CATEGORIES.length]), { fieldKey: 'price', sortDir: 'Desc' });
    const categoryByPrice = { fields: [{ key: 'category', direction: 'asc' }, { key: 'price', direction: 'desc' }] };

    /** Reads a plan on the type's serving table beside the service (PGlite is one process per data directory: the service steps aside meanwhile). */
    async function planOn(read: (sql: Awaited<ReturnType<typeof openStoreSql>>, table: string) => Promise<string>): Promise<string> {
      const table = (await registry()).serving!.collection;
      if (engine === 'pglite') await service.service.close();
      const sql = await openStoreSql(engine, service.environment);
      try {
        return await read(sql, table);
      } finally {
        await sql.close();
        if (engine === 'pglite') await restart({});
      }
    }
    const published: Filter = { type: 'condition', field: 'stage', operator: 'e', value: 'published' };
    /** The page the service reads for `category = c3 order by price desc` (the neutral query ContentQueries compiles for a typed table). */
    const categoryPage: FindQuery = {
      filter: { type: 'and', conditions: [published, { type: 'condition', field: 'fields.category', operator: 'e', value: 'c3' }] },
      sort: [{ field: 'fields.price', direction: 'desc' }],
      offset: 0,
      limit: 20,
    };
    const planOfCategoryPage = () => planOn((sql, table) => pagePlan(sql, table, categoryPage));
    /** The sum of price by a field over a price range, as the service asks it. */
    const priceSumsBy = (groupBy: string) => (store: ReadStore, table: string) =>
      store.aggregateGroups(table, {
        filter: { type: 'and', conditions: [published, { type: 'condition', field: 'fields.price', operator: 'gte', value: 100 }, { type: 'condition', field: 'fields.price', operator: 'lt', value: 300 }] },
        field: 'fields.price',
        operation: 'sum',
        groupBy,
      });
    const ratingSums = priceSumsBy('fields.rating');
    const advisedFields = async () => ((await indexes()).indexes as { fields: unknown; origin: string }[]).filter((index) => index.origin === 'advised').map((index) => index.fields);

    beforeAll(async () => {
      service = await startTestService(engine, ADVISOR);
      api = client(service.url);
      const fields = [
        { key: 'title', type: 'Text' },
        { key: 'category', type: 'Text' },
        { key: 'price', type: 'Number' },
        { key: 'releasedAt', type: 'DateTime' },
        { key: 'rating', type: 'Number' },
      ];
      expect((await api('PUT', '/content-types', { key: service.writeKey, body: { name: 'Product', key: 'Product', fields } })).status).toBe(200);
      // A few thousand published items, appended to the log as the write API appends them (a draft saved, then published), in one call.
      const random = seededRandom(27);
      const metadata = { workspaceId: service.workspaceId, actor: 'system', correlationId: randomUUID(), timestamp: new Date().toISOString() };
      const requests: AppendRequest[] = Array.from({ length: ITEMS }, (_, index) => {
        const itemId = randomUUID();
        const values = {
          title: `item ${index}`,
          category: random.pick(CATEGORIES),
          price: random.int(1000),
          releasedAt: new Date(Date.UTC(2024, random.int(12), 1 + random.int(28))).toISOString(),
          rating: 1 + random.int(5),
        };
        const item = { workspaceId: service.workspaceId, itemId, contentType: 'Product', fields: values, translations: {} };
        return {
          stream: contentStream(service.workspaceId, itemId),
          expectedRevision: 'no_stream',
          events: [
            { type: 'ContentDraftSaved', data: { ...item, created: true }, metadata },
            { type: 'ContentPublished', data: { ...item, firstPublish: true }, metadata },
          ],
        };
      });
      await service.service.container.resolve(TOKENS.eventStore).appendMany(requests);
      // Projected, and the type's lean table built and serving.
      await eventually(async () => (await list(undefined, undefined)).total === ITEMS, 60_000);
      await eventually(async () => (await registry()).serving !== null, 60_000);
    }, 180_000);

    afterAll(() => service.close());

    it('declares the index of a frequent filter + sort shape as the system, in the audit feed and the type\'s log; the page\'s plan then reads it', async () => {
      const lean = await planOfCategoryPage();
      expect(lean).not.toMatch(/_q_/);
      expect(lean).toMatch(/Sort/);

      const first = await byCategory(3);
      expect(first.items.every((item) => item.fields.category === 'c3')).toBe(true);
      for (let index = 0; index < 20; index++) await byCategory(index);
      const advised = await eventually(async () => {
        const listed = await indexes();
        return listed.state === 'built' && listed.indexes.length === 1 ? listed : undefined;
      }, 30_000);
      expect(advised.indexes).toEqual([{ ...categoryByPrice, origin: 'advised', advisedAt: expect.any(String) }]);

      const [declaration] = await systemDeclarations();
      expect(declaration).toMatchObject({ stream: `contenttype-${service.workspaceId}-Product`, summary: { reason: expect.stringMatching(/queries in at most \d+ min, [\d.]+ ms each on average: list where category e order price desc$/) } });
      // The type's own log (its stream) says so too.
      const typeLog = (await api('GET', `/admin/workspaces/${service.workspaceId}/audit?stream=${encodeURIComponent(`contenttype-${service.workspaceId}-Product`)}`, admin)).body.items;
      expect(typeLog.map((entry: { type: string; actorKind: string }) => [entry.type, entry.actorKind])).toEqual([
        ['ContentTypeSaved', 'apiKey'],
        ['ContentTypeQueryIndexesDeclared', 'system'],
      ]);

      // The shapes this instance served, with their cost; this one now served by the advised index.
      const recorded = (await shapes()).shapes;
      expect(recorded).toContainEqual(
        expect.objectContaining({ kind: 'list', filter: 'category e', order: [{ fieldKey: 'price', direction: 'desc' }], count: 21, status: 'indexed', servedBy: 'advised', index: categoryByPrice }),
      );
      expect(recorded.find((shape: { filter: string }) => shape.filter === 'category e').meanMs).toBeGreaterThan(0);

      const plan = await planOfCategoryPage();
      expect(plan).toMatch(/Index Scan using rm_ct_\w+_q_\w+/);
      expect(plan).not.toMatch(/Sort/);
      expect(await byCategory(3)).toEqual(first);
    }, 120_000);

    it('covers a grouped aggregate over a range: the sums are then read from the index alone', async () => {
      const sums = () => api('POST', '/v2/contents/Product/aggregategroup', { key: service.readKey, body: { fieldKey: 'price', aggregateType: 'Sum', groupByFieldKey: 'rating', filter: { type: 'and', conditions: [where('price', 'gte', 100), where('price', 'lt', 300)] } } });
      const first = await sums();
      expect(first.status).toBe(200);
      expect(first.body.items).toHaveLength(5);
      // Before: the rows are read from the table (through whichever index narrows the range best).
      expect(await planOn((sql, table) => statementPlan(sql, (store) => ratingSums(store, table), (text) => text.includes('group by')))).not.toMatch(/Index Only Scan/);
      for (let index = 0; index < 20; index++) await sums();
      const priceRating = [{ key: 'price', direction: 'asc' }, { key: 'rating', direction: 'asc' }];
      await eventually(async () => (await advisedFields()).length === 2 && (await indexes()).state === 'built', 30_000);
      expect(await advisedFields()).toEqual([categoryByPrice.fields, priceRating]);
      expect((await systemDeclarations()).at(-1)!.summary.reason).toMatch(/: group sum of price by rating where price gte and price lt$/);
      const plan = await planOn((sql, table) => statementPlan(sql, (store) => ratingSums(store, table), (text) => text.includes('group by')));
      expect(plan).toMatch(/Index Only Scan using rm_ct_\w+_q_\w+/);
      expect((await sums()).body).toEqual(first.body);
    }, 120_000);

    it('drops a forbidden advised index and never declares it again while it is forbidden', async () => {
      const forbidden = await api('PUT', `${typePath()}/query-indexes`, { ...admin, body: { indexes: [], forbidden: [categoryByPrice] } });
      expect(forbidden.status).toBe(200);
      expect(forbidden.body).toMatchObject({ forbidden: [categoryByPrice] });
      const others = (await advisedFields()).filter((fields) => JSON.stringify(fields) !== JSON.stringify(categoryByPrice.fields));
      expect(others).toHaveLength(1);
      expect(await advisedFields()).toEqual(others);
      for (let index = 0; index < 20; index++) await byCategory(index);
      await delay(1500);
      expect(await advisedFields()).toEqual(others);
      expect((await shapes()).shapes).toContainEqual(expect.objectContaining({ filter: 'category e', status: 'forbidden', servedBy: null }));
      expect(await systemDeclarations()).toHaveLength(2);
      // Allowed again, the advisor declares it at its next pass.
      expect((await api('PUT', `${typePath()}/query-indexes`, { ...admin, body: { indexes: [], forbidden: [] } })).status).toBe(200);
      await eventually(async () => (await advisedFields()).length === 2, 30_000);
      expect(await systemDeclarations()).toHaveLength(3);
    }, 120_000);

    it('declares nothing with the advisor off, and lists the shapes as such', async () => {
      await restart({ QUERY_ADVISOR: 'false' });
      const byRange = () => list({ type: 'and', conditions: [where('price', 'gte', 100), where('price', 'lt', 300)] }, { fieldKey: 'releasedAt', sortDir: 'Desc' });
      for (let index = 0; index < 20; index++) await byRange();
      await delay(1500);
      expect(await advisedFields()).toHaveLength(2);
      expect(await systemDeclarations()).toHaveLength(3);
      const answer = await shapes();
      expect(answer.advisor).toMatchObject({ enabled: false });
      expect(answer.shapes).toContainEqual(
        expect.objectContaining({
          filter: 'price gte and price lt',
          status: 'advisor-off',
          index: { fields: [{ key: 'releasedAt', direction: 'desc' }, { key: 'id', direction: 'asc' }, { key: 'price', direction: 'asc' }] },
        }),
      );
    }, 120_000);

    it('drops an advised index no query read for the configured time, as the system, and the table loses it', async () => {
      await restart({ QUERY_ADVISOR: 'true', QUERY_ADVISOR_DROP_UNUSED_MS: '2000' });
      const table = (await registry()).serving!.collection;
      const retired = await eventually(async () => {
        const declarations = await systemDeclarations();
        return declarations.length === 5 ? declarations.slice(3) : undefined;
      }, 60_000);
      for (const retirement of retired) expect(retirement.summary.reason).toMatch(/^no query read it for \d+ s \(the advisor drops an advised index after 2 s unused\)$/);
      await eventually(async () => {
        const listed = await indexes();
        return listed.indexes.length === 0 && listed.state === 'none';
      }, 30_000);
      // Dropped from the table as well: nothing of the group is left to drop.
      expect(await service.service.container.resolve(TOKENS.readStore).ensureIndexes(table, 'q', [])).toEqual({ created: [], dropped: [] });
    }, 120_000);

    it('covers a grouped aggregate by a Text field with a covering index: the groups are read from the index alone, a value longer than an index key included', async () => {
      await restart({ QUERY_ADVISOR_DROP_UNUSED_MS: '3600000' });
      const range = { type: 'and', conditions: [where('price', 'gte', 100), where('price', 'lt', 300)] };
      const sums = async () => {
        const answer = await api('POST', '/v2/contents/Product/aggregategroup', { key: service.readKey, body: { fieldKey: 'price', aggregateType: 'Sum', groupByFieldKey: 'category', filter: range } });
        expect(answer.status).toBe(200);
        return answer.body.items as { groupValue: unknown; aggregateValue: number }[];
      };
      const categorySums = priceSumsBy('fields.category');
      const first = await sums();
      expect(first.map((group) => group.groupValue)).toEqual(CATEGORIES);
      for (let index = 0; index < 20; index++) await sums();
      const covering = { fields: [{ key: 'price', direction: 'asc' }, { key: 'category', direction: 'asc' }], covering: true };
      await eventually(async () => (await advisedFields()).length === 1 && (await indexes()).state === 'built', 30_000);
      expect((await indexes()).indexes).toEqual([expect.objectContaining({ ...covering, origin: 'advised' })]);
      const plan = await planOn((sql, table) => statementPlan(sql, (store) => categorySums(store, table), (text) => text.includes('group by')));
      expect(plan).toMatch(/Index Only Scan using rm_ct_\w+_q_\w+/);
      expect(await sums()).toEqual(first);

      // A category of 5,000 random letters (compression cannot fit it in an index entry): no covering entry holds it, the companion index finds it.
      const long = `c${randomBytes(5000).toString('base64').toLowerCase().replace(/[^a-z]/g, 'x').slice(0, 4999)}`;
      const saved = await api('PUT', '/v2/contents/Product', { key: service.writeKey, body: { fields: { title: 'long', category: long, price: 150, releasedAt: '2024-06-01T00:00:00.000Z', rating: 3 } } });
      expect(saved.status).toBe(200);
      const withLong = await eventually(async () => {
        const groups = await sums();
        return groups.length === CATEGORIES.length + 1 ? groups : undefined;
      }, 30_000);
      expect(withLong).toEqual([...first, { groupValue: long, aggregateValue: 150 }]);
    }, 120_000);
  });
}
