import { adviceFor, assess, type ColumnTypes, MIN_SAMPLES, servingIndex } from '../../queries/index-advice';
import { translateContentFilter, translateContentOrder } from '../../queries/content-filter';
import { shapeOf, type ShapeKind } from '../../queries/query-shape';
import type { ShapeStats } from '../../queries/query-shape-recorder';
import type { QueryIndex } from '../../src/domain/content-type/query-indexes';

const columns: ColumnTypes = new Map([
  ['category', 'Text'],
  ['title', 'Text'],
  ['body', 'RichText'],
  ['price', 'Number'],
  ['rating', 'Number'],
  ['inStock', 'Boolean'],
  ['releasedAt', 'DateTime'],
  ['author', 'Relation'],
]);
const types = new Map([...columns, ['meta', 'Json']] as const);
const where = (fieldKey: string, operator: string, value?: unknown, caseInsensitive?: boolean) => ({ type: 'condition', fieldKey, operator, value, caseInsensitive });
const and = (...conditions: unknown[]) => ({ type: 'and', conditions });
const list = (filter?: unknown, order?: unknown) => shapeOf({ kind: 'list', asOf: false, filter: translateContentFilter(filter, types), sort: translateContentOrder(order, types) });
const aggregate = (kind: ShapeKind, field: string, filter?: unknown, groupBy?: string) =>
  shapeOf({ kind, asOf: false, filter: translateContentFilter(filter, types), aggregate: { field: `fields.${field}`, operation: 'sum', ...(groupBy ? { groupBy: `fields.${groupBy}` } : {}) } });
const asc = (key: string) => ({ key, direction: 'asc' as const });
const desc = (key: string) => ({ key, direction: 'desc' as const });

