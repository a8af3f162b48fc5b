import type { Filter } from '../../infra/readstore/query';
import { translateContentFilter, translateContentOrder } from '../../queries/content-filter';
import { describeShape, MAX_SHAPE_CONDITIONS, MAX_SHAPE_TEXT, type QueryShape, shapeOf } from '../../queries/query-shape';
import { QueryShapeRecorder } from '../../queries/query-shape-recorder';

const types = new Map([
  ['category', 'Text'],
  ['title', 'Text'],
  ['price', 'Number'],
  ['releasedAt', 'DateTime'],
] as const);
const where = (fieldKey: string, operator: string, value?: unknown, caseInsensitive?: boolean) => ({ type: 'condition', fieldKey, operator, value, caseInsensitive });
/** A list query's shape as the service makes it: from the client's filter and order, translated. */
const listShape = (filter: unknown, order?: unknown) => shapeOf({ kind: 'list', asOf: false, filter: translateContentFilter(filter, types), sort: translateContentOrder(order, types) });

describe('query shapes', () => {
  it('leave the values out: two queries differing only in values have one shape', () => {
    const a = listShape({ type: 'and', conditions: [where('category', 'e', 'light'), where('price', 'gte', 10)] }, { fieldKey: 'price', sortDir: 'Desc' });
    const b = listShape({ type: 'and', conditions: [where('category', 'e', 'heavy'), where('price', 'gte', 99.5)] }, { fieldKey: 'price', sortDir: 'desc' });
    expect(a).toEqual(b);
    expect(a).toEqual({
      key: expect.stringMatching(/^[0-9a-f]{16}$/),
      kind: 'list',
      asOf: false,
      filter: 'category e and price gte',
      conditions: [
        { fieldKey: 'category', operator: 'e' },
        { fieldKey: 'price', operator: 'gte' },
      ],
      order: [{ fieldKey: 'price', direction: 'desc' }],
    });
  });

  it('are the same whatever the order of and/or parts and however ands nest; operators, case folding, order and kind tell them apart', () => {
    const nested = listShape({ type: 'and', conditions: [where('price', 'lt', 5), { type: 'and', conditions: [where('category', 'e', 'x'), where('price', 'gte', 1)] }] });
    const flat = listShape({ type: 'and', conditions: [where('category', 'e', 'y'), where('price', 'gte', 2), where('price', 'lt', 3)] });
    expect(nested.key).toBe(flat.key);
    expect(nested.filter).toBe('category e and price gte and price lt');
    const ors = [where('title', 'start', 'a'), where('category', 'e', 'b')];
    expect(listShape({ type: 'or', conditions: ors }).key).toBe(listShape({ type: 'or', conditions: [...ors].reverse() }).key);

    const keys = new Set(
      [
        listShape(where('title', 'start', 'a')),
        listShape(where('title', 'start', 'a', true)),
        listShape(where('title', 'contains', 'a')),
        listShape(where('title', 'start', 'a'), { fieldKey: 'price' }),
        listShape(where('title', 'start', 'a'), { fieldKey: 'price', sortDir: 'Desc' }),
        shapeOf({ kind: 'list', asOf: true, filter: translateContentFilter(where('title', 'start', 'a'), types) }),
        shapeOf({ kind: 'aggregate', asOf: false, filter: translateContentFilter(where('title', 'start', 'a'), types), aggregate: { field: 'fields.price', operation: 'sum' } }),
      ].map((shape) => shape.key),
    );
    expect(keys.size).toBe(7);
  });

  it('name fields by the keys clients use, the item id as id, and keep only the conditions the whole filter requires', () => {
    const shape = listShape(
      { type: 'and', conditions: [where('id', 'start', 'ab'), where('createdAt', 'gt', '2024-01-01T00:00:00Z'), { type: 'or', conditions: [where('category', 'e', 'x'), where('price', 'e', 1)] }, { type: 'not', condition: where('title', 'e', 'z') }] },
      [{ fieldKey: 'releasedAt', sortDir: 'Desc' }, { fieldKey: 'id' }],
    );
    expect(shape.filter).toBe('(category e or price e) and createdAt gt and id start and not title e');
    expect(shape.conditions).toEqual([
      { fieldKey: 'createdAt', operator: 'gt' },
      { fieldKey: 'id', operator: 'start' },
    ]);
    expect(shape.order).toEqual([
      { fieldKey: 'releasedAt', direction: 'desc' },
      { fieldKey: 'id', direction: 'asc' },
    ]);
    expect(describeShape(shape)).toBe('list where (category e or price e) and createdAt gt and id start and not title e order releasedAt desc, id asc');
  });

  it('bound their text and conditions: a filter of a hundred conditions is cut, and still told apart by its key', () => {
    const many = (last: string): Filter => ({ type: 'and', conditions: [...Array.from({ length: 99 }, (_, index) => ({ type: 'condition' as const, field: `fields.field${String(index).padStart(80, '0')}`, operator: 'e' as const, value: 1 })), { type: 'condition', field: `fields.${last}`, operator: 'e', value: 1 }] });
    const a = shapeOf({ kind: 'list', asOf: false, filter: many('zz_a') });
    const b = shapeOf({ kind: 'list', asOf: false, filter: many('zz_b') });
    expect(a.filter.length).toBe(MAX_SHAPE_TEXT);
    expect(a.filter.endsWith('…')).toBe(true);
    expect(a.conditions).toHaveLength(MAX_SHAPE_CONDITIONS);
    expect(a.key).not.toBe(b.key);
  });

  it('describe aggregates with their field, operation and group', () => {
    const shape = shapeOf({ kind: 'group', asOf: true, filter: translateContentFilter(where('price', 'gte', 1), types), aggregate: { field: 'fields.price', operation: 'sum', groupBy: 'fields.category' } });
    expect(shape.aggregate).toEqual({ fieldKey: 'price', operation: 'sum', groupByFieldKey: 'category' });
    expect(describeShape(shape)).toBe('group as of sum of price by category where price gte');
  });
});

