import { seededRandom, type SeededRandom } from '../support/seeded-random';
import type { CollectionLayout, ColumnDefinition, Document, ReadStore } from '../../infra/readstore/port';
import type { AggregateOperation, Condition, Filter, Operator, Scalar, SortKey } from '../../infra/readstore/query';
import { aggregateGroupsInMemory, aggregateInMemory, findInMemory } from '../../infra/readstore/memory-query';
import { memoryColumns } from '../../infra/readstore/memory-values';

const LONG_PREFIX = 'x'.repeat(205);

/**
 * Values chosen where engines and JavaScript part ways: case that lower() folds one character
 * at a time (İ, final Σ, ẞ), accents, characters past U+FFFF (which UTF-16 orders below
 * U+E000–U+FFFF), LIKE's wildcards and escape, the empty string, digits as text, decimals a
 * binary sum gets wrong, negatives, and values of another type than a typed column's.
 */
const TEXTS = ['apple', 'Apple', 'APPLE pie', 'Äpfel', 'äpfel', 'École', 'école', 'ÉCOLE', 'ΟΔΟΣ', 'οδος', 'İstanbul', 'istanbul', 'STRAẞE', 'straße', '', '10', '9', '010', 'a%b', 'a_b', 'a\\b', '😀 smile', '\uffeftail', 'Zebra', 'zebra', 'ǅemal', 'mixed Case 42', `${LONG_PREFIX}b`, `${LONG_PREFIX}a`, `${LONG_PREFIX}A`];
const NUMBERS = [0, 1, -1, 2.5, -2.5, 0.1, 0.2, 0.3, 10, 100, -100, 1e-7, 12345678.9, 0.125, 3, 7, 1e21, -0.001, 42, 99.99];
const DATES = ['2024-01-15T12:30:00.000Z', '2023-12-31T23:59:59.999Z', '2024-03-01T00:00:00.000Z', '2025-06-30T08:00:00.000Z', '1999-01-01T00:00:00.000Z'];
const GROUPS = ['red', 'Red', 'blue', 'é', 'Ω', '😀'];
const TAGS = ['news', 'sale', 'Sale', 'é', 'z'];

const COLUMNS: ColumnDefinition[] = [
  { path: 'n', type: 'number' },
  { path: 's', type: 'text', long: true },
  { path: 'd', type: 'datetime' },
  { path: 'b', type: 'boolean' },
  { path: 'g', type: 'text' },
  { path: 'fields.x', type: 'number' },
];
const FIELDS = ['n', 's', 'd', 'b', 'g', 'fields.x', 'tags', 'id'];

/** A value of the field's usual type most of the time; else null, missing, or another type. */
function fieldValue(random: SeededRandom, usual: () => unknown): unknown {
  const roll = random.next();
  if (roll < 0.7) return usual();
  if (roll < 0.8) return null;
  if (roll < 0.9) return undefined;
  return random.pick<unknown>(['12', 5, true, ['a'], '', { k: 1 }]);
}

function documents(random: SeededRandom): Document[] {
  return Array.from({ length: 60 }, (_, i) => {
    const raw: Record<string, unknown> = {
      id: `doc-${String(random.int(1000)).padStart(3, '0')}-${i}`,
      n: fieldValue(random, () => random.pick(NUMBERS)),
      s: fieldValue(random, () => random.pick(TEXTS)),
      d: fieldValue(random, () => random.pick(DATES)),
      b: fieldValue(random, () => random.chance(0.5)),
      g: fieldValue(random, () => random.pick(GROUPS)),
      fields: random.chance(0.9) ? { x: fieldValue(random, () => random.pick(NUMBERS)) } : 'not an object',
      tags: fieldValue(random, () => TAGS.filter(() => random.chance(0.3))),
    };
    return JSON.parse(JSON.stringify(raw)) as Document;
  });
}

const VALUES: Record<string, readonly Scalar[]> = {
  n: NUMBERS,
  s: TEXTS,
  d: DATES,
  b: [true, false],
  g: GROUPS,
  'fields.x': NUMBERS,
  tags: TAGS,
  id: ['doc-500', 'doc-1', 'doc-999'],
};
const TEXT_PARTS = ['a', 'A', 'İs', 'ΟΣ', 'ǅ', 'pple', 'PIE', 'éc', 'ÉC', 'ος', 'ΟΣ', 'i', 'İ', 'ß', 'ẞ', '%', '_', '\\', '1', '0', '😀', 'xx', 'XX', 'b', 'ǆ', 'Ǆ', 'doc-0'];

function condition(random: SeededRandom): Condition {
  const field = random.pick(FIELDS);
  const operator = random.pick<Operator>(['e', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'start', 'end', 'contains', 'noe', 'nnoe', 'includes']);
  const anyValue = (): Scalar => (random.chance(0.85) ? random.pick(VALUES[field]!) : random.pick<Scalar>(['12', 5, true, 'zzz', -3.25]));
  switch (operator) {
    case 'e':
    case 'ne':
      return { type: 'condition', field, operator, value: random.chance(0.1) ? null : anyValue() };
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return { type: 'condition', field, operator, value: anyValue() };
    case 'in':
    case 'nin':
      return { type: 'condition', field, operator, value: Array.from({ length: 1 + random.int(4) }, () => (random.chance(0.1) ? null : anyValue())) };
    case 'start':
    case 'end':
    case 'contains':
      return { type: 'condition', field, operator, value: random.pick(TEXT_PARTS), ...(random.chance(0.5) ? { caseInsensitive: true } : {}) };
    case 'includes':
      return { type: 'condition', field, operator, value: TAGS.filter(() => random.chance(0.4)) };
    default:
      return { type: 'condition', field, operator };
  }
}