describe('index advice for a query shape', () => {
  it('puts equality fields first, then the sorted field in its direction (id ends the index)', () => {
    expect(adviceFor(list(where('category', 'e', 'x'), { fieldKey: 'price', sortDir: 'Desc' }), columns)).toEqual({ fields: [asc('category'), desc('price')] });
    expect(adviceFor(list(and(where('inStock', 'e', true), where('category', 'e', 'x')), [{ fieldKey: 'releasedAt', sortDir: 'Desc' }]), columns)).toEqual({
      fields: [asc('category'), asc('inStock'), desc('releasedAt')],
    });
    // Equality alone: the default order is id, which ends every index.
    expect(adviceFor(list(where('author', 'e', 'a')), columns)).toEqual({ fields: [asc('author')] });
  });

  it('serves a range with no sort by its field, and a sorted range by sort, id, range: the exact page order, the range tested in each entry', () => {
    expect(adviceFor(list(and(where('price', 'gte', 1), where('price', 'lt', 9))), columns)).toEqual({ fields: [asc('price')] });
    expect(adviceFor(list(and(where('price', 'gte', 1), where('price', 'lt', 9)), { fieldKey: 'releasedAt', sortDir: 'Desc' }), columns)).toEqual({ fields: [desc('releasedAt'), asc('id'), asc('price')] });
    expect(adviceFor(list(and(where('category', 'e', 'x'), where('price', 'in', [1, 2])), { fieldKey: 'releasedAt' }), columns)).toEqual({ fields: [asc('category'), asc('releasedAt')] });
    // Sorting by the ranged field: one b-tree serves both.
    expect(adviceFor(list(where('price', 'gt', 3), { fieldKey: 'price' }), columns)).toEqual({ fields: [asc('price')] });
  });

  it('gives a text condition its text index: prefix, folded prefix, trigrams; equality on another field wins', () => {
    expect(adviceFor(list(where('title', 'start', 'ab'), { fieldKey: 'price' }), columns)).toEqual({ fields: [asc('title')], text: 'prefix' });
    expect(adviceFor(list(where('title', 'start', 'ab', true)), columns)).toEqual({ fields: [asc('title')], text: 'prefix-folded' });
    expect(adviceFor(list(where('body', 'contains', 'ab')), columns)).toEqual({ fields: [asc('body')], text: 'substring' });
    expect(adviceFor(list(where('body', 'end', 'ab', true)), columns)).toEqual({ fields: [asc('body')], text: 'substring' });
    expect(adviceFor(list(and(where('category', 'e', 'x'), where('title', 'contains', 'ab'))), columns)).toEqual({ fields: [asc('category')] });
  });

  it('covers an aggregate: equality fields, the range field (only matching entries read), then the group and aggregated fields', () => {
    expect(adviceFor(aggregate('group', 'price', where('price', 'gte', 10), 'rating'), columns)).toEqual({ fields: [asc('price'), asc('rating')] });
    expect(adviceFor(aggregate('group', 'price', undefined, 'rating'), columns)).toEqual({ fields: [asc('rating'), asc('price')] });
    expect(adviceFor(aggregate('group', 'price', where('releasedAt', 'gte', '2024-01-01T00:00:00Z'), 'rating'), columns)).toEqual({ fields: [asc('releasedAt'), asc('rating'), asc('price')] });
    expect(adviceFor(aggregate('group', 'price', where('inStock', 'e', true), 'rating'), columns)).toEqual({ fields: [asc('inStock'), asc('rating'), asc('price')] });
    expect(adviceFor(aggregate('aggregate', 'price', where('category', 'e', 'x')), columns)).toEqual({ fields: [asc('category'), asc('price')] });
    // An ordinary index holds a key of a Text value, not the value: a group by one gets a covering index, which holds it whole.
    expect(adviceFor(aggregate('group', 'price', where('price', 'gte', 10), 'category'), columns)).toEqual({ fields: [asc('price'), asc('category')], covering: true });
    expect(adviceFor(aggregate('group', 'price', undefined, 'author'), columns)).toEqual({ fields: [asc('author'), asc('price')], covering: true });
    expect(adviceFor(aggregate('group', 'rating', where('inStock', 'e', true), 'body'), columns)).toEqual({ fields: [asc('inStock'), asc('body'), asc('rating')], covering: true });
    // An aggregated Text value (a count of it) stays in the rows: only the filter is indexed, and with no filter nothing.
    expect(adviceFor(aggregate('group', 'title', where('price', 'gte', 10), 'rating'), columns)).toEqual({ fields: [asc('price'), asc('rating')] });
    expect(adviceFor(aggregate('aggregate', 'title', where('price', 'gte', 10)), columns)).toEqual({ fields: [asc('price')] });
    expect(adviceFor(aggregate('aggregate', 'title'), columns)).toBeNull();
    // Three fields at most: the group past them is not held, so the index is an ordinary one.
    expect(adviceFor(aggregate('group', 'rating', and(where('inStock', 'e', true), where('price', 'e', 3), where('releasedAt', 'gte', '2024-01-01T00:00:00Z')), 'category'), columns)).toEqual({
      fields: [asc('inStock'), asc('price'), asc('releasedAt')],
    });
  });

  it('advises nothing an index cannot serve: no filter or order, not-equal, the item id, a field without a column, an as-of shape', () => {
    expect(adviceFor(list(), columns)).toBeNull();
    expect(adviceFor(list(where('category', 'ne', 'x')), columns)).toBeNull();
    expect(adviceFor(list(where('id', 'e', 'x'), { fieldKey: 'id' }), columns)).toBeNull();
    expect(adviceFor(list(where('meta', 'e', 'x')), columns)).toBeNull();
    expect(adviceFor(shapeOf({ kind: 'list', asOf: true, filter: translateContentFilter(where('category', 'e', 'x'), types) }), columns)).toBeNull();
    // An order too long for three fields is left out; the equality still gets its index.
    expect(adviceFor(list(and(where('category', 'e', 'x'), where('inStock', 'e', true)), [{ fieldKey: 'price' }, { fieldKey: 'title' }]), columns)).toEqual({ fields: [asc('category'), asc('inStock')] });
  });

  it('finds the index that already serves it: the same one, or a b-tree it is a prefix of', () => {
    const byCategory: QueryIndex = { fields: [asc('category')] };
    const byCategoryPrice: QueryIndex = { fields: [asc('category'), desc('price')], origin: 'pinned' };
    expect(servingIndex(byCategory, [byCategoryPrice])).toBe(byCategoryPrice);
    expect(servingIndex({ fields: [asc('category'), asc('price')] }, [byCategoryPrice])).toBeNull();
    expect(servingIndex({ fields: [asc('title')], text: 'prefix' }, [{ fields: [asc('title')] }])).toBeNull();
    // A covering index serves aggregates only, and only a covering one serves them.
    const covering: QueryIndex = { fields: [asc('price'), asc('category'), asc('rating')], covering: true };
    expect(servingIndex({ fields: [asc('price'), asc('category')], covering: true }, [{ fields: [asc('price'), asc('category')] }, covering])).toBe(covering);
    expect(servingIndex({ fields: [asc('price'), asc('category')] }, [covering])).toBeNull();
  });
});

