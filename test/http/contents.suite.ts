import { TOTP } from 'otpauth';
import { client } from '../support/http';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';
import { eventually } from '../support/waiting';

const productType = {
  name: 'Product',
  key: 'Product',
  fields: [
    { key: 'title', type: 'Text', required: true, translatable: true, sortIndex: 0 },
    { key: 'price', type: 'Number', sortIndex: 1 },
    { key: 'category', type: 'Text', sortIndex: 2 },
    { key: 'released', type: 'DateTime', sortIndex: 3 },
    { key: 'inStock', type: 'Boolean', sortIndex: 4 },
    { key: 'maker', type: 'Relation', sortIndex: 5 },
    { key: 'notes', type: 'Text', sortIndex: 6 },
    { key: 'serial', type: 'Encrypted', sortIndex: 7 },
  ],
};
const makerType = { name: 'Maker', key: 'Maker', fields: [{ key: 'name', type: 'Text', required: true }] };

interface Seed {
  title: string;
  price: number;
  category: string;
  released: string;
  inStock: boolean;
  notes: string | null;
}

/** Prices chosen so text order differs from number order (9 < 10 < 100). */
const SEED: Seed[] = [
  { title: 'Alpha lamp', price: 9, category: 'light', released: '2026-01-05T10:00:00.000Z', inStock: true, notes: 'warm' },
  { title: 'beta chair', price: 100, category: 'seat', released: '2025-12-31T23:00:00.000Z', inStock: false, notes: null },
  { title: 'Gamma desk', price: 10, category: 'table', released: '2026-03-01T00:00:00.000Z', inStock: true, notes: '' },
  { title: 'Delta lamp', price: 25.5, category: 'light', released: '2026-02-14T08:30:00.000Z', inStock: false, notes: '50% off_now' },
  { title: 'Epsilon stool', price: 40, category: 'seat', released: '2026-01-20T12:00:00.000Z', inStock: true, notes: 'tall' },
  { title: 'Zeta shelf', price: 75, category: 'table', released: '2026-04-01T00:00:00.000Z', inStock: true, notes: 'oak' },
  { title: 'Eta lamp', price: 9, category: 'light', released: '2026-05-01T00:00:00.000Z', inStock: true, notes: 'cold' },
];

