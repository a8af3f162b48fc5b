import { randomBytes, randomUUID } from 'node:crypto';
import { seededRandom } from '../support/seeded-random';
import { incompressibleData } from '../support/incompressible';
import { eventually } from '../support/waiting';
import { recordingSql } from '../support/query-plans';
import type { Position } from '../../infra/eventstore/port';
import type { Checkpoint, CollectionLayout, ColumnDefinition, Document, IndexDefinition, ReadStore } from '../../infra/readstore/port';
import { PostgresReadStore } from '../../infra/readstore/postgres';
import type { AggregateOperation, Condition, Filter, FindQuery, Operator, Scalar, SortKey } from '../../infra/readstore/query';
import type { SqlClient } from '../../infra/sql/client';
import { QUERY_INDEX_GROUP, queryIndexDefinitions } from '../../projections/content-tables/query-indexes';
import { tableColumns, tableGeneration, tableIndexes } from '../../projections/content-tables/schema';

interface Product extends Document {
  readonly id: string;
  readonly workspaceId: string;
  /** Lowercase ASCII only, so every collation orders it like JavaScript does. */
  readonly code: string;
  readonly rank: number;
  readonly title: string;
  readonly publishedAt?: string;
  readonly category?: string | null;
  readonly note?: string | null | readonly string[];
  readonly active: boolean;
  readonly fields: { readonly price?: number | string | null; readonly tags?: readonly string[] };
}

const SEED: readonly Product[] = [
  { id: 'p01', workspaceId: 'ws1', code: 'delta', rank: 10, title: 'Apple pie', publishedAt: '2024-03-01T09:00:00.000Z', category: 'fruit', note: 'fresh', active: true, fields: { price: 9, tags: ['a'] } },
  { id: 'p02', workspaceId: 'ws1', code: 'alpha', rank: 9, title: 'apple tart', publishedAt: '2024-01-15T12:30:00.000Z', category: 'fruit', note: '', active: false, fields: { price: 10, tags: [] } },
  { id: 'p03', workspaceId: 'ws2', code: 'delta', rank: 100, title: '50% off', publishedAt: '2023-12-31T23:59:59.000Z', category: 'deal', note: null, active: true, fields: { price: 100 } },
  { id: 'p04', workspaceId: 'ws1', code: 'charlie', rank: 2.5, title: '50 percent', category: 'deal', note: [], active: true, fields: { price: 2.5 } },
  { id: 'p05', workspaceId: 'ws2', code: 'bravo', rank: -3, title: 'snake_case', publishedAt: '2024-03-01T08:59:59.000Z', category: 'misc', active: false, fields: { price: '12' } },
  { id: 'p06', workspaceId: 'ws2', code: 'echo', rank: 10, title: 'snakeXcase', publishedAt: '2025-01-01T00:00:00.000Z', category: 'misc', note: ['x'], active: true, fields: { price: null, tags: ['b', 'c'] } },
  { id: 'p07', workspaceId: 'ws1', code: 'alpha', rank: 0, title: 'BANANA split', publishedAt: '2024-06-30T00:00:00.000Z', category: 'fruit', note: 'ok', active: false, fields: {} },
  { id: 'p08', workspaceId: 'ws3', code: 'foxtrot', rank: 42, title: 'Crème brûlée ☕', publishedAt: '2024-02-29T00:00:00.000Z', category: 'dessert', note: 'x', active: true, fields: { price: 0 } },
  { id: 'p09', workspaceId: 'ws2', code: 'bravo', rank: 9, title: 'back\\slash', category: null, note: 'y', active: true, fields: { price: 7 } },
  { id: 'p10', workspaceId: 'ws3', code: 'charlie', rank: 1000, title: 'banana bread', publishedAt: '2024-01-15T12:30:00.000Z', active: false, fields: { price: 1000 } },
  { id: 'p11', workspaceId: 'ws1', code: 'delta', rank: 10, title: 'Rye BREAD', publishedAt: '2024-05-05T05:05:05.000Z', category: 'dessert', note: 'z', active: true, fields: { price: -4 } },
  { id: 'p12', workspaceId: 'ws3', code: 'golf', rank: 55, title: 'plain', category: 'fruit', note: 'n', active: false, fields: { price: 55.5 } },
];

/**
 * The same products in a collection with typed columns: every query of the suite must answer
 * the same from them. Typed columns hold one JSON type each, so the string price of p05 is a
 * number here (a value of another type counts as missing; tested on its own), and `note`
 * (strings and arrays) and `fields.tags` stay in the document: filters mix both kinds.
 */
const TYPED_SEED: readonly Product[] = SEED.map((product) => (product.id === 'p05' ? { ...product, fields: { price: 12 } } : product));
const TYPED_COLUMNS: ColumnDefinition[] = [
  { path: 'workspaceId', type: 'text' },
  { path: 'code', type: 'text' },
  { path: 'rank', type: 'number' },
  { path: 'title', type: 'text' },
  { path: 'publishedAt', type: 'datetime' },
  { path: 'category', type: 'text' },
  { path: 'active', type: 'boolean' },
  { path: 'fields.price', type: 'number' },
];
const TYPED_INDEXES: IndexDefinition[] = [
  { fields: ['workspaceId', 'fields.price', 'id'] },
  { fields: ['code', 'id'] },
  { fields: ['title'], text: 'prefix' },
  { fields: ['title'], text: 'prefix-folded' },
  { fields: ['title'], text: 'substring' },
];

const ids = (documents: readonly { readonly id: string }[]): string[] => documents.map((document) => document.id);
const sortedIds = (documents: readonly { readonly id: string }[]): string[] => ids(documents).sort();

function where(field: string, operator: Operator, value?: Scalar | readonly Scalar[], caseInsensitive?: boolean): Condition {
  return { type: 'condition', field, operator, value, caseInsensitive };
}

const isNumber = (value: unknown): value is number => typeof value === 'number';
const price = (product: Product): unknown => product.fields.price;
const isEmpty = (value: unknown): boolean =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

const FILTER_CASES: [string, Filter, (product: Product) => boolean][] = [
  ['e on a string', where('workspaceId', 'e', 'ws1'), (p) => p.workspaceId === 'ws1'],
  ['e on a number', where('rank', 'e', 10), (p) => p.rank === 10],
  ['e on a boolean', where('active', 'e', false), (p) => p.active === false],
  ['e null matches null and missing', where('category', 'e', null), (p) => p.category === null || p.category === undefined],
  ['e on a number never matches a string', where('fields.price', 'e', 12), (p) => price(p) === 12],
  ['ne also matches a missing field', where('category', 'ne', 'fruit'), (p) => p.category !== 'fruit'],
  ['ne null', where('category', 'ne', null), (p) => p.category !== null && p.category !== undefined],
  ['gt on numbers orders numerically', where('rank', 'gt', 9), (p) => p.rank > 9],
  ['gte on numbers', where('rank', 'gte', 10), (p) => p.rank >= 10],
  ['lt on a nested number skips strings and nulls', where('fields.price', 'lt', 10), (p) => isNumber(price(p)) && (price(p) as number) < 10],
  ['lte on a nested number', where('fields.price', 'lte', 100), (p) => isNumber(price(p)) && (price(p) as number) <= 100],
  ['gt on a number ignores a numeric string', where('fields.price', 'gt', 11), (p) => isNumber(price(p)) && (price(p) as number) > 11],
  ['gte on dates', where('publishedAt', 'gte', '2024-01-15T12:30:00.000Z'), (p) => p.publishedAt !== undefined && p.publishedAt >= '2024-01-15T12:30:00.000Z'],
  ['lt on dates', where('publishedAt', 'lt', '2024-03-01T09:00:00.000Z'), (p) => p.publishedAt !== undefined && p.publishedAt < '2024-03-01T09:00:00.000Z'],
  ['gt on strings', where('code', 'gt', 'charlie'), (p) => p.code > 'charlie'],
  ['lte on strings', where('code', 'lte', 'bravo'), (p) => p.code <= 'bravo'],
  ['in on strings', where('code', 'in', ['alpha', 'echo', 'zulu']), (p) => ['alpha', 'echo', 'zulu'].includes(p.code)],
  ['in on numbers', where('rank', 'in', [9, 100]), (p) => [9, 100].includes(p.rank)],
  ['in with null matches null and missing', where('category', 'in', ['deal', null]), (p) => p.category === 'deal' || p.category === null || p.category === undefined],
  ['in with an empty list', where('code', 'in', []), () => false],
  ['nin also matches a missing field', where('category', 'nin', ['fruit', 'dessert']), (p) => p.category !== 'fruit' && p.category !== 'dessert'],
  ['nin on numbers', where('rank', 'nin', [10, 9]), (p) => ![10, 9].includes(p.rank)],
  ['start', where('title', 'start', 'apple'), (p) => p.title.startsWith('apple')],
  ['start, case-insensitive', where('title', 'start', 'APPLE', true), (p) => p.title.toLowerCase().startsWith('apple')],
  ['end', where('title', 'end', 'bread'), (p) => p.title.endsWith('bread')],
  ['end, case-insensitive', where('title', 'end', 'Bread', true), (p) => p.title.toLowerCase().endsWith('bread')],
  ['contains', where('title', 'contains', 'an'), (p) => p.title.includes('an')],
  ['contains, case-insensitive', where('title', 'contains', 'AN', true), (p) => p.title.toLowerCase().includes('an')],
  ['contains non-ASCII text', where('title', 'contains', 'brûlée ☕'), (p) => p.title.includes('brûlée ☕')],
  ['contains matches % literally', where('title', 'contains', '%'), (p) => p.title.includes('%')],
  ['start matches % literally', where('title', 'start', '50%'), (p) => p.title.startsWith('50%')],
  ['contains matches _ literally', where('title', 'contains', 'e_c'), (p) => p.title.includes('e_c')],
  ['contains matches _ literally, case-insensitive', where('title', 'contains', '_CASE', true), (p) => p.title.toLowerCase().includes('_case')],
  ['contains matches a backslash literally', where('title', 'contains', 'k\\s'), (p) => p.title.includes('k\\s')],
  ['text operators skip non-strings', where('fields.price', 'start', '1'), (p) => typeof price(p) === 'string' && (price(p) as string).startsWith('1')],
  ['noe: missing, null, empty string and empty array', where('note', 'noe'), (p) => isEmpty(p.note)],
  ['nnoe', where('note', 'nnoe'), (p) => !isEmpty(p.note)],
  ['noe on a nested path', where('fields.tags', 'noe'), (p) => isEmpty(p.fields.tags)],
  ['includes: an array holding any of the strings', where('fields.tags', 'includes', ['c', 'z']), (p) => Array.isArray(p.fields.tags) && p.fields.tags.some((tag) => ['c', 'z'].includes(tag))],
  ['includes never matches a value that is not an array', where('note', 'includes', ['x', 'ok']), (p) => Array.isArray(p.note) && p.note.some((note) => ['x', 'ok'].includes(note as string))],
  ['includes on a typed column (no arrays there)', where('code', 'includes', ['alpha']), () => false],
  ['not over includes also matches a missing field', { type: 'not', condition: where('fields.tags', 'includes', ['b']) }, (p) => !(Array.isArray(p.fields.tags) && p.fields.tags.includes('b'))],
  ['nnoe on a nested path', where('fields.tags', 'nnoe'), (p) => !isEmpty(p.fields.tags)],
  [
    'and',
    { type: 'and', conditions: [where('workspaceId', 'e', 'ws1'), where('rank', 'gt', 5)] },
    (p) => p.workspaceId === 'ws1' && p.rank > 5,
  ],
  [
    'or',
    { type: 'or', conditions: [where('code', 'e', 'echo'), where('fields.price', 'lt', 0)] },
    (p) => p.code === 'echo' || (isNumber(price(p)) && (price(p) as number) < 0),
  ],
  [
    'not over a condition that is unknown for missing fields',
    { type: 'not', condition: where('category', 'in', ['fruit', 'dessert']) },
    (p) => p.category !== 'fruit' && p.category !== 'dessert',
  ],
  [
    'not over a comparison on a missing field',
    { type: 'not', condition: where('publishedAt', 'gte', '2024-03-01T00:00:00.000Z') },
    (p) => !(p.publishedAt !== undefined && p.publishedAt >= '2024-03-01T00:00:00.000Z'),
  ],
  [
    'nested groups',
    {
      type: 'and',
      conditions: [
        { type: 'or', conditions: [where('workspaceId', 'e', 'ws1'), where('workspaceId', 'e', 'ws2')] },
        { type: 'not', condition: { type: 'and', conditions: [where('active', 'e', true), where('fields.price', 'gte', 9)] } },
      ],
    },
    (p) =>
      (p.workspaceId === 'ws1' || p.workspaceId === 'ws2') && !(p.active && isNumber(price(p)) && (price(p) as number) >= 9),
  ],
  ['an empty and matches everything', { type: 'and', conditions: [] }, () => true],
  ['an empty or matches nothing', { type: 'or', conditions: [] }, () => false],
];

function compareValues(a: unknown, b: unknown): number {
  // Missing sorts lowest; the sorted fields below hold one JSON type each.
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  return (a as number | string) < (b as number | string) ? -1 : (a as number | string) > (b as number | string) ? 1 : 0;
}

function sortedBy(products: readonly Product[], keys: readonly SortKey[]): Product[] {
  return [...products].sort((a, b) => {
    for (const key of keys) {
      const [x, y] = [a, b].map((product) => (product as Record<string, unknown>)[key.field]);
      const order = compareValues(x, y) * (key.direction === 'asc' ? 1 : -1);
      if (order !== 0) return order;
    }
    return compareValues(a.id, b.id);
  });
}