describe("assessing a shape against the type's indexes and the advisor's thresholds", () => {
  const shape = list(where('category', 'e', 'x'), { fieldKey: 'price', sortDir: 'Desc' });
  const stats = (recentCount: number, recentTotalMs: number): ShapeStats => ({ shape, count: recentCount, totalMs: recentTotalMs, recentCount, recentTotalMs, firstSeen: 0, lastSeen: 0 });
  const thresholds = { enabled: true, minCount: 10, minMeanMs: 5, budget: 1 };
  const none = { columns, indexes: [], forbidden: [] };
  const advice = { fields: [asc('category'), desc('price')] };

  it('is a candidate once frequent and slow enough, within the budget, not forbidden, not served', () => {
    expect(assess(stats(10, 50), none, thresholds)).toEqual({ advice, servedBy: null, status: 'candidate' });
    expect(assess(stats(9, 50), none, thresholds).status).toBe('below-threshold');
    expect(assess(stats(10, 49), none, thresholds).status).toBe('below-threshold');
  });

  it('counts the time a shape cost: a slow one qualifies after fewer queries, never fewer than MIN_SAMPLES', () => {
    const usual = { ...thresholds, minCount: 100, minMeanMs: 10 };
    expect(assess(stats(99, 990), none, usual).status).toBe('below-threshold');
    expect(assess(stats(100, 1000), none, usual).status).toBe('candidate');
    expect(assess(stats(MIN_SAMPLES, MIN_SAMPLES * 3000), none, usual).status).toBe('candidate');
    expect(assess(stats(MIN_SAMPLES - 1, 60_000), none, usual).status).toBe('below-threshold');
    expect(assess(stats(50, 990), none, usual).status).toBe('below-threshold');
    expect(assess(stats(10, 50), { ...none, forbidden: [advice] }, thresholds).status).toBe('forbidden');
    expect(assess(stats(10, 50), { ...none, indexes: [{ fields: [asc('title')], text: 'prefix', origin: 'advised' }] }, thresholds).status).toBe('over-budget');
    expect(assess(stats(10, 50), { ...none, indexes: [{ ...advice, origin: 'advised' }] }, thresholds)).toEqual({ advice, servedBy: 'advised', status: 'indexed' });
    expect(assess(stats(10, 50), { ...none, indexes: [advice] }, thresholds)).toEqual({ advice, servedBy: 'declared', status: 'indexed' });
    expect(assess(stats(10, 50), none, { ...thresholds, enabled: false }).status).toBe('advisor-off');
    expect(assess({ ...stats(10, 50), shape: list(where('category', 'nnoe')) }, none, thresholds)).toEqual({ advice: null, servedBy: null, status: 'unindexable' });
  });
});