export function describeContents(engine: Engine): void {
  describe(`content items (${engine})`, () => {
    let service: TestService;
    let api: ReturnType<typeof client>;
    let read: { key: string };
    let write: { key: string };
    const ids = new Map<string, string>();

    beforeAll(async () => {
      service = await startTestService(engine);
      api = client(service.url);
      read = { key: service.readKey };
      write = { key: service.writeKey };
      for (const type of [makerType, productType]) expect((await api('PUT', '/content-types', { ...write, body: type })).status).toBe(200);
      for (const item of SEED) {
        const saved = await api('PUT', '/v2/contents/Product', { ...write, body: { fields: item } });
        expect(saved.status).toBe(200);
        ids.set(item.title, saved.body.id);
      }
    });
    afterAll(() => service.close());

    const search = (body: unknown, path = '/v2/contents/Product') => api('POST', path, { ...read, body });
    const titlesOf = (answer: { body: { items: { fields: { title: string } }[] } }) => answer.body.items.map((item) => item.fields.title);

    describe('writing and reading', () => {
      it('reads a V2 write through V1 with typed fields, and the other way round', async () => {
        const id = ids.get('Delta lamp')!;
        const v1 = await api('GET', `/contents/Product/${id}`, read);
        expect(v1.status).toBe(200);
        expect(v1.body).toMatchObject({ id, contentType: 'Product', createdAt: expect.any(String), updatedAt: expect.any(String) });
        expect(v1.body.fields).toEqual([
          { type: 'Text', key: 'title', value: 'Delta lamp' },
          { type: 'Number', key: 'price', value: 25.5 },
          { type: 'Text', key: 'category', value: 'light' },
          { type: 'DateTime', key: 'released', value: '2026-02-14T08:30:00.000Z' },
          { type: 'Boolean', key: 'inStock', value: false },
          { type: 'Text', key: 'notes', value: '50% off_now' },
        ]);

        const draft = await api('PUT', '/preview-contents/Product', {
          ...write,
          body: { id: null, contentType: 'Product', fields: [{ type: 'Text', key: 'title', value: 'Omega' }, { type: 'Number', key: 'price', value: 3 }] },
        });
        expect(draft.status).toBe(200);
        expect(draft.body.fields).toEqual([{ type: 'Text', key: 'title', value: 'Omega' }, { type: 'Number', key: 'price', value: 3 }]);
        const v2 = await api('GET', `/v2/preview-contents/Product/${draft.body.id}`, read);
        expect(v2.body).toEqual({ id: draft.body.id, fields: { title: 'Omega', price: 3 }, translations: {} });
      });

      it('answers V2 item metadata (sys) only when asked: created, updated, published, version, stage', async () => {
        const draft = await api('PUT', '/v2/preview-contents/Product', { ...write, body: { fields: { title: 'Meta', price: 2 } } });
        const id = draft.body.id as string;
        const unpublished = await api('GET', `/v2/preview-contents/Product/${id}?meta=true`, read);
        expect(unpublished.body.sys).toEqual({ createdAt: expect.any(String), updatedAt: expect.any(String), publishedAt: null, version: 1, stage: 'draft' });
        expect((await api('GET', `/v2/preview-contents/Product/${id}`, read)).body.sys).toBeUndefined();

        await api('PUT', `/v2/preview-contents/Product/${id}/publish`, write);
        const published = (await api('GET', `/v2/contents/Product/${id}?meta=true`, read)).body.sys;
        expect(published).toMatchObject({ createdAt: unpublished.body.sys.createdAt, version: 2, stage: 'published', publishedAt: expect.any(String) });
        expect(Date.parse(published.publishedAt)).toBeGreaterThanOrEqual(Date.parse(published.createdAt));

        const listed = await search({ filter: { type: 'condition', fieldKey: 'title', operator: 'e', value: 'Meta' }, meta: true });
        expect(listed.body.items).toEqual([expect.objectContaining({ id, sys: published })]);
        const filter = encodeURIComponent(JSON.stringify({ type: 'condition', fieldKey: 'title', operator: 'e', value: 'Meta' }));
        expect((await api('GET', `/v2/contents/Product?filter=${filter}&meta=true`, read)).body.items[0].sys).toEqual(published);
        expect((await search({ filter: { type: 'condition', fieldKey: 'title', operator: 'e', value: 'Meta' } })).body.items[0].sys).toBeUndefined();

        const refused = await api('GET', `/v2/contents/Product/${id}?meta=yes`, read);
        expect(refused.status).toBe(400);
        const withAsOf = await api('POST', `/v2/contents/Product?asOf=${new Date().toISOString()}`, { ...read, body: { meta: true } });
        expect(withAsOf.status).toBe(400);
        expect(JSON.stringify(withAsOf.body)).toContain('meta');
      });

      it('keeps a draft invisible until published, then serves it (read-your-writes at every step)', async () => {
        const draft = await api('PUT', '/v2/preview-contents/Product', { ...write, body: { fields: { title: 'Hidden', price: 1 } } });
        const id = draft.body.id;
        expect((await api('GET', `/v2/preview-contents/Product/${id}`, read)).status).toBe(200);
        expect((await api('GET', `/v2/contents/Product/${id}`, read)).status).toBe(404);
        expect((await api('GET', `/contents/Product/${id}`, read)).status).toBe(404);

        expect((await api('PUT', `/preview-contents/Product/${id}/publish`, { ...write, body: { clientInfo: 'editor 1' } })).status).toBe(200);
        expect((await api('GET', `/v2/contents/Product/${id}`, read)).body.fields.title).toBe('Hidden');

        await api('PUT', '/v2/preview-contents/Product', { ...write, body: { id, fields: { title: 'Hidden v2', price: 1 } } });
        expect((await api('GET', `/v2/contents/Product/${id}`, read)).body.fields.title).toBe('Hidden');
        await api('PUT', `/v2/preview-contents/Product/${id}/publish`, write);
        expect((await api('GET', `/v2/contents/Product/${id}`, read)).body.fields.title).toBe('Hidden v2');

        expect((await api('PUT', `/contents/Product/${id}/unpublish`, write)).status).toBe(200);
        expect((await api('GET', `/v2/contents/Product/${id}`, read)).status).toBe(404);
        expect((await api('GET', `/v2/preview-contents/Product/${id}`, read)).status).toBe(200);
        expect((await api('PUT', `/contents/Product/${id}/unpublish`, write)).status).toBe(404);

        expect((await api('DELETE', `/preview-contents/Product/${id}`, write)).status).toBe(200);
        expect((await api('GET', `/v2/preview-contents/Product/${id}`, read)).status).toBe(404);
        expect((await api('DELETE', `/preview-contents/Product/${id}`, write)).status).toBe(404);
        expect((await api('PUT', `/preview-contents/Product/${id}/publish`, write)).status).toBe(404);
      });

      it('deletes a published item entirely, through V1 and V2', async () => {
        for (const path of ['/contents', '/v2/contents']) {
          const saved = await api('PUT', '/v2/contents/Product', { ...write, body: { fields: { title: `Doomed ${path}` } } });
          expect((await api('DELETE', `${path}/Product/${saved.body.id}`, write)).status).toBe(200);
          expect((await api('GET', `/v2/contents/Product/${saved.body.id}`, read)).status).toBe(404);
          expect((await api('GET', `/v2/preview-contents/Product/${saved.body.id}`, read)).status).toBe(404);
        }
      });

      it.each([
        ['an unknown field', { fields: { title: 'x', colour: 'red' } }, 'fields.colour'],
        ['a number as text', { fields: { title: 'x', price: 'cheap' } }, 'fields.price'],
        ['an invalid date', { fields: { title: 'x', released: 'someday' } }, 'fields.released'],
        ['a missing required field', { fields: { price: 1 } }, 'fields.title'],
        ['an encrypted field in an ordinary write', { fields: { title: 'x', serial: 'S-1' } }, 'fields.serial'],
        ['a translation of a field that is not translatable', { fields: { title: 'x' }, translations: { price: { en: 2 } } }, 'translations.price'],
        ['a translation into an unknown locale', { fields: { title: 'x' }, translations: { title: { xx: 'y' } } }, 'translations.title.xx'],
        ['fields missing', {}, 'fields'],
      ])('refuses %s with 400 naming the field', async (_case, body, field) => {
        const answer = await api('PUT', '/v2/preview-contents/Product', { ...write, body });
        expect(answer.status).toBe(400);
        expect(answer.body.errors.map((error: { field: string }) => error.field)).toContain(field);
      });

      it('refuses a V1 field whose type is not the schema type, and a contentType that is not the path', async () => {
        const wrongType = await api('PUT', '/preview-contents/Product', { ...write, body: { contentType: 'Product', fields: [{ key: 'title', type: 'Number', value: 'x' }] } });
        expect(wrongType.status).toBe(400);
        expect(wrongType.body.errors[0].field).toBe('fields.0.type');
        const wrongPath = await api('PUT', '/preview-contents/Product', { ...write, body: { contentType: 'Maker', fields: [{ key: 'title', value: 'x' }] } });
        expect(wrongPath.status).toBe(400);
      });

      it('answers 404 for unknown types and items, and for an item under another type', async () => {
        expect((await api('GET', '/v2/contents/Nothing/abc', read)).status).toBe(404);
        expect((await api('GET', '/v2/contents/Product/00000000-0000-4000-8000-000000000000', read)).status).toBe(404);
        expect((await api('GET', `/v2/contents/Maker/${ids.get('Alpha lamp')}`, read)).status).toBe(404);
        expect((await api('PUT', '/v2/contents/Product', { ...write, body: { id: '00000000-0000-4000-8000-000000000000', fields: { title: 'x' } } })).status).toBe(404);
      });

      it('enforces the policies on reads and writes', async () => {
        expect((await api('GET', `/v2/contents/Product/${ids.get('Alpha lamp')}`)).status).toBe(401);
        expect((await api('GET', `/v2/contents/Product/${ids.get('Alpha lamp')}`, write)).status).toBe(403);
        expect((await api('PUT', '/v2/contents/Product', { ...read, body: { fields: { title: 'x' } } })).status).toBe(403);
        expect((await api('POST', '/v2/contents/Product', { ...write, body: {} })).status).toBe(403);
      });
    });

    describe('queries', () => {
      const expectedTitles = (predicate: (item: Seed) => boolean) => SEED.filter(predicate).map((item) => item.title).sort();

      it.each([
        ['e', { fieldKey: 'category', operator: 'e', value: 'light' }, (item: Seed) => item.category === 'light'],
        ['ne', { fieldKey: 'category', operator: 'ne', value: 'light' }, (item: Seed) => item.category !== 'light'],
        ['gt on numbers', { fieldKey: 'price', operator: 'gt', value: 10 }, (item: Seed) => item.price > 10],
        ['gte with a numeric string', { fieldKey: 'price', operator: 'gte', value: '10' }, (item: Seed) => item.price >= 10],
        ['lt', { fieldKey: 'price', operator: 'lt', value: 25.5 }, (item: Seed) => item.price < 25.5],
        ['lte', { fieldKey: 'price', operator: 'lte', value: 25.5 }, (item: Seed) => item.price <= 25.5],
        ['gt on dates', { fieldKey: 'released', operator: 'gt', value: '2026-02-01' }, (item: Seed) => item.released > '2026-02-01T00:00:00.000Z'],
        ['in', { fieldKey: 'price', operator: 'in', value: [9, 75] }, (item: Seed) => [9, 75].includes(item.price)],
        ['nin', { fieldKey: 'category', operator: 'nin', value: ['light', 'seat'] }, (item: Seed) => !['light', 'seat'].includes(item.category)],
        ['start', { fieldKey: 'title', operator: 'start', value: 'E' }, (item: Seed) => item.title.startsWith('E')],
        ['start, case-insensitive', { fieldKey: 'title', operator: 'start', value: 'b', caseInsensitive: true }, (item: Seed) => item.title.toLowerCase().startsWith('b')],
        ['end', { fieldKey: 'title', operator: 'end', value: 'lamp' }, (item: Seed) => item.title.endsWith('lamp')],
        ['contains, wildcard characters literal', { fieldKey: 'notes', operator: 'contains', value: '% off_' }, (item: Seed) => (item.notes ?? '').includes('% off_')],
        ['contains, case-insensitive', { fieldKey: 'title', operator: 'contains', value: 'LAMP', caseInsensitive: true }, (item: Seed) => item.title.toLowerCase().includes('lamp')],
        ['noe', { fieldKey: 'notes', operator: 'noe' }, (item: Seed) => item.notes === null || item.notes === ''],
        ['nnoe', { fieldKey: 'notes', operator: 'nnoe' }, (item: Seed) => item.notes !== null && item.notes !== ''],
        ['boolean e', { fieldKey: 'inStock', operator: 'e', value: false }, (item: Seed) => !item.inStock],
      ])('filters with %s', async (_case, condition, predicate) => {
        const answer = await search({ filter: { type: 'condition', ...condition }, pageSize: 100 });
        expect(answer.status).toBe(200);
        expect(titlesOf(answer).filter((title) => ids.has(title)).sort()).toEqual(expectedTitles(predicate));
      });

      it('combines and, or and not groups', async () => {
        const filter = {
          type: 'or',
          conditions: [
            { type: 'and', conditions: [{ type: 'condition', fieldKey: 'category', operator: 'e', value: 'light' }, { type: 'condition', fieldKey: 'price', operator: 'lt', value: 10 }] },
            { type: 'not', conditions: [{ type: 'condition', fieldKey: 'price', operator: 'lte', value: 75 }] },
          ],
        };
        const answer = await search({ filter, pageSize: 100 });
        expect(titlesOf(answer).sort()).toEqual(expectedTitles((item) => (item.category === 'light' && item.price < 10) || item.price > 75));
      });

      it('filters on system fields and answers 400 naming an unknown field or operator', async () => {
        const byId = await search({ filter: { type: 'condition', fieldKey: 'id', operator: 'e', value: ids.get('Zeta shelf') } });
        expect(titlesOf(byId)).toEqual(['Zeta shelf']);
        const unknownField = await search({ filter: { type: 'condition', fieldKey: 'colour', operator: 'e', value: 'x' } });
        expect(unknownField.status).toBe(400);
        expect(unknownField.body.errors[0].field).toBe('filter.fieldKey');
        const unknownOperator = await search({ filter: { type: 'condition', fieldKey: 'price', operator: 'about', value: 1 } });
        expect(unknownOperator.status).toBe(400);
        expect(unknownOperator.body.detail).toContain('about');
      });

      it('orders by several keys, numbers as numbers', async () => {
        const answer = await search({ filter: { type: 'condition', fieldKey: 'id', operator: 'in', value: [...ids.values()] }, order: [{ fieldKey: 'price', sortDir: 'Asc' }, { fieldKey: 'title', sortDir: 'Desc' }], pageSize: 100 });
        const expected = [...SEED].sort((a, b) => a.price - b.price || (a.title < b.title ? 1 : -1)).map((item) => item.title);
        expect(titlesOf(answer)).toEqual(expected);
        const single = await search({ filter: { type: 'condition', fieldKey: 'id', operator: 'in', value: [...ids.values()] }, order: { type: 'condition', fieldKey: 'released', sortDir: 'Desc' } });
        expect(titlesOf(single)).toEqual([...SEED].sort((a, b) => (a.released < b.released ? 1 : -1)).map((item) => item.title));
      });

      it('pages from 1 with totals, the last partial page, an empty page past the end, and pageSize 500 but not 501', async () => {
        const scope = { filter: { type: 'condition', fieldKey: 'id', operator: 'in', value: [...ids.values()] }, order: { fieldKey: 'price' } };
        const first = await search({ ...scope, page: 1, pageSize: 3 });
        expect(first.body).toMatchObject({ total: 7, page: 1, pageSize: 3, totalPages: 3, hasMorePages: true });
        const last = await search({ ...scope, page: 3, pageSize: 3 });
        expect(last.body.items).toHaveLength(1);
        expect(last.body.hasMorePages).toBe(false);
        const past = await search({ ...scope, page: 9, pageSize: 3 });
        expect(past.body).toMatchObject({ items: [], total: 7, totalPages: 3, hasMorePages: false });
        expect((await search({ ...scope, pageSize: 500 })).status).toBe(200);
        const tooBig = await search({ ...scope, pageSize: 501 });
        expect(tooBig.status).toBe(400);
        expect(tooBig.body.errors[0].field).toBe('pageSize');
        expect((await search({ ...scope, page: 0 })).status).toBe(400);
      });

      it('lists ids with totals, in V1 and V2, published and preview', async () => {
        const filter = { type: 'condition', fieldKey: 'category', operator: 'e', value: 'light' };
        for (const path of ['/contents', '/v2/contents', '/preview-contents', '/v2/preview-contents']) {
          const answer = await api('POST', `${path}/Product/ids`, { ...read, body: { filter, page: 1, pageSize: 2 } });
          expect(answer.status).toBe(200);
          expect(answer.body.total).toBe(SEED.filter((item) => item.category === 'light').length);
          expect(answer.body.ids).toHaveLength(2);
        }
      });

      it('aggregates Sum, Avg, Min, Max and Count as computed from the seed', async () => {
        const scope = { type: 'condition', fieldKey: 'id', operator: 'in', value: [...ids.values()] };
        const prices = SEED.map((item) => item.price);
        const expected = { Sum: prices.reduce((a, b) => a + b, 0), Avg: prices.reduce((a, b) => a + b, 0) / prices.length, Min: Math.min(...prices), Max: Math.max(...prices), Count: prices.length };
        for (const path of ['/contents', '/v2/contents', '/preview-contents', '/v2/preview-contents']) {
          for (const [aggregateType, value] of Object.entries(expected)) {
            const answer = await api('POST', `${path}/Product/aggregate`, { ...read, body: { type: 'condition', fieldKey: 'price', aggregateType, filter: scope } });
            expect(answer.status).toBe(200);
            expect(answer.body.value).toBeCloseTo(value, 6);
          }
        }
      });

      it('aggregates per group, one item per distinct value', async () => {
        const scope = { type: 'condition', fieldKey: 'id', operator: 'in', value: [...ids.values()] };
        const answer = await api('POST', '/v2/contents/Product/aggregategroup', { ...read, body: { fieldKey: 'price', aggregateType: 'Sum', groupByFieldKey: 'category', filter: scope } });
        expect(answer.status).toBe(200);
        const expected = new Map<string, number>();
        for (const item of SEED) expected.set(item.category, (expected.get(item.category) ?? 0) + item.price);
        expect(answer.body.items).toHaveLength(expected.size);
        for (const group of answer.body.items) expect(group.aggregateValue).toBeCloseTo(expected.get(group.groupValue)!, 6);
        const count = await api('POST', '/contents/Product/aggregategroup', { ...read, body: { fieldKey: 'price', aggregateType: 'Count', groupByFieldKey: 'inStock', filter: scope } });
        expect(Object.fromEntries(count.body.items.map((group: { groupValue: boolean; aggregateValue: number }) => [String(group.groupValue), group.aggregateValue]))).toEqual({
          true: SEED.filter((item) => item.inStock).length,
          false: SEED.filter((item) => !item.inStock).length,
        });
        expect((await api('POST', '/contents/Product/aggregate', { ...read, body: { fieldKey: 'price', aggregateType: 'Median' } })).status).toBe(400);
      });
    });

    describe('GET queries, caching and what a request may hold', () => {
      const inSeed = () => ({ type: 'condition', fieldKey: 'id', operator: 'in', value: [...ids.values()] });
      /** A body as the GET form's query string: JSON members as JSON, lists comma-separated, the rest as text. */
      const queryOf = (body: Record<string, unknown>) =>
        new URLSearchParams(
          Object.entries(body).map(([name, value]): [string, string] => [
            name,
            Array.isArray(value) && name === 'includeRelations' ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value),
          ]),
        ).toString();

      it('answers every query in its GET form exactly as its POST form, with the query in the query string', async () => {
        const list = { filter: inSeed(), order: [{ fieldKey: 'price', sortDir: 'Desc' }, { fieldKey: 'title' }], page: 2, pageSize: 3, includeRelations: ['maker'] };
        const forms: [string, Record<string, unknown>][] = [
          ['/v2/contents/Product', list],
          ['/v2/preview-contents/Product', list],
          ['/contents/Product/ids', { filter: inSeed(), page: 1, pageSize: 4 }],
          ['/v2/preview-contents/Product/ids', { filter: inSeed() }],
          ['/v2/contents/Product/aggregate', { fieldKey: 'price', aggregateType: 'avg', filter: inSeed() }],
          ['/preview-contents/Product/aggregategroup', { fieldKey: 'price', aggregateType: 'Sum', groupByFieldKey: 'category', filter: inSeed() }],
        ];
        for (const [path, body] of forms) {
          const posted = await api('POST', path, { ...read, body });
          const got = await api('GET', `${path}?${queryOf(body)}`, read);
          expect([path, got.status]).toEqual([path, 200]);
          expect(got.body).toEqual(posted.body);
        }
        expect((await api('GET', `/v2/contents/Product?${queryOf(list)}`, read)).body.items.map((item: { fields: { title: string } }) => item.fields.title)).toEqual(
          [...SEED].sort((a, b) => b.price - a.price || (a.title < b.title ? -1 : 1)).slice(3, 6).map((item) => item.title),
        );
        const empty = await api('GET', '/v2/contents/Product/ids', read);
        expect(empty.body).toEqual((await api('POST', '/v2/contents/Product/ids', { ...read, body: {} })).body);
        const asOf = new Date().toISOString();
        // A 503 with Retry-After (the type's as-of view still being built, under CI's load) is retried, as a client does.
        const asOfIds = () => api('GET', `/v2/contents/Product/ids?asOf=${asOf}&${queryOf({ filter: inSeed(), pageSize: 100 })}`, read);
        const then = await eventually(async () => {
          const answer = await asOfIds();
          return answer.status === 503 && answer.headers.get('retry-after') !== null ? null : answer;
        }, 20_000);
        expect([then.status, then.body.total]).toEqual([200, SEED.length]);
      });

      it('tags every GET answer; the same If-None-Match answers 304 without a body until the list changes', async () => {
        const path = `/v2/contents/Product?${queryOf({ filter: { type: 'condition', fieldKey: 'category', operator: 'e', value: 'light' }, pageSize: 50 })}`;
        const first = await api('GET', path, read);
        const etag = first.headers.get('etag')!;
        expect(etag).toMatch(/^"[\w-]+"$/);
        expect(first.headers.get('cache-control')).toBe('private, no-cache');
        const again = await api('GET', path, { ...read, headers: { 'if-none-match': etag } });
        expect([again.status, again.body, again.headers.get('etag'), again.headers.get('cache-control')]).toEqual([304, '', etag, 'private, no-cache']);
        expect((await api('HEAD', path, { ...read, headers: { 'if-none-match': etag } })).status).toBe(304);
        const item = await api('GET', `/v2/contents/Product/${ids.get('Alpha lamp')}`, read);
        expect((await api('GET', `/v2/contents/Product/${ids.get('Alpha lamp')}`, { ...read, headers: { 'if-none-match': item.headers.get('etag')! } })).status).toBe(304);

        const lamp = await api('PUT', '/v2/contents/Product', { ...write, body: { fields: { title: 'Theta lamp', price: 12, category: 'light' } } });
        const changed = await api('GET', path, { ...read, headers: { 'if-none-match': etag } });
        expect(changed.status).toBe(200);
        expect(changed.headers.get('etag')).not.toBe(etag);
        expect(changed.body.total).toBe(first.body.total + 1);
        expect((await api('DELETE', `/v2/contents/Product/${lamp.body.id}`, write)).status).toBe(200);
        // POST answers are not reusable by HTTP caches: they carry no tag.
        expect((await api('POST', '/v2/contents/Product', { ...read, body: {} })).headers.get('etag')).toBeNull();
      });

      it('refuses a member or parameter a request does not take, naming it and what to send', async () => {
        const limited = await search({ limit: 5 });
        expect(limited.status).toBe(400);
        expect(limited.body.errors).toEqual([{ field: 'limit', message: 'is not accepted here: did you mean pageSize? (send only filter, order, page, pageSize, locale, includeRelations, meta)' }]);
        const byQuery = await api('GET', '/v2/contents/Product?limit=5&skip=1', read);
        expect(byQuery.body.errors.map((error: { field: string }) => error.field)).toEqual(['limit', 'skip']);
        expect(byQuery.body.detail).toContain('did you mean page?');
        const localized = await api('GET', `/v2/contents/Product/${ids.get('Alpha lamp')}?locale=de`, read);
        expect([localized.status, localized.body.errors]).toEqual([400, [{ field: 'locale', message: 'is not accepted here: send only asOf, meta, release' }]]);
        expect((await api('GET', `/v2/contents/Product/${ids.get('Alpha lamp')}/history?page=2`, read)).body.errors).toEqual([{ field: 'page', message: 'is not accepted here: this request takes none' }]);
        const v1 = await api('PUT', '/preview-contents/Product', { ...write, body: { contentType: 'Product', fields: [{ key: 'title', value: 'x', unit: 'cm' }], status: 'draft' } });
        expect(v1.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(['fields.0.unit', 'status']);
        expect((await api('POST', '/v2/contents/Product/aggregate', { ...read, body: { fieldKey: 'price', aggregateType: 'Sum', groupBy: 'category' } })).body.errors[0].field).toBe('groupBy');

        // What the spec and a read allow stays accepted: `type` beside an aggregate's members, a V1 item sent back as read.
        expect((await api('GET', `/contents/Product/aggregate?type=condition&fieldKey=price&aggregateType=Count&filter=${encodeURIComponent(JSON.stringify(inSeed()))}`, read)).body).toEqual({ value: SEED.length });
        const asRead = await api('GET', `/preview-contents/Product/${ids.get('Gamma desk')}`, read);
        expect((await api('PUT', '/preview-contents/Product', { ...write, body: asRead.body })).status).toBe(200);
      });

      it('refuses a GET query it cannot read: JSON that is not, a parameter given twice, a query string over 8192 characters', async () => {
        const broken = await api('GET', '/v2/contents/Product?filter=%7Bnot-json', read);
        expect([broken.status, broken.body.errors[0].field]).toEqual([400, 'filter']);
        const deep = await api('GET', `/v2/contents/Product?filter=${encodeURIComponent('['.repeat(70) + ']'.repeat(70))}`, read);
        expect([deep.status, deep.body.errors[0].message]).toEqual([400, 'nests deeper than 64 levels']);
        expect((await api('GET', '/v2/contents/Product?__proto__=x&a[b]=c', read)).body.errors.map((error: { field: string }) => error.field)).toEqual(['__proto__', 'a[b]']);
        const twice = await api('GET', '/v2/contents/Product?page=1&page=2', read);
        expect(twice.body.errors).toEqual([{ field: 'page', message: 'is given more than once: give it once' }]);
        const notNumber = await api('GET', '/v2/contents/Product?pageSize=ten', read);
        expect(notNumber.body.errors).toEqual([{ field: 'pageSize', message: 'must be a number, not text' }]);
        const long = await api('GET', `/v2/contents/Product/ids?filter=${encodeURIComponent(JSON.stringify({ type: 'condition', fieldKey: 'title', operator: 'in', value: Array(600).fill('lamp title') }))}`, read);
        expect(long.status).toBe(414);
        expect(long.body.detail).toContain('POST /v2/contents/Product/ids');
      });

      it('answers a path asked with a method it does not take with 405, Allow and what to send instead', async () => {
        const v1List = await api('GET', '/contents/Product', read);
        expect(v1List.status).toBe(405);
        expect(v1List.headers.get('allow')).toBe('PUT');
        expect(v1List.body.detail).toMatch(/^GET \/contents\/Product is not answered; this path takes PUT \/contents\/\{type\} with a JSON body \(/);
        const restore = await api('GET', `/v2/contents/Product/${ids.get('Alpha lamp')}/versions/1/restore`, read);
        expect([restore.status, restore.headers.get('allow')]).toEqual([405, 'POST']);
        expect((await api('DELETE', '/v2/contents/Product/ids', write)).status).not.toBe(405);
        expect((await api('GET', '/v2/nothing/here', read)).status).toBe(404);
      });

      it('reads a JSON null body as none, and says what to send for a body that is missing or not an object', async () => {
        const draft = await api('PUT', '/v2/preview-contents/Product', { ...write, body: { fields: { title: 'Scheduled' } } });
        expect((await api('PUT', `/v2/preview-contents/Product/${draft.body.id}/publish`, { ...write, rawBody: 'null' })).status).toBe(200);
        expect((await api('DELETE', `/v2/contents/Product/${draft.body.id}`, { ...write, rawBody: 'null' })).status).toBe(200);
        const none = await api('PUT', '/v2/contents/Product', { ...write, rawBody: 'null' });
        expect(none.body.errors).toEqual([{ field: 'body', message: 'is missing: send a JSON object with Content-Type: application/json' }]);
        const plainText = await api('PUT', '/v2/contents/Product', { ...write, rawBody: '{"fields":{"title":"x"}}', headers: { 'content-type': 'text/plain' } });
        expect(plainText.body.detail).toBe('invalid body: body is missing: send a JSON object with Content-Type: application/json');
        expect((await api('PUT', '/v2/contents/Product', { ...write, rawBody: '42' })).body.errors).toEqual([{ field: 'body', message: 'must be a JSON object (or null for none)' }]);
        const wrongTypes = await search({ page: '2', includeRelations: 'maker' });
        expect(wrongTypes.body.errors).toEqual([
          { field: 'page', message: 'must be a number, not text' },
          { field: 'includeRelations', message: 'must be an array, not text' },
        ]);
      });
    });

    describe('relations and translations', () => {
      it('expands listed relations one level; a missing target is null', async () => {
        const maker = await api('PUT', '/v2/contents/Maker', { ...write, body: { fields: { name: 'Acme' } } });
        const withMaker = await api('PUT', '/v2/contents/Product', { ...write, body: { fields: { title: 'Related', maker: maker.body.id } } });
        const doomedMaker = await api('PUT', '/v2/contents/Maker', { ...write, body: { fields: { name: 'Gone soon' } } });
        const dangling = await api('PUT', '/v2/contents/Product', { ...write, body: { fields: { title: 'Dangling', maker: doomedMaker.body.id } } });
        expect((await api('DELETE', `/v2/contents/Maker/${doomedMaker.body.id}`, write)).status).toBe(200);

        const expanded = await api('POST', `/contents/Product/${withMaker.body.id}`, { ...read, body: { includeRelations: ['maker'] } });
        expect(expanded.body.fields.find((field: { key: string }) => field.key === 'maker')).toEqual({
          type: 'Relation',
          key: 'maker',
          value: { id: maker.body.id, contentType: 'Maker', fields: [{ type: 'Text', key: 'name', value: 'Acme' }] },
        });
        const plain = await api('POST', `/contents/Product/${withMaker.body.id}`, { ...read, body: {} });
        expect(plain.body.fields.find((field: { key: string }) => field.key === 'maker').value).toBe(maker.body.id);
        const missing = await api('POST', `/contents/Product/${dangling.body.id}`, { ...read, body: { includeRelations: ['maker'] } });
        expect(missing.body.fields.find((field: { key: string }) => field.key === 'maker').value).toBeNull();

        const v2 = await search({ filter: { type: 'condition', fieldKey: 'id', operator: 'e', value: withMaker.body.id }, includeRelations: ['maker'] });
        expect(v2.body.items[0].fields.maker).toEqual({ id: maker.body.id, fields: { name: 'Acme' }, translations: {} });
        expect((await api('POST', `/contents/Product/${withMaker.body.id}`, { ...read, body: { includeRelations: ['title'] } })).status).toBe(400);
      });

      it('resolves a translatable field through a three-step fallback chain down to the default', async () => {
        const workspace = await api('POST', '/admin/workspaces', { bearer: ADMIN_TOKEN, body: { name: 'Translations' } });
        const key = (await api('POST', `/admin/workspaces/${workspace.body.id}/api-keys`, { bearer: ADMIN_TOKEN, body: { policies: ['ReadAccess', 'WriteAccess'] } })).body.key;
        await api('PUT', '/content-types', { key, body: productType });
        for (const locale of [{ code: 'en' }, { code: 'fr', fallbackCode: 'en' }, { code: 'fr-CA', fallbackCode: 'fr' }, { code: 'fr-QC', fallbackCode: 'fr-CA' }]) {
          expect((await api('PUT', '/locales', { key, body: locale })).status).toBe(200);
        }
        const saved = await api('PUT', '/v2/contents/Product', { key, body: { fields: { title: 'Base' }, translations: { title: { en: 'Hello', fr: 'Bonjour' } } } });
        expect(saved.body.translations).toEqual({ title: { en: 'Hello', fr: 'Bonjour' } });
        const view = async (locale: string) => (await api('POST', `/contents/Product/${saved.body.id}`, { key, body: { locale } })).body.fields[0].value;
        expect(await view('fr-QC')).toBe('Bonjour');
        expect(await view('fr')).toBe('Bonjour');
        expect(await view('en')).toBe('Hello');
        await api('PUT', '/v2/contents/Product', { key, body: { id: saved.body.id, fields: { title: 'Base' }, translations: { title: { en: 'Hello', 'fr-ca': 'Allô' } } } });
        expect(await view('fr-QC')).toBe('Allô');
        expect(await view('fr')).toBe('Hello');
        expect((await api('POST', `/contents/Product/${saved.body.id}`, { key, body: { locale: 'xx' } })).status).toBe(400);
        // A V1 write (fields only) keeps the translations written through V2.
        await api('PUT', '/preview-contents/Product', { key, body: { id: saved.body.id, contentType: 'Product', fields: [{ key: 'title', value: 'Base 2' }] } });
        expect((await api('GET', `/v2/preview-contents/Product/${saved.body.id}`, { key })).body.translations.title).toEqual({ en: 'Hello', 'fr-CA': 'Allô' });
      });
    });

    describe('encrypted fields', () => {
      it('stores only ciphertext, compares without revealing, decrypts with a valid TOTP code and refuses a wrong one', async () => {
        const id = ids.get('Zeta shelf')!;
        const stored = await api('PUT', '/contents/Product/encrypt', { ...write, body: { id, encryptFields: { serial: 'SN-4242' }, clientInfo: 'vault' } });
        expect(stored.status).toBe(200);
        expect(JSON.stringify((await api('GET', `/v2/contents/Product/${id}`, read)).body)).not.toContain('SN-4242');
        expect(JSON.stringify((await api('GET', `/contents/Product/${id}`, read)).body)).not.toContain('serial');

        expect((await api('POST', '/contents/Product/encrypt/check', { ...read, body: { id, encryptFields: { serial: 'SN-4242' } } })).body).toEqual({ match: true });
        expect((await api('POST', '/contents/Product/encrypt/check', { ...read, body: { id, encryptFields: { serial: 'SN-0000' } } })).body).toEqual({ match: false });
        expect((await api('POST', '/contents/Product/encrypt/check', { ...read, body: { id: '00000000-0000-4000-8000-000000000000', encryptFields: { serial: 'x' } } })).status).toBe(404);

        const noSecretYet = await api('POST', '/contents/Product/encrypt/decrypt', { ...read, body: { id, encryptFieldKeys: ['serial'], totpCode: '123456' } });
        expect(noSecretYet.status).toBe(403);
        const totp = await api('POST', `/admin/workspaces/${service.workspaceId}/totp`, { bearer: ADMIN_TOKEN });
        const code = new TOTP({ secret: totp.body.secret, algorithm: 'SHA1', digits: 6, period: 30 }).generate();
        const decrypted = await api('POST', '/contents/Product/encrypt/decrypt', { ...read, body: { id, encryptFieldKeys: ['serial'], totpCode: code } });
        expect(decrypted.status).toBe(200);
        expect(decrypted.body).toEqual({ fields: { serial: 'SN-4242' } });
        const wrong = String((Number(code) + 500_000) % 1_000_000).padStart(6, '0');
        expect((await api('POST', '/contents/Product/encrypt/decrypt', { ...read, body: { id, encryptFieldKeys: ['serial'], totpCode: wrong } })).status).toBe(403);
        expect((await api('PUT', '/contents/Product/encrypt', { ...write, body: { id, encryptFields: { title: 'x' } } })).status).toBe(400);
      });
    });

    describe('history', () => {
      it('lists every change with actor and clientInfo, and shows the item at each version', async () => {
        const created = await api('PUT', '/v2/preview-contents/Product', { ...write, body: { fields: { title: 'v1' }, clientInfo: 'first' } });
        const id = created.body.id;
        await api('PUT', '/v2/preview-contents/Product', { ...write, body: { id, fields: { title: 'v2' }, clientInfo: 'second' } });
        await api('PUT', `/v2/preview-contents/Product/${id}/publish`, { ...write, body: { clientInfo: 'go live' } });
        await api('PUT', '/v2/preview-contents/Product', { ...write, body: { id, fields: { title: 'v3' } } });

        const history = await api('GET', `/contents/Product/${id}/history`, read);
        expect(history.status).toBe(200);
        expect(history.body.map((entry: { version: number; type: string; clientInfo: string | null }) => [entry.version, entry.type, entry.clientInfo])).toEqual([
          [1, 'ContentDraftSaved', 'first'],
          [2, 'ContentDraftSaved', 'second'],
          [3, 'ContentPublished', 'go live'],
          [4, 'ContentDraftSaved', null],
        ]);
        expect(history.body[0].actor).toMatch(/^key:/);
        expect((await api('GET', `/v2/contents/Product/${id}/history`, read)).body).toEqual(history.body);

        expect((await api('GET', `/v2/preview-contents/Product/${id}/versions/1`, read)).body).toMatchObject({ version: 1, item: { id, fields: { title: 'v1' } } });
        expect((await api('GET', `/preview-contents/Product/${id}/versions/2`, read)).body.item.fields).toEqual([{ type: 'Text', key: 'title', value: 'v2' }]);
        expect((await api('GET', `/v2/contents/Product/${id}/versions/5`, read)).status).toBe(404);
        expect((await api('GET', `/v2/contents/Product/${id}/versions/x`, read)).status).toBe(404);
      });

      it('with versioning disabled keeps only the current version readable (the events stay)', async () => {
        await api('PUT', '/content-types', { ...write, body: { name: 'Note', key: 'Note', versioningDisabled: true, fields: [{ key: 'text', type: 'Text' }] } });
        const created = await api('PUT', '/v2/contents/Note', { ...write, body: { fields: { text: 'a' } } });
        await api('PUT', '/v2/contents/Note', { ...write, body: { id: created.body.id, fields: { text: 'b' } } });
        expect((await api('GET', `/v2/contents/Note/${created.body.id}/history`, read)).body).toHaveLength(4);
        expect((await api('GET', `/v2/contents/Note/${created.body.id}/versions/1`, read)).status).toBe(404);
        expect((await api('GET', `/v2/contents/Note/${created.body.id}/versions/4`, read)).body.item.fields).toEqual({ text: 'b' });
      });
    });

    it('refuses to delete a content type that still has items (409)', async () => {
      const answer = await api('DELETE', '/content-types/Maker', write);
      expect(answer.status).toBe(409);
    });

    it('isolates workspaces: another workspace sees none of these items', async () => {
      const workspace = await api('POST', '/admin/workspaces', { bearer: ADMIN_TOKEN, body: { name: 'Elsewhere' } });
      const key = (await api('POST', `/admin/workspaces/${workspace.body.id}/api-keys`, { bearer: ADMIN_TOKEN, body: { policies: ['ReadAccess', 'WriteAccess'] } })).body.key;
      await api('PUT', '/content-types', { key, body: productType });
      expect((await api('GET', `/v2/contents/Product/${ids.get('Alpha lamp')}`, { key })).status).toBe(404);
      expect((await api('POST', '/v2/contents/Product', { key, body: {} })).body.total).toBe(0);
      expect((await api('PUT', '/v2/contents/Product', { key, body: { id: ids.get('Alpha lamp'), fields: { title: 'stolen' } } })).status).toBe(404);
    });
  });
}