function expectedAggregate(products: readonly Product[], operation: AggregateOperation): number | null {
  if (operation === 'count') return products.filter((p) => price(p) !== undefined && price(p) !== null).length;
  const numbers = products.map(price).filter(isNumber);
  if (numbers.length === 0) return null;
  const sum = numbers.reduce((total, value) => total + value, 0);
  return { sum, avg: sum / numbers.length, min: Math.min(...numbers), max: Math.max(...numbers) }[operation];
}

function expectNumber(actual: number | null, expected: number | null): void {
  if (expected === null) expect(actual).toBeNull();
  else expect(actual).toBeCloseTo(expected, 9);
}

const OPERATIONS: AggregateOperation[] = ['sum', 'avg', 'min', 'max', 'count'];

/** The layouts of a collection whose `n` and `g` are read: documents only, typed columns in the document's table, typed columns apart. */
const LAYOUTS: [string, ColumnDefinition[], CollectionLayout][] = [
  ['documents', [], {}],
  ['typed columns', [{ path: 'n', type: 'number' }, { path: 'g', type: 'text' }], {}],
  ['typed columns, documents apart', [{ path: 'n', type: 'number' }, { path: 'g', type: 'text' }], { documentsApart: true }],
];

const position = (commit: bigint, prepare: bigint): Position => ({ commit, prepare });

/** The exact decimal sum of numbers written with their shortest digits, as the nearest number: an oracle independent of any store. */
function decimalSum(values: readonly number[]): number {
  const parts = values.map((value) => {
    const [mantissa = '', exponent = '0'] = String(value).split('e');
    const [whole, fraction = ''] = mantissa.split('.');
    return { digits: BigInt(whole + fraction), exponent: Number(exponent) - fraction.length };
  });
  const lowest = Math.min(...parts.map((part) => part.exponent));
  const total = parts.reduce((sum, part) => sum + part.digits * 10n ** BigInt(part.exponent - lowest), 0n);
  return Number(`${total}e${lowest}`);
}

type OpenReadStore = () => Promise<{ store: ReadStore; close: () => Promise<void> }>;