function filter(random: SeededRandom, depth: number): Filter {
  const roll = random.next();
  if (depth === 0 || roll < 0.5) return condition(random);
  if (roll < 0.6) return { type: 'not', condition: filter(random, depth - 1) };
  return { type: roll < 0.8 ? 'and' : 'or', conditions: Array.from({ length: random.int(4) }, () => filter(random, depth - 1)) };
}

function sort(random: SeededRandom): SortKey[] {
  return Array.from({ length: random.int(4) }, () => ({ field: random.pick(FIELDS), direction: random.pick(['asc', 'desc'] as const) }));
}

/** Numeric fields half the time: most aggregates of the others are null. */
const AGGREGATED = ['n', 'fields.x', 'n', 'fields.x', ...FIELDS];
const OPERATIONS: readonly AggregateOperation[] = ['sum', 'avg', 'min', 'max', 'count'];
const CASES = 150;

export type OpenStore = () => Promise<{ store: ReadStore; close: () => Promise<void> }>;

/**
 * The in-memory evaluator (infra/readstore/memory-query.ts) against the store itself: the same
 * documents in a JSONB collection, one with typed columns and one with its documents apart, and
 * for each, queries drawn from a seeded generator must select the same ids in the same order,
 * with the same totals, aggregates and groups.
 */
export function describeMemoryQueryConformance(engine: string, open: OpenStore): void {
  const layouts: readonly [string, readonly ColumnDefinition[], CollectionLayout?][] = [
    ['jsonb', []],
    ['typed', COLUMNS],
    ['apart', COLUMNS, { documentsApart: true }],
  ];

  describe.each(layouts)(`in-memory query evaluator against the ${engine} read store (%s)`, (name, columns, layout) => {
    const collection = `memq_${name}`;
    const memory = memoryColumns(columns);
    let store: ReadStore;
    let close: () => Promise<void>;
    let docs: Document[];

    beforeAll(async () => {
      ({ store, close } = await open());
      await store.ensureCollection(collection, [], columns, layout);
      docs = documents(seededRandom(32));
      await store.apply(docs.map((document) => ({ kind: 'upsert' as const, collection, document })));
    });
    afterAll(() => close());

    it(`selects, orders, counts and pages as the store does (${CASES} queries)`, async () => {
      const random = seededRandom(3201);
      let nonEmpty = 0;
      for (let i = 0; i < CASES; i++) {
        const query = { filter: random.chance(0.9) ? filter(random, 3) : undefined, sort: sort(random), offset: random.int(5), limit: 1 + random.int(30) };
        const stored = await store.findIds(collection, query);
        const evaluated = findInMemory(docs, query, memory);
        expect({ query, ids: evaluated.items.map((document) => document.id), total: evaluated.total }).toEqual({ query, ids: stored.items, total: stored.total });
        if (stored.total > 0) nonEmpty += 1;
      }
      // The generator must select something most of the time, or the comparison proves little.
      expect(nonEmpty).toBeGreaterThan(CASES / 2);
    });

    it('matches text as the store does: every part, operator and case folding on every text', async () => {
      for (const value of TEXT_PARTS) {
        for (const operator of ['start', 'end', 'contains'] as const) {
          for (const caseInsensitive of [false, true]) {
            const query = { filter: { type: 'condition' as const, field: 's', operator, value, caseInsensitive }, sort: [{ field: 's', direction: 'asc' as const }] };
            const stored = await store.findIds(collection, query);
            expect({ query, ids: findInMemory(docs, query, memory).items.map((document) => document.id) }).toEqual({ query, ids: stored.items });
          }
        }
      }
    });

    it(`aggregates as the store does (${CASES} queries)`, async () => {
      const random = seededRandom(3202);
      let numeric = 0;
      for (let i = 0; i < CASES; i++) {
        const query = { filter: random.chance(0.7) ? filter(random, 2) : undefined, field: random.pick(AGGREGATED), operation: random.pick(OPERATIONS) };
        const stored = await store.aggregate(collection, query);
        expect({ query, value: aggregateInMemory(docs, query, memory) }).toEqual({ query, value: stored });
        if (stored !== null && query.operation !== 'count') numeric += 1;
      }
      expect(numeric).toBeGreaterThan(CASES / 4);
    });

    it(`groups as the store does (${CASES / 2} queries)`, async () => {
      const random = seededRandom(3203);
      for (let i = 0; i < CASES / 2; i++) {
        const query = { filter: random.chance(0.5) ? filter(random, 2) : undefined, field: random.pick(AGGREGATED), operation: random.pick(OPERATIONS), groupBy: random.pick(['g', 'b', 'n', 's', 'd']) };
        const stored = await store.aggregateGroups(collection, query);
        expect({ query, groups: aggregateGroupsInMemory(docs, query, memory) }).toEqual({ query, groups: stored });
      }
    });
  });
}