describe('query shape recorder', () => {
  const shape = (name: string): QueryShape => ({ key: name, kind: 'list', asOf: false, filter: `${name} e`, conditions: [{ fieldKey: name, operator: 'e' }], order: [] });

  it('counts and times each shape since first seen and over the recent window (the current one and the one before)', () => {
    let now = 0;
    const recorder = new QueryShapeRecorder({ perType: 10, total: 100, windowMs: 1000 }, () => now);
    recorder.record('ws', 'Product', shape('a'), 4);
    recorder.record('ws', 'Product', shape('a'), 6);
    now = 1500;
    recorder.record('ws', 'Product', shape('a'), 2);
    expect(recorder.shapes('ws', 'Product')).toEqual([{ shape: shape('a'), count: 3, totalMs: 12, recentCount: 3, recentTotalMs: 12, firstSeen: 0, lastSeen: 1500 }]);
    // Two windows on, the first window's queries are no longer recent.
    now = 2100;
    expect(recorder.shapes('ws', 'Product')[0]).toMatchObject({ count: 3, recentCount: 1, recentTotalMs: 2 });
    now = 5000;
    expect(recorder.shapes('ws', 'Product')[0]).toMatchObject({ count: 3, totalMs: 12, recentCount: 0, recentTotalMs: 0 });
    expect(recorder.shapes('ws', 'Other')).toEqual([]);
  });

  it('keeps at most perType shapes of a type, forgetting the least used (fewest recent queries, then seen longest ago)', () => {
    let now = 0;
    const recorder = new QueryShapeRecorder({ perType: 3, total: 100, windowMs: 60_000 }, () => now);
    for (const [name, times] of [['a', 3], ['b', 1], ['c', 1]] as const) {
      for (let index = 0; index < times; index++) recorder.record('ws', 'Product', shape(name), 1);
      now += 10;
    }
    recorder.record('ws', 'Product', shape('d'), 1);
    expect(recorder.shapes('ws', 'Product').map((stats) => stats.shape.key).sort()).toEqual(['a', 'c', 'd']);
    expect(recorder.shapeCount).toBe(3);
  });

  it('when the process holds its total, forgets a shape of the workspace holding the most: a flood of new shapes evicts its own', () => {
    let now = 0;
    const recorder = new QueryShapeRecorder({ perType: 1000, total: 50, windowMs: 60_000 }, () => now);
    // A quiet tenant's shapes, each seen once.
    for (const name of ['q1', 'q2', 'q3']) recorder.record('quiet', 'Page', shape(name), 1);
    // A hostile tenant sends endless distinct shapes over several types.
    for (let index = 0; index < 10_000; index++) {
      now += 1;
      recorder.record('flood', `Type${index % 7}`, shape(`f${index}`), 1);
    }
    expect(recorder.shapeCount).toBe(50);
    expect(recorder.shapes('quiet', 'Page').map((stats) => stats.shape.key).sort()).toEqual(['q1', 'q2', 'q3']);
    // A frequent shape of the flooding tenant survives its own flood: the ones seen once go first.
    const busy = new QueryShapeRecorder({ perType: 1000, total: 20, windowMs: 60_000 }, () => now);
    for (let index = 0; index < 1000; index++) {
      busy.record('flood', 'Type', shape('hot'), 1);
      busy.record('flood', 'Type', shape(`f${index}`), 1);
      now += 1;
    }
    expect(busy.shapes('flood', 'Type')[0]).toMatchObject({ shape: shape('hot'), count: 1000 });
  });

  it('lists the types it holds shapes of', () => {
    const recorder = new QueryShapeRecorder({ perType: 2, total: 10, windowMs: 1000 }, () => 0);
    recorder.record('ws', 'A', shape('a'), 1);
    recorder.record('ws2', 'B', shape('b'), 1);
    expect(recorder.recordedTypes()).toEqual([
      { workspaceId: 'ws', contentType: 'A' },
      { workspaceId: 'ws2', contentType: 'B' },
    ]);
  });
});