/** The behaviour every ReadStore adapter shares. Collection and checkpoint names are unique per test. */
export function describeReadStoreConformance(label: string, open: OpenReadStore): void {
  describe(`ReadStore conformance: ${label}`, () => {
    let store: ReadStore;
    let close: () => Promise<void>;
    const products = unique('products');
    const typedProducts = unique('typed_products');
    const apartProducts = unique('apart_products');

    beforeAll(async () => {
      ({ store, close } = await open());
      await store.ensureCollection(products, [{ fields: ['workspaceId'] }, { fields: ['workspaceId', 'fields.price'] }, { fields: ['code'] }]);
      await store.apply(SEED.map((document) => ({ kind: 'upsert', collection: products, document })));
      await store.ensureCollection(typedProducts, TYPED_INDEXES, TYPED_COLUMNS);
      await store.apply(TYPED_SEED.map((document) => ({ kind: 'upsert', collection: typedProducts, document })));
      await store.ensureCollection(apartProducts, TYPED_INDEXES, TYPED_COLUMNS, { documentsApart: true });
      await store.apply(TYPED_SEED.map((document) => ({ kind: 'upsert', collection: apartProducts, document })));
    });

    afterAll(async () => {
      await close();
    });

    describe('collections and documents', () => {
      it('ensureCollection is idempotent, keeps the data and enforces unique indexes', async () => {
        const collection = unique('articles');
        const indexes = [{ fields: ['workspaceId'] }, { fields: ['workspaceId', 'slug'], unique: true }];
        await store.ensureCollection(collection, indexes);
        await store.ensureCollection(collection, indexes);
        await store.apply([{ kind: 'upsert', collection, document: { id: 'a1', workspaceId: 'w', slug: 'hello' } }]);
        await store.ensureCollection(collection, indexes);

        expect(await store.get(collection, 'a1')).toEqual({ id: 'a1', workspaceId: 'w', slug: 'hello' });
        await expect(
          store.apply([{ kind: 'upsert', collection, document: { id: 'a2', workspaceId: 'w', slug: 'hello' } }]),
        ).rejects.toThrow();
        await store.apply([{ kind: 'upsert', collection, document: { id: 'a3', workspaceId: 'other', slug: 'hello' } }]);
        expect(await store.count(collection, {})).toBe(2);

        // One batch that frees a unique value and gives it to another document, among other changes.
        await store.apply([
          { kind: 'upsert', collection, document: { id: 'a4', workspaceId: 'w', slug: 'other' } },
          { kind: 'delete', collection, id: 'a1' },
          { kind: 'upsert', collection, document: { id: 'a5', workspaceId: 'w', slug: 'hello' } },
        ]);
        expect((await store.find(collection, { filter: { type: 'condition', field: 'slug', operator: 'e', value: 'hello' } })).items.map((d) => d.id).sort()).toEqual(['a3', 'a5']);
      });

      it('upsert replaces the whole document, delete removes it, a missing id reads as null', async () => {
        const collection = unique('items');
        await store.ensureCollection(collection, []);
        await store.apply([{ kind: 'upsert', collection, document: { id: 'i1', name: 'first', extra: true } }]);
        expect(await store.get(collection, 'i1')).toEqual({ id: 'i1', name: 'first', extra: true });

        await store.apply([{ kind: 'upsert', collection, document: { id: 'i1', name: 'second' } }]);
        expect(await store.get(collection, 'i1')).toEqual({ id: 'i1', name: 'second' });

        await store.apply([{ kind: 'delete', collection, id: 'i1' }]);
        expect(await store.get(collection, 'i1')).toBeNull();
        await store.apply([{ kind: 'delete', collection, id: 'never-existed' }]);
        expect(await store.get(collection, 'missing')).toBeNull();
      });

      it('gets many documents in one call, leaving out the missing ones', async () => {
        const collection = unique('many');
        await store.ensureCollection(collection, []);
        await store.apply(['a', 'b', 'c'].map((id) => ({ kind: 'upsert' as const, collection, document: { id, n: id.charCodeAt(0) } })));
        const found = await store.getMany(collection, ['c', 'missing', 'a']);
        expect([...found].sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual([{ id: 'a', n: 97 }, { id: 'c', n: 99 }]);
        expect(await store.getMany(collection, [])).toEqual([]);
      });

      it('gets many documents of several collections in one call, by collection, leaving out the missing ones', async () => {
        const [plain, apart, holder, shared, unasked] = [unique('across_plain'), unique('across_apart'), unique('across_holder'), unique('across_shared'), unique('across_unasked')];
        await store.ensureCollection(plain, []);
        await store.ensureCollection(apart, [], [{ path: 'n', type: 'number' }], { documentsApart: true });
        await store.ensureCollection(holder, []);
        await store.ensureCollection(shared, [], [{ path: 'n', type: 'number' }], { documentsApart: true, documentsIn: holder });
        await store.ensureCollection(unasked, []);
        const document = (collection: string, id: string) => ({ kind: 'upsert' as const, collection, document: { id, n: id.length, of: collection } });
        await store.apply([
          document(plain, 'a'),
          document(plain, 'b'),
          document(apart, 'a'),
          document(holder, 'a'),
          document(holder, 'other'),
          document(shared, 'a'),
          document(unasked, 'a'),
        ]);
        const wanted = new Map([
          [shared, ['a', 'other']],
          [plain, ['b', 'missing', 'a']],
          [apart, ['a']],
          [unasked, []],
        ]);
        const found = await store.getManyAcross(wanted);
        const byId = (documents: readonly Document[] | undefined) => [...(documents ?? [])].sort((x, y) => (x.id < y.id ? -1 : 1));
        expect([...found.keys()].sort()).toEqual([...wanted.keys()].sort());
        expect(byId(found.get(plain))).toEqual([document(plain, 'a').document, document(plain, 'b').document]);
        expect(byId(found.get(apart))).toEqual([document(apart, 'a').document]);
        expect(byId(found.get(shared))).toEqual([document(holder, 'a').document]);
        expect(found.get(unasked)).toEqual([]);
        expect(await store.getManyAcross(new Map())).toEqual(new Map());
      });

      it('round-trips documents exactly', async () => {
        const collection = unique('shapes');
        const document = {
          id: 'd1',
          text: 'Grüße 👋 — 日本語 "quoted" \\ back',
          nested: { deep: { list: [1, 'two', { three: 3 }, [4, [5]]], flag: false, nothing: null } },
          integer: 42,
          negative: -7,
          fraction: 0.1 + 0.2,
          large: Number.MAX_SAFE_INTEGER,
          tiny: 1.5e-10,
          yes: true,
          emptyObject: {},
          emptyList: [],
          emptyText: '',
        };
        await store.ensureCollection(collection, []);
        await store.apply([{ kind: 'upsert', collection, document }]);
        expect(await store.get(collection, 'd1')).toEqual(document);
        expect((await store.find(collection, {})).items).toEqual([document]);
      });

      it('dropCollection removes the documents', async () => {
        const collection = unique('dropped');
        await store.ensureCollection(collection, [{ fields: ['x'] }]);
        await store.apply([{ kind: 'upsert', collection, document: { id: 'x1', x: 1 } }]);
        await store.dropCollection(collection);
        await store.ensureCollection(collection, [{ fields: ['x'] }]);
        expect(await store.count(collection, {})).toBe(0);
      });
    });

    for (const variant of ['documents', 'typed columns', 'typed columns, documents apart'] as const) {
      const seed = variant === 'documents' ? SEED : TYPED_SEED;
      const collection = { documents: products, 'typed columns': typedProducts, 'typed columns, documents apart': apartProducts }[variant];
      describe(`${variant}:`, () => {
        describe('find', () => {
          it.each(FILTER_CASES)('%s', async (_name, filter, predicate) => {
            const expected = seed.filter(predicate);
            const result = await store.find<Product>(collection, { filter });
            expect(sortedIds(result.items)).toEqual(sortedIds(expected));
            expect(result.total).toBe(expected.length);
            expect(await store.count(collection, { filter })).toBe(expected.length);
          });

          it('returns whole documents', async () => {
            const result = await store.find<Product>(collection, { filter: where('id', 'e', 'p01') });
            expect(result.items).toEqual([seed[0]]);
          });

          it.each<[string, SortKey[]]>([
            ['several keys with mixed directions, ties by id', [{ field: 'code', direction: 'asc' }, { field: 'rank', direction: 'desc' }]],
            ['numbers numerically', [{ field: 'rank', direction: 'asc' }]],
            ['dates descending, missing last', [{ field: 'publishedAt', direction: 'desc' }]],
            ['dates ascending, missing first', [{ field: 'publishedAt', direction: 'asc' }]],
            ['no keys: by id', []],
          ])('sorts %s', async (_name, sort) => {
            const result = await store.find<Product>(collection, { sort });
            expect(ids(result.items)).toEqual(ids(sortedBy(seed, sort)));
          });

          it('sorts by a unique key alone (sortIsUnique), filtered and limited', async () => {
            const sort: SortKey[] = [{ field: 'rank', direction: 'desc' }];
            const ws2 = seed.filter((product) => product.workspaceId === 'ws2');
            expect(new Set(ws2.map((product) => product.rank)).size).toBe(ws2.length);
            const page = await store.list<Product>(collection, { filter: where('workspaceId', 'e', 'ws2'), sort, sortIsUnique: true, limit: 3 });
            expect(ids(page)).toEqual(ids(sortedBy(ws2, sort)).slice(0, 3));
          });

          it('sorts on a nested path', async () => {
            const withNumbers = seed.filter((p) => isNumber(price(p)));
            const result = await store.find<Product>(collection, {
              filter: where('fields.price', 'gte', -1000),
              sort: [{ field: 'fields.price', direction: 'desc' }],
            });
            const expected = [...withNumbers].sort((a, b) => (price(b) as number) - (price(a) as number) || compareValues(a.id, b.id));
            expect(ids(result.items)).toEqual(ids(expected));
          });

          it('pages with offset and limit; total ignores paging', async () => {
            const sort: SortKey[] = [{ field: 'rank', direction: 'asc' }];
            const all = ids(sortedBy(seed, sort));
            const pageSize = 5;
            const pages: string[] = [];
            for (let offset = 0; offset < all.length; offset += pageSize) {
              const page = await store.find<Product>(collection, { sort, offset, limit: pageSize });
              expect(page.total).toBe(seed.length);
              expect(ids(page.items)).toEqual(all.slice(offset, offset + pageSize));
              pages.push(...ids(page.items));
            }
            expect(pages).toEqual(all);
            expect(all.length % pageSize).not.toBe(0);

            const pastTheEnd = await store.find(collection, { sort, offset: all.length + 10, limit: pageSize });
            expect(pastTheEnd).toEqual({ items: [], total: seed.length });
            expect(await store.find(collection, { sort, limit: 0 })).toEqual({ items: [], total: seed.length });
            expect(ids((await store.find<Product>(collection, { sort, offset: 3 })).items)).toEqual(all.slice(3));
          });

          it('lists the same documents as find, in order, without a total', async () => {
            const sort: SortKey[] = [{ field: 'rank', direction: 'desc' }];
            const filter: Filter = { type: 'condition', field: 'rank', operator: 'gte', value: 3 };
            for (const query of [{ sort }, { sort, filter }, { sort, filter, offset: 2, limit: 3 }, { sort, limit: 0 }, { sort, offset: seed.length }]) {
              expect(await store.list<Product>(collection, query)).toEqual((await store.find<Product>(collection, query)).items);
            }
            expect(ids(await store.list<Product>(collection, { sort, limit: 4 }))).toEqual(ids(sortedBy(seed, sort)).slice(0, 4));
          });

          it('counts the filter, not the page', async () => {
            const filter = where('workspaceId', 'e', 'ws1');
            const result = await store.find(collection, { filter, limit: 2 });
            expect(result.items).toHaveLength(2);
            expect(result.total).toBe(seed.filter((p) => p.workspaceId === 'ws1').length);
          });

          it('findIds returns the ids of find, in the same order', async () => {
            const query = {
              filter: where('workspaceId', 'in', ['ws1', 'ws2']),
              sort: [{ field: 'code', direction: 'desc' as const }],
              offset: 1,
              limit: 6,
            };
            const found = await store.find<Product>(collection, query);
            const foundIds = await store.findIds(collection, query);
            expect(foundIds.items).toEqual(ids(found.items));
            expect(foundIds.total).toBe(found.total);
            expect(foundIds.items).toHaveLength(6);
            expect(await store.listIds(collection, query)).toEqual(foundIds.items);
            expect(await store.listIds(collection, { ...query, limit: 0 })).toEqual([]);
          });
        });

        describe('aggregates', () => {
          it.each(OPERATIONS)('%s over the whole collection and over a filter', async (operation) => {
            expectNumber(await store.aggregate(collection, { field: 'fields.price', operation }), expectedAggregate(seed, operation));

            const filter = where('workspaceId', 'in', ['ws1', 'ws2']);
            const matching = seed.filter((p) => p.workspaceId !== 'ws3');
            expectNumber(await store.aggregate(collection, { field: 'fields.price', operation, filter }), expectedAggregate(matching, operation));

            const nothing = where('workspaceId', 'e', 'nowhere');
            expectNumber(await store.aggregate(collection, { field: 'fields.price', operation, filter: nothing }), operation === 'count' ? 0 : null);
          });

          it.each(OPERATIONS)('%s per group, with one group for null and missing', async (operation) => {
            const groups = await store.aggregateGroups(collection, { field: 'fields.price', operation, groupBy: 'category' });
            const categories = [...new Set(seed.map((p) => p.category ?? null))];
            const byGroup = (group: Scalar) => String(group);
            expect(groups.map((g) => g.group).sort()).toEqual([...categories].sort());
            for (const group of groups) {
              const members = seed.filter((p) => byGroup(p.category ?? null) === byGroup(group.group));
              expectNumber(group.value, expectedAggregate(members, operation));
            }
            expect(groups.some((g) => g.group === null)).toBe(true);
            if (operation !== 'count' && variant === 'documents') expect(groups.find((g) => g.group === 'misc')?.value).toBeNull();
          });

          it('aggregates groups over a filter', async () => {
            const filter = where('active', 'e', true);
            const groups = await store.aggregateGroups(collection, { field: 'rank', operation: 'sum', groupBy: 'workspaceId', filter });
            const active = seed.filter((p) => p.active);
            const expected = [...new Set(active.map((p) => p.workspaceId))].map((workspaceId) => ({
              group: workspaceId,
              value: active.filter((p) => p.workspaceId === workspaceId).reduce((sum, p) => sum + p.rank, 0),
            }));
            const byGroup = (a: { group: Scalar }, b: { group: Scalar }) => String(a.group).localeCompare(String(b.group));
            expect([...groups].sort(byGroup)).toEqual(expected.sort(byGroup));
          });
        });
      });
    }

    describe('typed columns', () => {
      it('read a value of another JSON type as missing, and keep the document whole', async () => {
        const collection = unique('typed_mixed');
        await store.ensureCollection(collection, [{ fields: ['n', 'id'] }], [{ path: 'n', type: 'number' }, { path: 's', type: 'text' }, { path: 'b', type: 'boolean' }]);
        const documents = [
          { id: 'm1', n: 5, s: 'five', b: true },
          { id: 'm2', n: '7', s: 7, b: 'yes' },
          { id: 'm3', n: null, s: null },
          { id: 'm4', n: [1], s: [], b: false },
          { id: 'm5', n: -1, s: '' },
        ];
        await store.apply(documents.map((document) => ({ kind: 'upsert' as const, collection, document })));
        const matching = async (filter: Filter) => sortedIds((await store.find(collection, { filter })).items);
        expect(await store.get(collection, 'm2')).toEqual(documents[1]);
        expect(await matching(where('n', 'e', null))).toEqual(['m2', 'm3', 'm4']);
        expect(await matching(where('n', 'gt', 0))).toEqual(['m1']);
        expect(await matching(where('n', 'ne', 5))).toEqual(['m2', 'm3', 'm4', 'm5']);
        expect(await matching(where('s', 'noe'))).toEqual(['m2', 'm3', 'm4', 'm5']);
        expect(await matching(where('s', 'contains', 'iv'))).toEqual(['m1']);
        expect(await matching(where('b', 'in', [true, null]))).toEqual(['m1', 'm2', 'm3', 'm5']);
        expect(await matching(where('n', 'e', 'five'))).toEqual([]);
        expect(ids((await store.find(collection, { sort: [{ field: 'n', direction: 'desc' }] })).items)).toEqual(['m1', 'm5', 'm2', 'm3', 'm4']);
        expect(await store.aggregate(collection, { field: 'n', operation: 'sum' })).toBe(4);
        expect(await store.aggregate(collection, { field: 's', operation: 'count' })).toBe(2);
        expect(await store.aggregate(collection, { field: 's', operation: 'max' })).toBeNull();
      });

      it.each(LAYOUTS)('sum and average add decimals, not binary fractions: %s', async (_layout, columns, layout) => {
        const collection = unique('decimals');
        await store.ensureCollection(collection, [], columns, layout);
        const prices = [0.1, 0.2, 19.99, 19.99, 19.99];
        await store.apply(prices.map((n, i) => ({ kind: 'upsert' as const, collection, document: { id: `d${i}`, g: i < 2 ? 'cents' : 'dollars', n } })));
        // In binary floating point 0.1 + 0.2 is 0.30000000000000004 and 19.99 * 3 is 59.97000000000001.
        expect(await store.aggregate(collection, { field: 'n', operation: 'sum', filter: where('g', 'e', 'cents') })).toBe(0.3);
        expect(await store.aggregate(collection, { field: 'n', operation: 'avg', filter: where('g', 'e', 'cents') })).toBe(0.15);
        expect(await store.aggregateGroups(collection, { field: 'n', operation: 'sum', groupBy: 'g' })).toEqual([
          { group: 'cents', value: 0.3 },
          { group: 'dollars', value: 59.97 },
        ]);
        expect(await store.aggregate(collection, { field: 'n', operation: 'max' })).toBe(19.99);
      });

      it.each(LAYOUTS)('sums are exact for short decimals, long decimals, large and tiny values alike: %s', async (_layout, columns, layout) => {
        const collection = unique('exact_sums');
        await store.ensureCollection(collection, [], columns, layout);
        // Each has at most 15 significant digits, so every layout holds the same decimal. Groups:
        // at most 6 decimals under 10^9 only; those beside more decimals and tiny values; large values.
        const groups = {
          short: [19.99, 0.000001, 123456.789012, -42.5, 999999999.999999, 0, 7],
          small: [19.99, 0.000001, -42.5, 7, 0.1234567, 1.23456789012345, -3.14159265358979, 1e-7, 2.5e-10],
          large: [123456.789012, 999999999.999999, 1234567890.12, -987654321098765, 1e15],
        };
        const documents = Object.entries(groups).flatMap(([g, values]) => values.map((n, i) => ({ id: `${g}${i}`, g, n })));
        await store.apply([...documents, { id: 'none', g: 'none' }].map((document) => ({ kind: 'upsert' as const, collection, document })));
        expect(await store.aggregateGroups(collection, { field: 'n', operation: 'sum', groupBy: 'g' })).toEqual([
          { group: 'large', value: decimalSum(groups.large) },
          { group: 'none', value: null },
          { group: 'short', value: decimalSum(groups.short) },
          { group: 'small', value: decimalSum(groups.small) },
        ]);
        expect(await store.aggregate(collection, { field: 'n', operation: 'sum', filter: where('g', 'e', 'small') })).toBe(decimalSum(groups.small));
        expect(await store.aggregate(collection, { field: 'n', operation: 'sum', filter: where('g', 'e', 'none') })).toBeNull();
      });

      it.each(LAYOUTS)('sums are exact for random values of 1 to 15 digits from 10^-12 to 10^15: %s', async (_layout, columns, layout) => {
        const collection = unique('random_sums');
        await store.ensureCollection(collection, [], columns, layout);
        const random = seededRandom(27);
        const value = () => (random.chance(0.5) ? -1 : 1) * Number((random.next() * 10 ** (random.int(28) - 12)).toPrecision(1 + random.int(15)));
        const groups = Array.from({ length: 50 }, () => Array.from({ length: 20 }, value));
        const documents = groups.flatMap((values, g) => values.map((n, i) => ({ id: `${g}_${i}`, g: `g${String(g).padStart(2, '0')}`, n })));
        await store.apply(documents.map((document) => ({ kind: 'upsert' as const, collection, document })));
        const sums = await store.aggregateGroups(collection, { field: 'n', operation: 'sum', groupBy: 'g' });
        expect(sums).toEqual(groups.map((values, g) => ({ group: `g${String(g).padStart(2, '0')}`, value: decimalSum(values) })));
      });

      it('keep the documents apart whole: replaced, deleted, read by id and in pages, with queries on paths without a column', async () => {
        const collection = unique('apart');
        await store.ensureCollection(collection, [{ fields: ['n', 'id'] }], [{ path: 'n', type: 'number' }, { path: 's', type: 'text' }], { documentsApart: true });
        await store.ensureCollection(collection, [{ fields: ['n', 'id'] }], [{ path: 'n', type: 'number' }, { path: 's', type: 'text' }], { documentsApart: true });
        const documents = [
          { id: 'a', n: 3, s: 'x', extra: { deep: [1, 'two'] } },
          { id: 'b', n: 1, s: 7, extra: { deep: [] } },
          { id: 'c', n: 2, extra: null },
        ];
        await store.apply(documents.map((document) => ({ kind: 'upsert' as const, collection, document })));
        expect(await store.get(collection, 'a')).toEqual(documents[0]);
        expect([...(await store.getMany(collection, ['c', 'b', 'missing']))].sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual([documents[1], documents[2]]);
        expect((await store.find(collection, { sort: [{ field: 'n', direction: 'asc' }] })).items).toEqual([documents[1], documents[2], documents[0]]);
        expect(await store.list(collection, { sort: [{ field: 'n', direction: 'desc' }], limit: 2 })).toEqual([documents[0], documents[2]]);
        // `extra` has no column: filtered and sorted from the documents.
        expect(ids(await store.list(collection, { filter: where('extra', 'nnoe') }))).toEqual(['a', 'b']);
        expect(await store.findIds(collection, { filter: where('s', 'e', null), sort: [{ field: 'extra', direction: 'desc' }] })).toEqual({ items: ['b', 'c'], total: 2 });
        expect(await store.aggregateGroups(collection, { field: 'n', operation: 'sum', groupBy: 'extra' })).toHaveLength(3);

        await store.apply([
          { kind: 'upsert', collection, document: { id: 'a', n: 10 } },
          { kind: 'delete', collection, id: 'b' },
        ]);
        expect(await store.get(collection, 'a')).toEqual({ id: 'a', n: 10 });
        expect(await store.get(collection, 'b')).toBeNull();
        expect(await store.findIds(collection, { filter: where('s', 'e', 'x') })).toEqual({ items: [], total: 0 });
        expect(await store.aggregate(collection, { field: 'n', operation: 'sum' })).toBe(12);
      });

      it('read the documents another collection holds (documentsIn): only for their own rows, whole in pages and by id, and leave them when dropped', async () => {
        const [holder, typed] = [unique('holder'), unique('shared_typed')];
        const columns: ColumnDefinition[] = [{ path: 'n', type: 'number' }];
        await store.ensureCollection(holder, []);
        await store.ensureCollection(typed, [{ fields: ['n', 'id'] }], columns, { documentsApart: true, documentsIn: holder });
        const documents = [
          { id: 'a', n: 2, note: 'two' },
          { id: 'b', n: 1, note: 'one' },
        ];
        // As the content tables are written: the holder's documents and the typed rows in one batch; `other` is the holder's alone (another type).
        await store.apply([
          ...[...documents, { id: 'other', n: 0, note: 'not typed' }].map((document) => ({ kind: 'upsert' as const, collection: holder, document })),
          ...documents.map((document) => ({ kind: 'upsert' as const, collection: typed, document })),
        ]);
        expect(await store.get(typed, 'a')).toEqual(documents[0]);
        expect(await store.get(typed, 'other')).toBeNull();
        expect([...(await store.getMany(typed, ['a', 'b', 'other']))].sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual(documents);
        expect(await store.find(typed, { sort: [{ field: 'n', direction: 'asc' }] })).toEqual({ items: [documents[1], documents[0]], total: 2 });
        // `note` has no column: filtered from the holder's documents, of this collection's rows only.
        expect(await store.findIds(typed, { filter: where('note', 'nnoe') })).toEqual({ items: ['a', 'b'], total: 2 });

        await store.apply([
          { kind: 'upsert', collection: holder, document: { id: 'a', n: 5, note: 'five' } },
          { kind: 'upsert', collection: typed, document: { id: 'a', n: 5, note: 'five' } },
          { kind: 'delete', collection: holder, id: 'b' },
          { kind: 'delete', collection: typed, id: 'b' },
        ]);
        expect(await store.find(typed, { filter: where('n', 'gt', 0) })).toEqual({ items: [{ id: 'a', n: 5, note: 'five' }], total: 1 });
        expect(await store.get(typed, 'b')).toBeNull();

        await store.dropCollection(typed);
        expect(await store.getMany(holder, ['a', 'other'])).toHaveLength(2);
      });

      it('swap a collection whose documents are apart with its documents, and drop them with it', async () => {
        const [live, fresh, checkpoint] = [unique('apart_live'), unique('apart_fresh'), unique('apart_checkpoint')];
        const columns: ColumnDefinition[] = [{ path: 'n', type: 'number' }];
        await store.ensureCollection(live, [], columns, { documentsApart: true });
        await store.apply([{ kind: 'upsert', collection: live, document: { id: 'old', n: 1 } }], [{ name: checkpoint, position: position(1n, 1n) }]);
        await store.ensureCollection(fresh, [], columns, { documentsApart: true });
        await store.apply([{ kind: 'upsert', collection: fresh, document: { id: 'new', n: 2, note: 'kept' } }], [{ name: `${checkpoint}_fresh`, position: position(2n, 2n) }]);
        await store.swapCollections([{ from: fresh, to: live }], { from: `${checkpoint}_fresh`, to: checkpoint });
        expect(await store.find(live, {})).toEqual({ items: [{ id: 'new', n: 2, note: 'kept' }], total: 1 });
        expect(await store.get(live, 'old')).toBeNull();
        // The same write as the first, after the swap (on PostgreSQL the very statement, kept prepared): into the swapped-in tables.
        await store.apply([{ kind: 'upsert', collection: live, document: { id: 'later', n: 3 } }], [{ name: checkpoint, position: position(3n, 3n) }]);
        expect(sortedIds((await store.find(live, { filter: where('n', 'gt', 1) })).items)).toEqual(['later', 'new']);
        await store.ensureCollection(fresh, [], columns, { documentsApart: true });
        expect(await store.find(fresh, {})).toEqual({ items: [], total: 0 });
        expect(await store.get(fresh, 'new')).toBeNull();

        await store.dropCollection(live);
        await store.ensureCollection(live, [], columns, { documentsApart: true });
        expect(await store.get(live, 'new')).toBeNull();
      });

      it('keep serving reads while a replacement is built, and answer from the swapped-in columns after the swap', async () => {
        const [live, fresh, checkpoint] = [unique('typed_live'), unique('typed_fresh'), unique('typed_checkpoint')];
        await store.ensureCollection(live, [{ fields: ['n', 'id'] }], [{ path: 'n', type: 'number' }]);
        await store.apply([{ kind: 'upsert', collection: live, document: { id: 'a', n: 1, s: 'x' } }], [{ name: checkpoint, position: position(1n, 1n) }]);
        expect(await store.count(live, { filter: where('n', 'gt', 0) })).toBe(1);

        // The replacement types another field; reads of the live collection go on meanwhile.
        await store.ensureCollection(fresh, [{ fields: ['s', 'id'] }], [{ path: 's', type: 'text' }]);
        await store.apply([
          { kind: 'upsert', collection: fresh, document: { id: 'a', n: '1', s: 'x' } },
          { kind: 'upsert', collection: fresh, document: { id: 'b', n: 2, s: 'yz' } },
        ], [{ name: `${checkpoint}_fresh`, position: position(2n, 2n) }]);
        expect(sortedIds((await store.find(live, { filter: where('n', 'gte', 1) })).items)).toEqual(['a']);

        await store.swapCollections([{ from: fresh, to: live }], { from: `${checkpoint}_fresh`, to: checkpoint });
        expect(sortedIds((await store.find(live, { filter: where('s', 'start', 'y') })).items)).toEqual(['b']);
        // `n` is no column any more: the document's JSON comparison applies again, the string '1' is not > 0.
        expect(sortedIds((await store.find(live, { filter: where('n', 'gt', 0) })).items)).toEqual(['b']);
        expect(ids((await store.find(live, { sort: [{ field: 's', direction: 'desc' }] })).items)).toEqual(['b', 'a']);
        expect(await store.getCheckpoint(checkpoint)).toEqual(position(2n, 2n));
      });

      it('hold values of any length in long columns, indexed, counted and compared in their order (key, then whole value)', async () => {
        const collection = unique('typed_long');
        const random = seededRandom(28);
        // Four-byte characters (U+1F300..U+1F5FF) and letters: the longest keys a b-tree entry must hold.
        const text = (length: number) => Array.from({ length }, () => (random.chance(0.5) ? String.fromCodePoint(0x1f300 + random.int(0x300)) : String.fromCharCode(97 + random.int(26)))).join('');
        const prefix = '😀'.repeat(200);
        const long = (path: string): ColumnDefinition => ({ path, type: 'text', long: true });
        await store.ensureCollection(
          collection,
          [
            { fields: ['a', 'id'] },
            { fields: ['a', 'b', 'c', 'id'], descending: ['b'] },
            { fields: ['a'], text: 'prefix' },
            { fields: ['a'], text: 'prefix-folded' },
            { fields: ['a'], text: 'substring' },
          ],
          [long('a'), long('b'), long('c'), { path: 'n', type: 'number' }],
        );
        await store.ensureCounts(collection, 'q', [['a']]);
        const documents = [
          { id: 'l1', a: `${prefix}x${text(99_799)}`, b: text(10_000), c: text(10_000), n: 1 },
          { id: 'l2', a: `${prefix}y${text(9_799)}`, b: text(10_000), c: text(10_000), n: 2 },
          { id: 'l3', a: prefix, b: prefix, c: prefix, n: 3 },
          { id: 's1', a: 'Short', b: 'b', c: 'c', n: 4 },
        ];
        await store.apply(documents.map((document) => ({ kind: 'upsert' as const, collection, document })));
        const [l1, l2] = documents;
        const matching = async (filter: Filter) => sortedIds((await store.find(collection, { filter })).items);
        expect(await matching(where('a', 'e', l1!.a))).toEqual(['l1']);
        expect(await matching(where('a', 'e', prefix))).toEqual(['l3']);
        expect(await matching(where('a', 'e', `${prefix}x`))).toEqual([]);
        expect(await matching(where('a', 'ne', l2!.a))).toEqual(['l1', 'l3', 's1']);
        expect(await matching(where('a', 'in', [l2!.a, 'Short', `${prefix}y`]))).toEqual(['l2', 's1']);
        expect(await matching(where('a', 'gt', prefix))).toEqual(['l1', 'l2']);
        expect(await matching(where('a', 'gte', prefix))).toEqual(['l1', 'l2', 'l3']);
        expect(await matching(where('a', 'lt', l2!.a))).toEqual(['l1', 'l3', 's1']);
        expect(await matching(where('a', 'lte', l1!.a))).toEqual(['l1', 'l3', 's1']);
        expect(await matching(where('a', 'gt', `${prefix}x${'~'.repeat(10)}`))).toEqual(['l1', 'l2'].filter((id) => documents.find((d) => d.id === id)!.a > `${prefix}x${'~'.repeat(10)}`));
        expect(await matching(where('a', 'start', '😀😀'))).toEqual(['l1', 'l2', 'l3']);
        expect(await matching(where('a', 'start', 'sho', true))).toEqual(['s1']);
        expect(await matching(where('a', 'contains', l1!.a.slice(-40)))).toEqual(['l1']);
        expect(await matching(where('a', 'noe'))).toEqual([]);
        expect(ids((await store.find(collection, { sort: [{ field: 'a', direction: 'asc' }] })).items)).toEqual(['s1', 'l3', 'l1', 'l2']);
        expect(ids((await store.find(collection, { sort: [{ field: 'a', direction: 'desc' }] })).items)).toEqual(['l2', 'l1', 'l3', 's1']);
        expect(await store.count(collection, { filter: where('a', 'e', 'Short') })).toBe(1);
        expect(await store.count(collection, { filter: where('a', 'e', l1!.a) })).toBe(1);
        expect(await store.count(collection, { filter: where('a', 'gte', prefix) })).toBe(3);
        expect(await store.aggregate(collection, { field: 'a', operation: 'count' })).toBe(4);
      });

      it('extract the values again when a document is replaced, and forget them when it is deleted', async () => {
        const collection = unique('typed_updates');
        await store.ensureCollection(collection, [], [{ path: 'fields.n', type: 'number' }]);
        await store.apply([
          { kind: 'upsert', collection, document: { id: 'u1', fields: { n: 1 } } },
          { kind: 'upsert', collection, document: { id: 'u2', fields: { n: 2 } } },
        ]);
        await store.apply([
          { kind: 'upsert', collection, document: { id: 'u1', fields: { n: 10 } } },
          { kind: 'delete', collection, id: 'u2' },
        ]);
        expect(sortedIds((await store.find(collection, { filter: where('fields.n', 'gte', 2) })).items)).toEqual(['u1']);
        expect(await store.aggregate(collection, { field: 'fields.n', operation: 'sum' })).toBe(10);
        await store.ensureCollection(collection, [], [{ path: 'fields.n', type: 'number' }]);
        expect(await store.count(collection, { filter: where('fields.n', 'e', 10) })).toBe(1);
        await store.analyzeCollection(collection);
        expect(await store.count(collection, { filter: where('fields.n', 'e', 10) })).toBe(1);
      });
    });

    describe('ensureIndexes', () => {
      /** Composite b-trees as declared query indexes are: equality fields, then a sort field (one descending), then id. */
      const DECLARED: IndexDefinition[] = [
        { fields: ['code', 'rank', 'id'], descending: ['rank'] },
        { fields: ['active', 'publishedAt', 'id'] },
      ];
      const typedCollection = async (base: string) => {
        const collection = unique(base);
        await store.ensureCollection(collection, TYPED_INDEXES, TYPED_COLUMNS);
        await store.apply(TYPED_SEED.map((document) => ({ kind: 'upsert' as const, collection, document })));
        return collection;
      };

      it('creates the missing indexes of a group, finds them in place again, and drops those no longer listed', async () => {
        const collection = await typedCollection('grouped');
        const first = await store.ensureIndexes(collection, 'q', DECLARED);
        expect(first.created).toHaveLength(2);
        expect(first.dropped).toEqual([]);
        expect(await store.ensureIndexes(collection, 'q', DECLARED)).toEqual({ created: [], dropped: [] });

        const replaced = await store.ensureIndexes(collection, 'q', [DECLARED[1]!, { fields: ['category', 'fields.price', 'id'] }]);
        expect(replaced.created).toHaveLength(1);
        expect(replaced.created).not.toContain(first.created[1]);
        expect(replaced.dropped).toEqual([first.created[0]]);
        // The same fields in another direction are another index.
        const flipped = await store.ensureIndexes(collection, 'q', [{ fields: ['active', 'publishedAt', 'id'], descending: ['publishedAt'] }]);
        expect(flipped.created).toHaveLength(1);
        expect([...flipped.dropped].sort()).toEqual([first.created[1], replaced.created[0]].sort());
        expect((await store.ensureIndexes(collection, 'q', [])).dropped).toEqual(flipped.created);
      });

      it('changes no answer: equality with a sort in either direction, pages and totals', async () => {
        const collection = await typedCollection('indexed_answers');
        const queries: FindQuery[] = [
          { filter: where('code', 'e', 'delta'), sort: [{ field: 'rank', direction: 'desc' }] },
          { filter: where('code', 'e', 'delta'), sort: [{ field: 'rank', direction: 'asc' }], offset: 1, limit: 1 },
          { filter: where('active', 'e', true), sort: [{ field: 'publishedAt', direction: 'desc' }], limit: 4 },
          { filter: where('active', 'e', false), sort: [{ field: 'publishedAt', direction: 'asc' }] },
        ];
        const answers = () => Promise.all(queries.map((query) => store.find<Product>(collection, query)));
        const before = await answers();
        await store.ensureIndexes(collection, 'q', DECLARED);
        expect(await answers()).toEqual(before);
        const [byRank] = before;
        expect(ids(byRank!.items)).toEqual(ids(sortedBy(TYPED_SEED.filter((product) => product.code === 'delta'), [{ field: 'rank', direction: 'desc' }])));
        expect(ids(before[2]!.items)).toEqual(ids(sortedBy(TYPED_SEED.filter((product) => product.active), [{ field: 'publishedAt', direction: 'desc' }])).slice(0, 4));
      });

      it('leaves the collection\'s other indexes and other groups alone', async () => {
        const collection = unique('grouped_unique');
        await store.ensureCollection(collection, [{ fields: ['slug'], unique: true }]);
        await store.apply([{ kind: 'upsert', collection, document: { id: 'a', slug: 'taken' } }]);
        const other = await store.ensureIndexes(collection, 'r', [{ fields: ['slug', 'id'] }]);
        const grouped = await store.ensureIndexes(collection, 'q', [{ fields: ['id', 'slug'] }]);
        expect(other.created).toHaveLength(1);
        expect(grouped).toEqual({ created: [expect.any(String)], dropped: [] });
        expect(await store.ensureIndexes(collection, 'q', [])).toEqual({ created: [], dropped: grouped.created });
        expect(await store.ensureIndexes(collection, 'r', [{ fields: ['slug', 'id'] }])).toEqual({ created: [], dropped: [] });
        await expect(store.apply([{ kind: 'upsert', collection, document: { id: 'b', slug: 'taken' } }])).rejects.toThrow();
      });

      it('counts the reads of each index of a group, every reader included; null for one the group does not have', async () => {
        const collection = unique('scanned');
        await store.ensureCollection(collection, [], [{ path: 'n', type: 'number' }, { path: 'm', type: 'number' }]);
        await store.apply(Array.from({ length: 3000 }, (_, i) => ({ kind: 'upsert' as const, collection, document: { id: `d${i}`, n: i % 300, m: i % 7 } })));
        const byN: IndexDefinition = { fields: ['n', 'id'] };
        const byM: IndexDefinition = { fields: ['m', 'id'] };
        await store.ensureIndexes(collection, 'q', [byN]);
        await store.analyzeCollection(collection);
        expect(await store.indexScans(collection, 'q', [byN, byM])).toEqual([0, null]);
        // One matching value in 300: an index read wherever the engine plans. The figure may trail the reads (PostgreSQL flushes its statistics at most once a second).
        const scans = await eventually(async () => {
          expect(await store.count(collection, { filter: where('n', 'e', 17) })).toBe(10);
          const [n] = await store.indexScans(collection, 'q', [byN]);
          return n! > 0 ? n : undefined;
        });
        expect(scans).toBeGreaterThan(0);
        expect(await store.indexScans(collection, 'r', [byN])).toEqual([null]);
        expect(await store.indexScans(unique('missing'), 'q', [byN])).toEqual([null]);
      });

      it('a covering index over a long column changes no grouped answer: short, long and missing groups, before and after it, and writes made since', async () => {
        const collection = unique('covering');
        const columns: ColumnDefinition[] = [{ path: 'stage', type: 'text' }, { path: 'category', type: 'text', long: true }, { path: 'price', type: 'number' }];
        await store.ensureCollection(collection, [{ fields: ['stage', 'id'] }], columns, { documentsApart: true });
        // Values at a key's length and past it share their first 200 characters: a key alone would merge them. The longest are
        // random (compression cannot shrink them below a b-tree entry's 2,704 bytes), of a Text's and a RichText's most.
        const shared = 'k'.repeat(199);
        const random = (length: number) => randomBytes(length).toString('base64').replace(/[^a-z]/g, 'a').slice(0, length);
        // In the order of the answer's groups.
        const categories = [null, shared, `${shared}a`, `${shared}b${random(9_800)}`, `${shared}c${random(99_800)}`, 'short', 'z'];
        /** A group's value, short enough for a failure's diff. */
        const label = (group: Scalar) => (typeof group === 'string' ? `${group.length}:${group.slice(199, 201)}` : group);
        const write = (from: number, count: number) =>
          store.apply(
            Array.from({ length: count }, (_, i) => {
              const n = from + i;
              const category = categories[n % categories.length];
              return { kind: 'upsert' as const, collection, document: { id: `d${n}`, stage: n % 3 ? 'published' : 'draft', price: n % 50, ...(category === null ? {} : { category }) } };
            }),
          );
        await write(0, 300);
        const filter: Filter = { type: 'and', conditions: [where('stage', 'e', 'published'), where('price', 'gte', 10), where('price', 'lt', 40)] };
        const answers = () => Promise.all((['sum', 'avg', 'min', 'max', 'count'] as const).map((operation) => store.aggregateGroups(collection, { field: 'price', operation, groupBy: 'category', filter })));
        const before = await answers();
        expect(before[0]!.map((group) => label(group.group))).toEqual(categories.map(label));
        const covering: IndexDefinition = { fields: ['stage', 'price', 'category', 'id'], covering: true };
        const built = await store.ensureIndexes(collection, 'q', [covering]);
        await store.analyzeCollection(collection);
        const labelled = (groups: Awaited<ReturnType<typeof answers>>) => groups.map((answer) => answer.map((group) => [label(group.group), group.value]));
        expect(labelled(await answers())).toEqual(labelled(before));
        expect(await store.ensureIndexes(collection, 'q', [covering])).toEqual({ created: [], dropped: [] });

        await write(300, 60);
        await store.apply([{ kind: 'delete', collection, id: 'd1' }]);
        const after = await answers();
        const counted = (category: string | null) => {
          const ids = Array.from({ length: 360 }, (_, n) => n).filter((n) => n !== 1 && n % 3 !== 0 && n % 50 >= 10 && n % 50 < 40 && categories[n % categories.length] === category);
          return ids.reduce((sum, n) => sum + (n % 50), 0);
        };
        expect(after[0]!.map((group) => [label(group.group), group.value])).toEqual(categories.map((category) => [label(category), counted(category)]));
        // Beside an ordinary index of the same fields (one index where the engine's entries hold whole values).
        const both = await store.ensureIndexes(collection, 'q', [covering, { fields: covering.fields }]);
        expect(labelled(await answers())).toEqual(labelled(after));
        expect([...(await store.ensureIndexes(collection, 'q', [])).dropped].sort()).toEqual([...built.created, ...both.created].sort());
        expect(labelled(await answers())).toEqual(labelled(after));
      });

      it('refuses a bad group name and a collection that does not exist', async () => {
        await expect(store.ensureIndexes(products, 'Not-a-group', [])).rejects.toThrow();
        await expect(store.ensureIndexes(unique('missing'), 'q', [{ fields: ['x'] }])).rejects.toThrow();
      });
    });

    describe('ensureCounts', () => {
      const COUNTED = [['code'], ['active', 'category'], ['category', 'rank'], ['publishedAt']];
      /** Equality on the counted fields, equality beside another condition, and equality no counter covers. */
      const totalsOf = async (collection: string, documents: readonly Product[]) => {
        const queries: [Filter, (product: Product) => boolean][] = [
          ...['alpha', 'delta', 'zulu'].map((code): [Filter, (product: Product) => boolean] => [where('code', 'e', code), (product) => product.code === code]),
          [{ type: 'and', conditions: [where('active', 'e', true), where('category', 'e', 'fruit')] }, (product) => product.active && product.category === 'fruit'],
          [{ type: 'and', conditions: [where('category', 'e', 'misc'), { type: 'and', conditions: [where('active', 'e', false)] }] }, (product) => !product.active && product.category === 'misc'],
          [{ type: 'and', conditions: [where('code', 'e', 'delta'), where('rank', 'gte', 10)] }, (product) => product.code === 'delta' && product.rank >= 10],
          [where('category', 'e', 'fruit'), (product) => product.category === 'fruit'],
          [where('code', 'e', 7), () => false],
          // A list on a counter's last field: the listed values' counts summed, each value once.
          [where('code', 'in', ['alpha', 'delta', 'alpha']), (product) => ['alpha', 'delta'].includes(product.code)],
          [{ type: 'and', conditions: [where('category', 'e', 'fruit'), where('rank', 'in', [9, 10])] }, (product) => product.category === 'fruit' && [9, 10].includes(product.rank)],
          [where('code', 'in', ['alpha', null]), (product) => product.code === 'alpha'],
          [where('code', 'in', ['zulu', 7]), () => false],
          // Ranges on a counter's last field, closed, open at either end, with equality before it.
          [{ type: 'and', conditions: [where('category', 'e', 'fruit'), where('rank', 'gt', 0), where('rank', 'lte', 10)] }, (product) => product.category === 'fruit' && product.rank > 0 && product.rank <= 10],
          [{ type: 'and', conditions: [where('category', 'e', 'fruit'), where('rank', 'lt', 10)] }, (product) => product.category === 'fruit' && product.rank < 10],
          [{ type: 'and', conditions: [where('category', 'e', 'deal'), where('rank', 'gte', 2.5)] }, (product) => product.category === 'deal' && product.rank >= 2.5],
          [{ type: 'and', conditions: [where('category', 'e', 'fruit'), where('rank', 'gt', 5), where('rank', 'gt', 6)] }, (product) => product.category === 'fruit' && product.rank > 6],
          [where('publishedAt', 'gte', '2024-03-01T08:59:59.000Z'), (product) => product.publishedAt !== undefined && product.publishedAt >= '2024-03-01T08:59:59.000Z'],
          [where('publishedAt', 'lt', '2024-03-01T09:00:00.000Z'), (product) => product.publishedAt !== undefined && product.publishedAt < '2024-03-01T09:00:00.000Z'],
          [{ type: 'and', conditions: [where('publishedAt', 'gt', '2024-01-15T12:30:00.000Z'), where('publishedAt', 'lt', '2024-06-30T00:00:00.000Z')] }, (product) => product.publishedAt !== undefined && product.publishedAt > '2024-01-15T12:30:00.000Z' && product.publishedAt < '2024-06-30T00:00:00.000Z'],
        ];
        for (const [filter, matches] of queries) {
          const expected = documents.filter(matches).length;
          expect({ filter, total: (await store.find(collection, { filter, limit: 1 })).total }).toEqual({ filter, total: expected });
          expect((await store.findIds(collection, { filter, limit: 0 })).total).toBe(expected);
          expect(await store.count(collection, { filter })).toBe(expected);
        }
      };

      it('answers exact totals through inserts, changed values, deletes, a write repeated, a swap and the counts dropped', async () => {
        const collection = unique('counted');
        await store.ensureCollection(collection, TYPED_INDEXES, TYPED_COLUMNS);
        await store.apply(TYPED_SEED.slice(0, 6).map((document) => ({ kind: 'upsert' as const, collection, document })));
        await store.ensureCounts(collection, 'q', COUNTED);
        await store.ensureCounts(collection, 'q', COUNTED);
        let documents: Product[] = [...TYPED_SEED.slice(0, 6)];
        await totalsOf(collection, documents);

        const changed = { ...documents[0]!, code: 'alpha', category: 'misc' };
        const added = TYPED_SEED.slice(6);
        await store.apply([
          { kind: 'upsert', collection, document: changed },
          { kind: 'delete', collection, id: 'p02' },
          ...added.map((document) => ({ kind: 'upsert' as const, collection, document })),
        ]);
        await store.apply([{ kind: 'upsert', collection, document: changed }, { kind: 'delete', collection, id: 'p02' }]);
        documents = [changed, ...documents.slice(2), ...added];
        await totalsOf(collection, documents);

        const rebuild = unique('counted_rebuild');
        await store.ensureCollection(rebuild, TYPED_INDEXES, TYPED_COLUMNS);
        await store.apply(TYPED_SEED.map((document) => ({ kind: 'upsert' as const, collection: rebuild, document })));
        await store.ensureCounts(rebuild, 'q', [['code']]);
        await store.swapCollections([{ from: rebuild, to: collection }], { from: unique('none'), to: unique('none') });
        await totalsOf(collection, [...TYPED_SEED]);
        await store.apply([{ kind: 'delete', collection, id: 'p01' }]);
        await totalsOf(collection, TYPED_SEED.slice(1));

        await store.ensureCounts(collection, 'q', []);
        await store.apply([{ kind: 'delete', collection, id: 'p03' }]);
        await totalsOf(collection, TYPED_SEED.filter((product) => !['p01', 'p03'].includes(product.id)));
      });

      it('refuses a bad group name and a collection that does not exist', async () => {
        await expect(store.ensureCounts(typedProducts, 'Not-a-group', [])).rejects.toThrow();
        await expect(store.ensureCounts(unique('missing'), 'q', [['code']])).rejects.toThrow();
      });
    });

    describe('apply and checkpoints', () => {
      it('applies changes in order across collections and records the checkpoint', async () => {
        const [first, second, name] = [unique('first'), unique('second'), unique('projector')];
        await store.ensureCollection(first, []);
        await store.ensureCollection(second, []);
        const checkpoint = position(2n ** 60n + 7n, 2n ** 64n - 1n);
        await store.apply(
          [
            { kind: 'upsert', collection: first, document: { id: 'a', version: 1 } },
            { kind: 'upsert', collection: second, document: { id: 'b', version: 1 } },
            { kind: 'upsert', collection: first, document: { id: 'a', version: 2 } },
            { kind: 'upsert', collection: first, document: { id: 'c', version: 1 } },
            { kind: 'delete', collection: first, id: 'c' },
          ],
          [{ name, position: checkpoint }, { name: `${name}_second`, position: checkpoint }],
        );
        expect(await store.get(first, 'a')).toEqual({ id: 'a', version: 2 });
        expect(await store.get(second, 'b')).toEqual({ id: 'b', version: 1 });
        expect(await store.get(first, 'c')).toBeNull();
        expect(await store.getCheckpoint(name)).toEqual(checkpoint);
        expect(await store.getCheckpoint(`${name}_second`)).toEqual(checkpoint);

        const later = position(2n ** 60n + 8n, 3n);
        await store.apply([], [{ name, position: later }]);
        expect(await store.getCheckpoint(name)).toEqual(later);
      });

      it('lets a batch move a unique value from one document to another, and upsert after delete', async () => {
        const collection = unique('moves');
        await store.ensureCollection(collection, [{ fields: ['slug'], unique: true }]);
        await store.apply([{ kind: 'upsert', collection, document: { id: 'a', slug: 'x' } }, { kind: 'upsert', collection, document: { id: 'c', slug: 'z' } }]);
        await store.apply([
          { kind: 'upsert', collection, document: { id: 'a', slug: 'y' } },
          { kind: 'upsert', collection, document: { id: 'b', slug: 'x' } },
          { kind: 'delete', collection, id: 'c' },
          { kind: 'upsert', collection, document: { id: 'd', slug: 'z' } },
          { kind: 'delete', collection, id: 'd' },
          { kind: 'upsert', collection, document: { id: 'd', slug: 'w' } },
        ]);
        expect((await store.find(collection, { sort: [{ field: 'id', direction: 'asc' }] })).items).toEqual([
          { id: 'a', slug: 'y' },
          { id: 'b', slug: 'x' },
          { id: 'd', slug: 'w' },
        ]);
      });

      it('lists and deletes checkpoints', async () => {
        const checkpoints: Checkpoint[] = [
          { name: unique('list_a'), position: position(1n, 2n) },
          { name: unique('list_b'), position: position(2n ** 62n, 0n) },
        ];
        await store.apply([], checkpoints);
        expect(await store.getCheckpoint(unique('never'))).toBeNull();
        expect(await store.listCheckpoints()).toEqual(expect.arrayContaining(checkpoints));

        await store.deleteCheckpoint(checkpoints[0]!.name);
        expect(await store.getCheckpoint(checkpoints[0]!.name)).toBeNull();
        const names = (await store.listCheckpoints()).map((checkpoint) => checkpoint.name);
        expect(names).not.toContain(checkpoints[0]!.name);
        expect(names).toContain(checkpoints[1]!.name);
      });
    });

    describe('swapCollections', () => {
      it('replaces the target by the source and moves the checkpoint', async () => {
        const [live, rebuild] = [unique('live'), unique('rebuild')];
        const [liveCheckpoint, rebuildCheckpoint] = [unique('live_cp'), unique('rebuild_cp')];
        const indexes = [{ fields: ['slug'], unique: true }];
        await store.ensureCollection(live, indexes);
        await store.ensureCollection(rebuild, indexes);
        await store.apply([{ kind: 'upsert', collection: live, document: { id: 'old', slug: 'old' } }], [
          { name: liveCheckpoint, position: position(5n, 5n) },
        ]);
        const rebuilt = [{ id: 'n1', slug: 'one' }, { id: 'n2', slug: 'two' }];
        await store.apply(
          rebuilt.map((document) => ({ kind: 'upsert' as const, collection: rebuild, document })),
          [{ name: rebuildCheckpoint, position: position(2n ** 60n + 7n, 9n) }],
        );

        await store.swapCollections([{ from: rebuild, to: live }], { from: rebuildCheckpoint, to: liveCheckpoint });

        expect((await store.find(live, {})).items).toEqual(rebuilt);
        expect(await store.get(live, 'old')).toBeNull();
        expect(await store.getCheckpoint(liveCheckpoint)).toEqual(position(2n ** 60n + 7n, 9n));
        expect(await store.getCheckpoint(rebuildCheckpoint)).toBeNull();

        await store.ensureCollection(live, indexes);
        expect((await store.find(live, {})).items).toEqual(rebuilt);
        await expect(
          store.apply([{ kind: 'upsert', collection: live, document: { id: 'n3', slug: 'one' } }]),
        ).rejects.toThrow();

        await store.ensureCollection(rebuild, indexes);
        expect(await store.count(rebuild, {})).toBe(0);
      });
    });

    describe('bad input', () => {
      const badFilters: [string, Filter][] = [
        ['an empty path segment', where('fields..price', 'e', 1)],
        ['a quote in a path', where("title'--", 'e', 1)],
        ['a space in a path', where('a b', 'e', 1)],
        ['an unknown operator', where('title', 'like' as Operator, 'x')],
        ['a list for a single-value operator', where('title', 'e', ['x'])],
        ['a single value for in', where('title', 'in', 'x')],
        ['a number for a text operator', where('title', 'contains', 5)],
        ['null for an ordered comparison', where('rank', 'gt', null)],
      ];

      it.each(badFilters)('rejects a filter with %s', async (_name, filter) => {
        await expect(store.find(products, { filter })).rejects.toThrow(Error);
        await expect(store.count(products, { filter: { type: 'not', condition: filter } })).rejects.toThrow(Error);
      });

      it.each(['bad name', '1abc', 'a-b', 'x"; drop table x; --', ''])('rejects the collection name %j', async (name) => {
        await expect(store.ensureCollection(name, [])).rejects.toThrow(Error);
        await expect(store.get(name, 'x')).rejects.toThrow(Error);
        await expect(store.find(name, {})).rejects.toThrow(Error);
      });

      it('rejects bad field paths in sort, aggregates and indexes', async () => {
        await expect(store.find(products, { sort: [{ field: 'a;b', direction: 'asc' }] })).rejects.toThrow(Error);
        await expect(store.aggregate(products, { field: 'a)b', operation: 'sum' })).rejects.toThrow(Error);
        await expect(store.aggregateGroups(products, { field: 'rank', operation: 'sum', groupBy: "x'" })).rejects.toThrow(Error);
        await expect(store.ensureCollection(unique('bad_index'), [{ fields: ['a b'] }])).rejects.toThrow(Error);
        await expect(store.find(products, { limit: -1 })).rejects.toThrow(Error);
      });

      it('rejects a batch with a bad collection name without applying any of it', async () => {
        const [collection, name] = [unique('valid'), unique('checkpoint')];
        await store.ensureCollection(collection, []);
        await expect(
          store.apply(
            [
              { kind: 'upsert', collection, document: { id: 'v1' } },
              { kind: 'upsert', collection: 'not valid', document: { id: 'v2' } },
            ],
            [{ name, position: position(1n, 1n) }],
          ),
        ).rejects.toThrow(Error);
        expect(await store.get(collection, 'v1')).toBeNull();
        expect(await store.getCheckpoint(name)).toBeNull();
      });
    });

    it('ping answers true', async () => {
      expect(await store.ping()).toBe(true);
    });
  });
}

type OpenSqlClient = () => Promise<{ client: SqlClient; close: () => Promise<void> }>;

/** What only the SQL adapter promises or needs checking: full atomicity and index use. */
export function describePostgresReadStoreSpecifics(label: string, open: OpenSqlClient): void {
  describe(`PostgresReadStore on ${label}`, () => {
    let client: SqlClient;
    let close: () => Promise<void>;
    let store: ReadStore;
    const statements: { sql: string; params: unknown[] }[] = [];

    beforeAll(async () => {
      ({ client, close } = await open());
      store = await PostgresReadStore.open(recordingSql(client, statements));
    });

    afterAll(async () => {
      await close();
    });

    it('keeps no copy of documents held by another collection (documentsIn), a reopened store reads them there, and a row whose document is missing is left out of a page', async () => {
      const [holder, typed] = [unique('holder'), unique('shared_typed')];
      await store.ensureCollection(holder, []);
      await store.ensureCollection(typed, [], [{ path: 'n', type: 'number' }], { documentsApart: true, documentsIn: holder });
      await store.apply([
        { kind: 'upsert', collection: holder, document: { id: 'a', n: 1 } },
        { kind: 'upsert', collection: typed, document: { id: 'a', n: 1 } },
        // Its holder quarantined the event that made it (docs/architecture.md): the typed row alone.
        { kind: 'upsert', collection: typed, document: { id: 'b', n: 2 } },
      ]);
      const tableColumns = await client.query<{ column_name: string }>(`select column_name from information_schema.columns where table_name = $1 order by 1`, [`rm_${typed}`]);
      expect(tableColumns.map((row) => row.column_name)).toEqual(['c_n', 'id']);
      expect(await client.query(`select 1 from pg_class where relname = $1`, [`rm_${typed}-docs`])).toEqual([]);
      const reopened = await PostgresReadStore.open(client);
      expect(await reopened.find(typed, { sort: [{ field: 'n', direction: 'asc' }] })).toEqual({ items: [{ id: 'a', n: 1 }], total: 2 });
      expect(await reopened.get(typed, 'b')).toBeNull();
    });

    it('sends a document that two collections upsert once, and writes both rows from it', async () => {
      const [holder, typed] = [unique('once_holder'), unique('once_typed')];
      await store.ensureCollection(holder, []);
      await store.ensureCollection(typed, [], [{ path: 'title', type: 'text' }], { documentsApart: true, documentsIn: holder });
      const marker = `m${'x'.repeat(20_000)}${randomUUID()}`;
      const document = { id: 'a', title: marker };
      const other = { id: 'b', title: 'plain' };
      statements.length = 0;
      await store.apply([
        { kind: 'upsert', collection: holder, document },
        { kind: 'upsert', collection: holder, document: other },
        { kind: 'upsert', collection: typed, document: other },
        { kind: 'upsert', collection: typed, document },
      ]);
      const sent = statements.flatMap((statement) => statement.params).filter((param): param is string => typeof param === 'string');
      expect(sent.map((param) => param.split(marker).length - 1).reduce((sum, count) => sum + count, 0)).toBe(1);
      expect(await store.find(typed, { sort: [{ field: 'title', direction: 'asc' }] })).toEqual({ items: [other, document].sort((a, b) => (a.title < b.title ? -1 : 1)), total: 2 });
      expect(await store.get(holder, 'a')).toEqual(document);
    });

    it('rolls back the whole batch, checkpoint included, when one change fails', async () => {
      const collection = unique('atomic');
      const name = unique('atomic_cp');
      await store.ensureCollection(collection, [{ fields: ['slug'], unique: true }]);
      await store.apply([{ kind: 'upsert', collection, document: { id: 'a', slug: 'taken' } }], [{ name, position: position(1n, 1n) }]);

      await expect(
        store.apply(
          [
            { kind: 'upsert', collection, document: { id: 'b', slug: 'free' } },
            { kind: 'delete', collection, id: 'a' },
            { kind: 'upsert', collection, document: { id: 'c', slug: 'free' } },
          ],
          [{ name, position: position(2n, 2n) }],
        ),
      ).rejects.toThrow();

      expect(await store.findIds(collection, {})).toEqual({ items: ['a'], total: 1 });
      expect(await store.getCheckpoint(name)).toEqual(position(1n, 1n));
    });

    it('with the documents apart, reads no document for an aggregate or a count over typed columns, and only its own for a page', async () => {
      const collection = unique('apart_plans');
      const columns: ColumnDefinition[] = [{ path: 'stage', type: 'text' }, { path: 'category', type: 'text' }, { path: 'price', type: 'number' }];
      await store.ensureCollection(collection, [{ fields: ['stage', 'id'] }], columns, { documentsApart: true });
      const body = 'x'.repeat(1500);
      const documents = Array.from({ length: 2000 }, (_, i) => ({ id: `d${String(i).padStart(4, '0')}`, stage: i % 2 ? 'draft' : 'published', category: `c${i % 7}`, price: i % 100, body }));
      await store.apply(documents.map((document) => ({ kind: 'upsert' as const, collection, document })));
      await store.analyzeCollection(collection);
      const table = `rm_${collection}`;
      const documentsTable = `rm_${collection}-docs`;
      /** The tables the plan of the store's last statement (or the one `back` before it) reads. */
      const readTables = async (back = 0) => {
        const { sql, params } = statements.at(-1 - back)!;
        const [row] = await client.query<Record<string, unknown>>(`explain (analyze, costs off, timing off, format json) ${sql}`, params);
        const [value] = Object.values(row!);
        const plan = typeof value === 'string' ? value : JSON.stringify(value);
        const scans = [...plan.matchAll(/"Relation Name":\s*"([^"]+)"/g)].map((match) => match[1]!);
        return [...new Set(scans)].sort();
      };
      const published = where('stage', 'e', 'published');
      const priced: Filter = { type: 'and', conditions: [published, where('price', 'gte', 40), where('price', 'lt', 60)] };

      const groups = await store.aggregateGroups(collection, { field: 'price', operation: 'sum', groupBy: 'category', filter: priced });
      expect(groups).toHaveLength(7);
      expect(await readTables()).toEqual([table]);
      expect(await store.count(collection, { filter: priced })).toBe(200);
      expect(await readTables()).toEqual([table]);
      const page = await store.find(collection, { filter: priced, sort: [{ field: 'price', direction: 'desc' }], limit: 3 });
      expect(page.items).toEqual([documents[58], documents[158], documents[258]]);
      // The page's ids from the typed columns, then its documents by id.
      expect(await readTables(1)).toEqual([table]);
      expect(await readTables()).toEqual([documentsTable]);
      // Sized by what each holds: the typed columns' table a fraction of the documents'.
      const [sizes] = await client.query<{ columns: number; documents: number }>(
        `select pg_relation_size($1::regclass)::float8 as columns, pg_total_relation_size($2::regclass)::float8 as documents`,
        [`"${table}"`, `"${documentsTable}"`],
      );
      expect(sizes!.columns * 5).toBeLessThan(sizes!.documents);
    });

    it('answers a grouped aggregate over a long column from its covering index alone, reading no row but the long values\' (ordinary indexes read every matching row)', async () => {
      const collection = unique('covering_plans');
      const columns: ColumnDefinition[] = [
        { path: 'stage', type: 'text' },
        { path: 'category', type: 'text', long: true },
        { path: 'color', type: 'text', long: true },
        { path: 'price', type: 'number' },
      ];
      await store.ensureCollection(collection, [{ fields: ['stage', 'id'] }], columns, { documentsApart: true });
      const long = 'l'.repeat(300);
      await store.apply(
        Array.from({ length: 4000 }, (_, i) => ({
          kind: 'upsert' as const,
          collection,
          document: { id: `d${i}`, stage: i % 2 ? 'draft' : 'published', category: i === 8 ? long : `c${i % 7}`, color: `k${i % 10}`, price: i % 100 },
        })),
      );
      const filter: Filter = { type: 'and', conditions: [where('stage', 'e', 'published'), where('price', 'gte', 0), where('price', 'lt', 20)] };
      const query = { field: 'price', operation: 'sum' as const, groupBy: 'category', filter };
      /** The scans of the plan of the store's last statement: node type and index, with the rows read from the table. */
      const lastScans = async () => {
        const { sql, params } = statements.at(-1)!;
        const [row] = await client.query<Record<string, unknown>>(`explain (analyze, costs off, timing off, format json) ${sql}`, params);
        const [value] = Object.values(row!);
        const plan = JSON.parse(typeof value === 'string' ? value : JSON.stringify(value)) as unknown;
        const scans: { node: string; index?: string; heapFetches?: number }[] = [];
        const visit = (node: Record<string, unknown>) => {
          const type = node['Node Type'] as string;
          if (type.endsWith('Scan') && type !== 'Subquery Scan') scans.push({ node: type, ...(node['Index Name'] ? { index: node['Index Name'] as string } : {}), ...(node['Heap Fetches'] !== undefined ? { heapFetches: node['Heap Fetches'] as number } : {}) });
          for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) visit(child);
        };
        visit((plan as { Plan: Record<string, unknown> }[])[0]!.Plan);
        return scans;
      };
      await store.ensureIndexes(collection, 'q', [{ fields: ['stage', 'price', 'id'] }]);
      await store.analyzeCollection(collection);
      const expected = await store.aggregateGroups(collection, query);
      expect(expected.map((group) => group.group)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6', long]);
      expect((await lastScans()).some((scan) => scan.node === 'Bitmap Heap Scan' || scan.node === 'Seq Scan' || (scan.node === 'Index Scan' && scan.index !== undefined))).toBe(true);

      const { created } = await store.ensureIndexes(collection, 'q', [{ fields: ['stage', 'price', 'category', 'id'], covering: true }]);
      await store.analyzeCollection(collection);
      expect(created).toHaveLength(2);
      expect(await store.aggregateGroups(collection, query)).toEqual(expected);
      const scans = await lastScans();
      expect(scans.find((scan) => scan.node === 'Index Only Scan')).toEqual({ node: 'Index Only Scan', index: created[0], heapFetches: 0 });
      // The long value's one row, through the companion.
      expect(scans.filter((scan) => scan.node !== 'Index Only Scan').every((scan) => scan.index === created[1] || scan.node === 'Bitmap Heap Scan')).toBe(true);

      // An equality on a column held whole narrows the covering index's read: compared whole, as the index holds it.
      const byColor = await store.ensureIndexes(collection, 'q', [{ fields: ['stage', 'color', 'category', 'price', 'id'], covering: true }]);
      await store.analyzeCollection(collection);
      const colored = { ...query, filter: { type: 'and' as const, conditions: [where('stage', 'e', 'published'), where('color', 'e', 'k4')] } };
      const sums = await store.aggregateGroups(collection, colored);
      expect(sums.map((group) => group.group)).toEqual(['c0', 'c1', 'c2', 'c3', 'c4', 'c5', 'c6']);
      const { sql, params } = statements.at(-1)!;
      const [row] = await client.query<Record<string, unknown>>(`explain (analyze, costs off, timing off, format json) ${sql}`, params);
      const plan = JSON.stringify(Object.values(row!)[0]);
      expect(plan).toContain(`"Index Name":"${byColor.created[0]}"`);
      expect(plan).toMatch(/"Index Cond":"\(\(c_stage = 'published'::text\) AND \(c_color = 'k4'::text\)\)"/);
    });

    it('sorts a page from the matching rows when few match, however the planner misjudges them, and reads many in index order: the same answers', async () => {
      const collection = unique('few_matches');
      const columns: ColumnDefinition[] = [{ path: 'stage', type: 'text' }, { path: 'title', type: 'text' }, { path: 'price', type: 'number' }];
      await store.ensureCollection(collection, [{ fields: ['stage', 'price', 'id'] }, { fields: ['stage', 'title'], text: 'prefix' }], columns, { documentsApart: true });
      // Drafts titled "zq…", published items "a…" but for three, the dearest: the planner multiplies the
      // stage's half by the prefix's half, expects a match in every fourth published row, and would read
      // the price index in order past all 5,200 others.
      const documents = [
        ...Array.from({ length: 3000 }, (_, i) => ({ id: `draft${i}`, stage: 'draft', title: `zq${i}`, price: i })),
        ...Array.from({ length: 5203 }, (_, i) => ({ id: `p${String(i).padStart(4, '0')}`, stage: 'published', title: i < 5200 ? `a${i}` : `zq${i}`, price: i })),
      ];
      await store.apply(documents.map((document) => ({ kind: 'upsert' as const, collection, document })));
      await store.analyzeCollection(collection);
      const rowsRemovedByFilter = async () => {
        const { sql, params } = statements.at(-1)!;
        const [row] = await client.query<Record<string, unknown>>(`explain (analyze, costs off, timing off, format json) ${sql}`, params);
        const [value] = Object.values(row!);
        const plan = typeof value === 'string' ? value : JSON.stringify(value);
        return [...plan.matchAll(/"Rows Removed by Filter":\s*(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
      };
      const query = (prefix: string): FindQuery => ({ filter: { type: 'and', conditions: [where('stage', 'e', 'published'), where('title', 'start', prefix)] }, sort: [{ field: 'price', direction: 'asc' }], offset: 1, limit: 5 });
      const expected = (prefix: string) => documents.filter((document) => document.stage === 'published' && document.title.startsWith(prefix));

      expect(await store.find(collection, query('zq'))).toEqual({ items: expected('zq').slice(1, 6), total: 3 });
      expect(await rowsRemovedByFilter()).toBeLessThan(100);
      expect(await store.findIds(collection, query('zq'))).toEqual({ items: expected('zq').slice(1, 6).map((document) => document.id), total: 3 });
      // Many matching rows (5,200 of 8,203 for a page ending at 6): the page is read in the price index's order.
      expect(await store.find(collection, query('a'))).toEqual({ items: expected('a').slice(1, 6), total: 5200 });
      expect(await store.findIds(collection, query('a'))).toEqual({ items: expected('a').slice(1, 6).map((document) => document.id), total: 5200 });
      expect(await store.find(collection, query('b'))).toEqual({ items: [], total: 0 });
    });

    it('refuses an index on a path without a typed column when the documents are apart', async () => {
      const collection = unique('apart_index');
      await expect(store.ensureCollection(collection, [{ fields: ['note'] }], [{ path: 'n', type: 'number' }], { documentsApart: true })).rejects.toThrow(/typed columns only: note/);
      await store.ensureCollection(collection, [{ fields: ['n', 'id'] }], [{ path: 'n', type: 'number' }], { documentsApart: true });
      await expect(store.ensureIndexes(collection, 'q', [{ fields: ['n', 'note'] }])).rejects.toThrow(/typed columns only: note/);
    });

    it('reads an equality total from the kept count, and counts again once another process dropped it', async () => {
      const collection = unique('counted_read');
      await store.ensureCollection(collection, [], [{ path: 'color', type: 'text' }, { path: 'n', type: 'number' }]);
      const documents = Array.from({ length: 300 }, (_, i) => ({ id: `d${i}`, color: `c${i % 3}`, n: i }));
      await store.apply(documents.map((document) => ({ kind: 'upsert', collection, document })));
      await store.ensureCounts(collection, 'q', [['color'], ['n']]);
      const [counter] = await client.query<{ name: string }>(
        `select tgname as name from pg_trigger where tgrelid = $1::regclass and obj_description(oid, 'pg_trigger') like '%"color"%'`,
        [`"rm_${collection}"`],
      );
      // Changed by hand, the kept number is what a total answers: it is read, not counted.
      await client.query(`update "${counter!.name}" set n = 7777 where key = '["c1"]'`);
      expect((await store.find(collection, { filter: where('color', 'e', 'c1'), limit: 1 })).total).toBe(7777);
      expect(await store.count(collection, { filter: where('color', 'e', 'c1') })).toBe(7777);
      expect((await store.findIds(collection, { filter: where('n', 'e', 5) })).total).toBe(1);
      // A range sums the kept numbers of the values in it.
      const [byNumber] = await client.query<{ name: string }>(
        `select tgname as name from pg_trigger where tgrelid = $1::regclass and obj_description(oid, 'pg_trigger') like '%["n"]%'`,
        [`"rm_${collection}"`],
      );
      const band: Filter = { type: 'and', conditions: [where('n', 'gte', 10), where('n', 'lt', 20)] };
      expect(await store.count(collection, { filter: band })).toBe(10);
      await client.query(`update "${byNumber!.name}" set n = 7777 where key = '[15]'`);
      expect((await store.find(collection, { filter: band, limit: 1 })).total).toBe(7786);
      expect(await store.count(collection, { filter: where('n', 'in', [15, 16]) })).toBe(7778);

      const other = await PostgresReadStore.open(client);
      await other.ensureCounts(collection, 'q', []);
      expect((await store.find(collection, { filter: where('color', 'e', 'c1'), limit: 1 })).total).toBe(100);
      expect(await client.query(`select 1 from pg_class where relname = $1`, [counter!.name])).toEqual([]);
    });

    it('keeps counts exact when two stores write the same batches at once, and drops them with their collection', async () => {
      const collection = unique('counted_race');
      await store.ensureCollection(collection, [], [{ path: 'color', type: 'text' }]);
      await store.ensureCounts(collection, 'q', [['color']]);
      const [first, second] = [await PostgresReadStore.open(client), await PostgresReadStore.open(client)];
      for (let round = 0; round < 5; round++) {
        const batch = Array.from({ length: 200 }, (_, i) => ({ kind: 'upsert' as const, collection, document: { id: `d${i}`, color: `c${(i + round) % 4}` } }));
        await Promise.all([first.apply(batch), second.apply(batch)]);
      }
      const kept = async (color: string) => (await store.find(collection, { filter: where('color', 'e', color), limit: 0 })).total;
      const counted = async (color: string) => (await store.find(collection, { filter: { type: 'and', conditions: [where('color', 'e', color), where('id', 'nnoe')] }, limit: 0 })).total;
      for (const color of ['c0', 'c1', 'c2', 'c3']) expect(await kept(color)).toBe(await counted(color));
      expect(await kept('c0')).toBe(50);

      const counters = await client.query<{ name: string }>(`select tgname as name from pg_trigger where tgrelid = $1::regclass and tgname like 'rm\\_n\\_%'`, [`"rm_${collection}"`]);
      expect(counters.length).toBeGreaterThan(0);
      await store.dropCollection(collection);
      for (const { name } of counters) expect(await client.query(`select 1 from pg_class where relname = $1 union all select 1 from pg_proc where proname = $1`, [name])).toEqual([]);
    });

    it('keeps a finer histogram (statistics target 1,000) for a typed text column searched by substring on a PostgreSQL server; not on the embedded engine, whose analyze every statement waits for', async () => {
      const collection = unique('searched');
      await store.ensureCollection(collection, [{ fields: ['s'], text: 'substring' }, { fields: ['t', 'id'] }], [{ path: 's', type: 'text' }, { path: 't', type: 'text' }]);
      const targets = await client.query<{ name: string; target: number }>(
        `select attname as name, coalesce(attstattarget::int, -1) as target from pg_attribute where attrelid = $1::regclass and attname in ('c_s', 'c_t') order by attname`,
        [`"rm_${collection}"`],
      );
      expect(targets).toEqual([{ name: 'c_s', target: client.engine === 'postgres' ? 1000 : -1 }, { name: 'c_t', target: -1 }]);
      // A store an earlier version wrote: 1,000 on the embedded engine too, reset when its query indexes are brought in line.
      await client.query(`alter table "rm_${collection}" alter column c_s set statistics 1000`);
      await store.ensureIndexes(collection, 'q', [{ fields: ['s'], text: 'substring' }]);
      const [searched] = await client.query<{ target: number }>(`select coalesce(attstattarget::int, -1) as target from pg_attribute where attrelid = $1::regclass and attname = 'c_s'`, [`"rm_${collection}"`]);
      expect(searched!.target).toBe(client.engine === 'postgres' ? 1000 : -1);
    });

    it('reads large documents whole, in pages (find, list) and by id; on a PostgreSQL server apart from their rows, in pieces read by one statement', async () => {
      const collection = unique('large_documents');
      await store.ensureCollection(collection, [], [{ path: 'n', type: 'number' }], { documentsApart: true });
      // Stored over 64 KB whatever the compression: random text with characters of every UTF-8 width.
      const documents = Array.from({ length: 3 }, (_, n) => ({ id: `d${n}`, n, ...incompressibleData() }));
      const small = { id: 'small', n: 3, fields: { title: 'short' } };
      await store.apply([...documents, small].map((document) => ({ kind: 'upsert' as const, collection, document })));

      statements.length = 0;
      const page = await store.find(collection, { sort: [{ field: 'n', direction: 'desc' }] });
      expect(page).toEqual({ items: [small, ...[...documents].reverse()], total: 4 });
      expect(await store.list(collection, { sort: [{ field: 'n', direction: 'desc' }] })).toEqual(page.items);
      expect(await store.get(collection, 'd1')).toEqual(documents[1]);
      expect(await store.getMany(collection, ['d0', 'missing', 'small'])).toEqual(expect.arrayContaining([documents[0], small]));
      const other = unique('large_documents_beside');
      await store.ensureCollection(other, []);
      await store.apply([{ kind: 'upsert', collection: other, document: { id: 'd2', beside: true } }]);
      const across = await store.getManyAcross(new Map([[collection, ['d2', 'small']], [other, ['d2']]]));
      expect(across.get(collection)).toEqual(expect.arrayContaining([documents[2], small]));
      expect(across.get(collection)).toHaveLength(2);
      expect(across.get(other)).toEqual([{ id: 'd2', beside: true }]);
      const piecesRead = statements.filter((statement) => statement.sql.includes("convert_to(doc::text, 'UTF8')"));
      expect(piecesRead.map((statement) => [...(statement.params[0] as string[])].sort())).toEqual(client.engine === 'postgres' ? [['d0', 'd1', 'd2'], ['d0', 'd1', 'd2'], ['d1'], ['d0'], ['d2']] : []);
    });

    it('reads the documents of several collections by id in one statement', async () => {
      const [plain, apart] = [unique('one_statement_plain'), unique('one_statement_apart')];
      await store.ensureCollection(plain, []);
      await store.ensureCollection(apart, [], [{ path: 'n', type: 'number' }], { documentsApart: true });
      await store.apply([
        { kind: 'upsert', collection: plain, document: { id: 'a', n: 1 } },
        { kind: 'upsert', collection: apart, document: { id: 'b', n: 2 } },
      ]);
      const wanted = new Map([
        [plain, ['a']],
        [apart, ['b', 'missing']],
      ]);
      await store.getManyAcross(wanted);

      statements.length = 0;
      const found = await store.getManyAcross(wanted);
      expect(found).toEqual(
        new Map([
          [plain, [{ id: 'a', n: 1 }]],
          [apart, [{ id: 'b', n: 2 }]],
        ]),
      );
      expect(statements).toHaveLength(1);
    });

    it('answers equality on an indexed field from the index', async () => {
      const collection = unique('indexed');
      await store.ensureCollection(collection, [{ fields: ['workspaceId'] }]);
      const documents = Array.from({ length: 3000 }, (_, i) => ({ id: `d${i}`, workspaceId: `ws${i % 100}`, n: i }));
      await store.apply(documents.map((document) => ({ kind: 'upsert', collection, document })));
      await client.query(`analyze "rm_${collection}"`);

      statements.length = 0;
      const result = await store.find(collection, { filter: where('workspaceId', 'e', 'ws7') });
      expect(result.total).toBe(30);
      const select = statements.find((statement) => statement.sql.includes('json_agg(page.id)'));
      const plan = await client.query<Record<string, string>>(`explain ${select!.sql}`, select!.params);
      expect(plan.map((row) => Object.values(row).join('')).join('\n')).toMatch(/Index Scan|Bitmap Index Scan/);
    });

    it('vacuums a collection it analyzes: every page all-visible (counts from the index alone), dead rows reclaimed', async () => {
      const collection = unique('vacuumed');
      await store.ensureCollection(collection, [{ fields: ['n'] }], [{ path: 'n', type: 'number' }]);
      const documents = Array.from({ length: 3000 }, (_, i) => ({ id: `d${i}`, n: i % 100 }));
      await store.apply(documents.map((document) => ({ kind: 'upsert', collection, document })));
      await store.apply(documents.slice(0, 1500).map((document) => ({ kind: 'upsert', collection, document: { ...document, n: document.n + 1 } })));

      // An autovacuum ANALYZE running meanwhile in the same database holds a snapshot, and no vacuum marks pages all-visible under it: the call is repeated until none did (a store that never vacuums never gets there).
      const visibility = async () =>
        (
          await client.query<{ pages: number; visible: number; live: number }>(
            `select relpages as pages, relallvisible as visible, reltuples::int as live from pg_class where relname = $1`,
            [`rm_${collection}`],
          )
        )[0]!;
      let table = await store.analyzeCollection(collection).then(visibility);
      for (let attempt = 1; attempt < 10 && table.visible !== table.pages; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        table = await store.analyzeCollection(collection).then(visibility);
      }
      expect(table!.pages).toBeGreaterThan(0);
      expect(table!.visible).toBe(table!.pages);
      expect(table!.live).toBe(3000);
      const plan = await client.query<Record<string, string>>(`explain (analyze, costs off, timing off) select count(*) from "rm_${collection}" where c_n = 7`);
      expect(plan.map((row) => Object.values(row).join('')).join('\n')).toMatch(/Index Only Scan[\s\S]*Heap Fetches: 0/);
    });

    it("answers a page's ids and its total in one statement, the page in sort order, and its documents by id in one more", async () => {
      const collection = unique('onestatement');
      await store.ensureCollection(collection, [{ fields: ['n'] }], [{ path: 'n', type: 'number' }]);
      const documents = Array.from({ length: 50 }, (_, i) => ({ id: `d${String(i).padStart(2, '0')}`, n: (i * 7) % 10 }));
      await store.apply(documents.map((document) => ({ kind: 'upsert', collection, document })));
      const query = { filter: where('n', 'gte', 5), sort: [{ field: 'n', direction: 'desc' as const }], offset: 3, limit: 6 };
      const expected = documents.filter((d) => d.n >= 5).sort((a, b) => b.n - a.n || (a.id < b.id ? -1 : 1));
      await store.count(collection, {}); // reads the table's column set, once per process

      statements.length = 0;
      const page = await store.find<{ id: string; n: number }>(collection, query);
      const ids = await store.findIds(collection, query);

      expect(statements).toHaveLength(3);
      expect(statements[1]!.params).toEqual([expected.slice(3, 9).map((d) => d.id)]);
      expect(page).toEqual({ items: expected.slice(3, 9), total: expected.length });
      expect(ids).toEqual({ items: expected.slice(3, 9).map((d) => d.id), total: expected.length });
      expect(await store.find(collection, { ...query, offset: 100 })).toEqual({ items: [], total: expected.length });
    });

    it('reads a page after a cursor from the index in order, not by sorting every match', async () => {
      const collection = unique('feed');
      await store.ensureCollection(collection, [{ fields: ['workspaceId', 'seq'] }]);
      const documents = Array.from({ length: 5000 }, (_, i) => ({ id: `d${i}`, workspaceId: `ws${i % 2}`, seq: String(i).padStart(10, '0') }));
      await store.apply(documents.map((document) => ({ kind: 'upsert', collection, document })));
      await client.query(`analyze "rm_${collection}"`);

      statements.length = 0;
      const page = await store.list<{ id: string; seq: string }>(collection, {
        filter: { type: 'and', conditions: [where('workspaceId', 'e', 'ws1'), where('seq', 'gt', '0000000100')] },
        sort: [{ field: 'seq', direction: 'asc' }],
        sortIsUnique: true,
        limit: 101,
      });
      expect(page.map((document) => document.seq)).toEqual(documents.filter((d) => d.workspaceId === 'ws1' && d.seq > '0000000100').slice(0, 101).map((d) => d.seq));
      const select = statements.find((statement) => statement.sql.startsWith('select found.id'));
      const plan = (await client.query<Record<string, string>>(`explain ${select!.sql}`, select!.params)).map((row) => Object.values(row).join('')).join('\n');
      expect(plan).toMatch(/Index Scan using/);
      expect(plan).not.toMatch(/Sort/);
    });

    it('reads an equality-filtered page sorted on another field from a declared query index, in order, with the same answer', async () => {
      const generation = tableGeneration('ws', 'Product', [{ key: 'color', type: 'Text' }, { key: 'price', type: 'Number' }]);
      const collection = unique('declared');
      await store.ensureCollection(collection, tableIndexes(), tableColumns(generation));
      const documents = Array.from({ length: 8000 }, (_, i) => ({
        id: `d${String(i).padStart(5, '0')}`,
        stage: i % 2 === 0 ? 'published' : 'draft',
        fields: { color: `c${i % 8}`, ...(i % 10 === 0 ? {} : { price: (i * 7919) % 1000 }) },
      }));
      await store.apply(documents.map((document) => ({ kind: 'upsert', collection, document })));
      await store.analyzeCollection(collection);
      const query: FindQuery = {
        filter: { type: 'and', conditions: [where('stage', 'e', 'published'), where('fields.color', 'e', 'c4')] },
        sort: [{ field: 'fields.price', direction: 'desc' }],
        offset: 20,
        limit: 20,
      };
      const matching = documents.filter((d) => d.stage === 'published' && d.fields.color === 'c4');
      // Descending: missing prices last, ties by id.
      const expected = [...matching].sort((a, b) => (b.fields.price ?? -1) - (a.fields.price ?? -1) || (a.id < b.id ? -1 : 1)).slice(20, 40);

      const declared = queryIndexDefinitions([{ fields: [{ key: 'color', direction: 'asc' }, { key: 'price', direction: 'desc' }] }], generation);
      expect((await store.ensureIndexes(collection, QUERY_INDEX_GROUP, declared)).created).toHaveLength(1);
      // As the reconciler does after creating one: the index's key on the text (its first characters) gets statistics.
      await store.analyzeCollection(collection);
      statements.length = 0;
      const page = await store.find<{ id: string }>(collection, query);
      expect(page).toEqual({ items: expected, total: matching.length });
      const select = statements.find((statement) => statement.sql.includes('json_agg'));
      const plan = (await client.query<Record<string, string>>(`explain ${select!.sql}`, select!.params)).map((row) => Object.values(row).join('')).join('\n');
      expect(plan).toMatch(new RegExp(`Index (Only )?Scan using rm_${collection}_q_\\w+ on rm_${collection}`));
      expect(plan).not.toMatch(/Sort/);
      const [index] = await client.query<{ valid: boolean; definition: string }>(
        `select i.indisvalid as valid, pg_get_indexdef(i.indexrelid) as definition from pg_index i join pg_class c on c.oid = i.indexrelid where c.relname like $1`,
        [`rm_${collection}_q_%`],
      );
      expect(index!.valid).toBe(true);
      // A text field is keyed on its first characters (long column), so any value of it fits the index.
      expect(index!.definition).toMatch(/\(c_stage NULLS FIRST, "left"\("c_fields\.color", 200\) NULLS FIRST, "c_fields\.price" DESC NULLS LAST, id\)/);
    });

    it('reads a range-filtered page sorted on a field of many equal values from a declared index that places id, in order, with the same answer', async () => {
      const generation = tableGeneration('ws', 'Product', [{ key: 'released', type: 'DateTime' }, { key: 'price', type: 'Number' }]);
      const collection = unique('tied');
      await store.ensureCollection(collection, tableIndexes(), tableColumns(generation));
      const documents = Array.from({ length: 8000 }, (_, i) => ({
        id: `d${String((i * 7919) % 8000).padStart(5, '0')}`,
        stage: i % 2 === 0 ? 'published' : 'draft',
        // Forty dates: two hundred items share each one, as release dates do.
        fields: { released: new Date(Date.UTC(2024, 0, 1 + (i % 40))).toISOString(), price: (i * 104_729) % 1000 },
      }));
      await store.apply(documents.map((document) => ({ kind: 'upsert', collection, document })));
      await store.analyzeCollection(collection);
      const query: FindQuery = {
        filter: { type: 'and', conditions: [where('stage', 'e', 'published'), where('fields.price', 'gte', 400), where('fields.price', 'lt', 450)] },
        sort: [{ field: 'fields.released', direction: 'desc' }],
        offset: 20,
        limit: 20,
      };
      const matching = documents.filter((d) => d.stage === 'published' && d.fields.price >= 400 && d.fields.price < 450);
      const expected = [...matching].sort((a, b) => b.fields.released.localeCompare(a.fields.released) || (a.id < b.id ? -1 : 1)).slice(20, 40);

      const declared = queryIndexDefinitions([{ fields: [{ key: 'released', direction: 'desc' }, { key: 'id', direction: 'asc' }, { key: 'price', direction: 'asc' }] }], generation);
      expect((await store.ensureIndexes(collection, QUERY_INDEX_GROUP, declared)).created).toHaveLength(1);
      statements.length = 0;
      expect(await store.find<{ id: string }>(collection, query)).toEqual({ items: expected, total: matching.length });
      const select = statements.find((statement) => statement.sql.includes('json_agg'));
      const plan = (await client.query<Record<string, string>>(`explain ${select!.sql}`, select!.params)).map((row) => Object.values(row).join('')).join('\n');
      // Ties of a date are in id order within the index: no sort, not even an incremental one per date.
      expect(plan).toMatch(new RegExp(`Index (Only )?Scan using rm_${collection}_q_\\w+ on rm_${collection}`));
      expect(plan).not.toMatch(/Sort/);
    });

    it('keeps its statistics across a swap, named after the table', async () => {
      const [live, rebuild] = [unique('live'), unique('rebuild')];
      const indexes = [{ fields: ['a'] }, { fields: ['a', 'b.c'] }];
      for (const collection of [live, rebuild]) await store.ensureCollection(collection, indexes);
      await store.swapCollections([{ from: rebuild, to: live }], { from: unique('none'), to: unique('none') });
      await store.ensureCollection(live, indexes);
      const names = await client.query<{ name: string }>(`select stxname as name from pg_statistic_ext where stxrelid = $1::regclass`, [`"rm_${live}"`]);
      expect(names).toHaveLength(2);
      expect(names.every((row) => row.name.startsWith(`rm_${live}_`))).toBe(true);
    });

    it('keeps one index per definition across a swap', async () => {
      const [live, rebuild] = [unique('live'), unique('rebuild')];
      const indexes = [{ fields: ['a'] }, { fields: ['a', 'b.c'], unique: true }];
      for (const collection of [live, rebuild]) await store.ensureCollection(collection, indexes);
      await store.swapCollections([{ from: rebuild, to: live }], { from: unique('none'), to: unique('none') });
      await store.ensureCollection(live, indexes);
      await store.ensureCollection(rebuild, indexes);

      for (const collection of [live, rebuild]) {
        const names = await client.query<{ indexname: string }>('select indexname from pg_indexes where tablename = $1', [`rm_${collection}`]);
        expect(names).toHaveLength(indexes.length + 1);
        expect(names.every((row) => row.indexname.startsWith(`rm_${collection}_`))).toBe(true);
      }
    });
  });
}

function unique(base: string): string {
  return `${base}_${randomBytes(4).toString('hex')}`;
}
