import pino from 'pino';
import type { Document, IndexDefinition, ReadStore } from '../../infra/readstore/port';
import { type AdvisorCommands, QueryIndexAdvisor } from '../../projections/processes/query-index-advisor';
import { QUERY_INDEX_GROUP } from '../../projections/content-tables/query-indexes';
import { type ContentTableDocument, tableGeneration } from '../../projections/content-tables/schema';
import { CONTENT_TABLES } from '../../projections/read-models/content-tables';
import { translateContentFilter, translateContentOrder } from '../../queries/content-filter';
import { shapeOf } from '../../queries/query-shape';
import { QueryShapeRecorder } from '../../queries/query-shape-recorder';
import { indexSignature, type QueryIndex } from '../../src/domain/content-type/query-indexes';

const FIELDS = [
  { key: 'category', type: 'Text' },
  { key: 'price', type: 'Number' },
  { key: 'title', type: 'Text' },
] as const;
const generation = tableGeneration('ws', 'Product', [...FIELDS]);
const types = new Map(FIELDS.map((field) => [field.key, field.type]));
const where = (fieldKey: string, operator: string, value?: unknown) => ({ type: 'condition', fieldKey, operator, value });
const byCategoryPrice = shapeOf({ kind: 'list', asOf: false, filter: translateContentFilter(where('category', 'e', 'x'), types), sort: translateContentOrder({ fieldKey: 'price', sortDir: 'Desc' }, types) });
const byTitle = shapeOf({ kind: 'list', asOf: false, filter: translateContentFilter(where('title', 'start', 'a'), types) });
const advisedIndex: QueryIndex = { fields: [{ key: 'category', direction: 'asc' }, { key: 'price', direction: 'desc' }] };

/**
 * The registry in memory, and the engine's read count of each built index, which the test moves;
 * the advisor's commands go through the content type's rules in the real service (HTTP suite),
 * here they are recorded and applied to the registry as its projector would.
 */
function setup(settings: Partial<ConstructorParameters<typeof QueryIndexAdvisor>[5]> = {}) {
  let now = 1_000_000;
  const clock = { now: () => new Date(now) };
  const registry = new Map<string, ContentTableDocument>([
    ['ws:Product', { id: 'ws:Product', workspaceId: 'ws', contentType: 'Product', wanted: generation, serving: generation, queryIndexes: [], forbiddenIndexes: [] }],
  ]);
  const scans = new Map<string, number>();
  const store = {
    get: async (collection: string, id: string) => (collection === CONTENT_TABLES ? (registry.get(id) ?? null) : null),
    list: async (collection: string) => (collection === CONTENT_TABLES ? [...registry.values()] : []) as Document[],
    indexScans: async (table: string, group: string, indexes: readonly IndexDefinition[]) => {
      expect({ table, group }).toEqual({ table: generation.collection, group: QUERY_INDEX_GROUP });
      return indexes.map((index) => scans.get(JSON.stringify(index.fields)) ?? null);
    },
  } as unknown as ReadStore;
  const calls: { kind: string; index: QueryIndex; reason: string; actor: string }[] = [];
  const entry = () => registry.get('ws:Product')!;
  const commands: AdvisorCommands = {
    adviseQueryIndex: async (_workspaceId, _key, advice, context) => {
      calls.push({ kind: 'advise', index: advice.index, reason: advice.reason, actor: context.actor });
      registry.set('ws:Product', { ...entry(), queryIndexes: [...(entry().queryIndexes ?? []), { ...advice.index, origin: 'advised', advisedAt: advice.at.toISOString() }] });
    },
    retireAdvisedIndex: async (_workspaceId, _key, index, reason, context) => {
      calls.push({ kind: 'retire', index, reason, actor: context.actor });
      registry.set('ws:Product', { ...entry(), queryIndexes: entry().queryIndexes!.filter((kept) => indexSignature(kept) !== indexSignature(index)) });
    },
  };
  const recorder = new QueryShapeRecorder({ perType: 10, total: 100, windowMs: 60_000 }, () => now);
  const advisor = new QueryIndexAdvisor(recorder, store, commands, clock, pino({ level: 'silent' }), {
    enabled: true,
    minCount: 5,
    minMeanMs: 10,
    budget: 1,
    intervalMs: 1000,
    dropUnusedAfterMs: 60_000,
    windowMs: 60_000,
    ...settings,
  });
  return { advisor, recorder, calls, registry, scans, entry, advance: (ms: number) => (now += ms) };
}

describe('query index advisor', () => {
  it('declares, as system, the index of a shape once it is frequent and slow enough, with the figures as its reason', async () => {
    const { advisor, recorder, calls } = setup();
    for (let index = 0; index < 4; index++) recorder.record('ws', 'Product', byCategoryPrice, 40);
    await advisor.runOnce();
    expect(calls).toEqual([]);
    recorder.record('ws', 'Product', byCategoryPrice, 40);
    await advisor.runOnce();
    expect(calls).toEqual([{ kind: 'advise', index: advisedIndex, actor: 'system', reason: expect.stringMatching(/^5 queries in at most 2 min, 40\.0 ms each on average: list where category e order price desc$/) }]);
    // Served now: nothing more.
    await advisor.runOnce();
    expect(calls).toHaveLength(1);
  });

  it("declares every candidate of a type in one pass, costliest first, each once and within the budget", async () => {
    const byCategory = shapeOf({ kind: 'list', asOf: false, filter: translateContentFilter(where('category', 'e', 'x'), types) });
    const { advisor, recorder, calls } = setup({ budget: 3 });
    for (let index = 0; index < 5; index++) {
      recorder.record('ws', 'Product', byCategoryPrice, 300);
      recorder.record('ws', 'Product', byTitle, 200);
      recorder.record('ws', 'Product', byCategory, 100);
    }
    await advisor.runOnce();
    // "category" alone is served by (category, price desc), advised first in the same pass.
    expect(calls.map((call) => call.index)).toEqual([advisedIndex, { fields: [{ key: 'title', direction: 'asc' }], text: 'prefix' }]);
    await advisor.runOnce();
    expect(calls).toHaveLength(2);
  });

  it('leaves fast shapes alone, keeps to the budget and to the forbidden list', async () => {
    const { advisor, recorder, calls, registry, entry } = setup();
    for (let index = 0; index < 50; index++) recorder.record('ws', 'Product', byTitle, 1);
    await advisor.runOnce();
    expect(calls).toEqual([]);
    registry.set('ws:Product', { ...entry(), forbiddenIndexes: [advisedIndex] });
    for (let index = 0; index < 50; index++) recorder.record('ws', 'Product', byCategoryPrice, 100);
    await advisor.runOnce();
    expect(calls).toEqual([]);
    registry.set('ws:Product', { ...entry(), forbiddenIndexes: [], queryIndexes: [{ fields: [{ key: 'title', direction: 'asc' }], text: 'prefix', origin: 'advised' }] });
    await advisor.runOnce();
    expect(calls).toEqual([]);
    // A declared index does not count against the budget.
    registry.set('ws:Product', { ...entry(), queryIndexes: [{ fields: [{ key: 'title', direction: 'asc' }], text: 'prefix' }] });
    await advisor.runOnce();
    expect(calls.map((call) => call.index)).toEqual([advisedIndex]);
  });

  it('drops an advised index once the engine counted no read of it for the configured time, never an operator\'s', async () => {
    const { advisor, calls, scans, registry, entry, advance } = setup();
    const built = JSON.stringify(['stage', 'fields.category', 'fields.price', 'id']);
    const declared = JSON.stringify(['stage', 'fields.title', 'id']);
    registry.set('ws:Product', {
      ...entry(),
      queryIndexes: [{ ...advisedIndex, origin: 'advised', advisedAt: new Date(0).toISOString() }, { fields: [{ key: 'title', direction: 'asc' }] }],
    });
    scans.set(built, 3);
    scans.set(declared, 0);
    // First seen now: however old the advice, its time starts here (a restart does not count as unused time).
    await advisor.runOnce();
    advance(50_000);
    scans.set(built, 4);
    await advisor.runOnce();
    advance(59_000);
    await advisor.runOnce();
    expect(calls).toEqual([]);
    advance(1_000);
    await advisor.runOnce();
    expect(calls).toEqual([{ kind: 'retire', index: { ...advisedIndex, origin: 'advised', advisedAt: new Date(0).toISOString() }, actor: 'system', reason: expect.stringMatching(/^no query read it for 60 s/) }]);
    advance(600_000);
    await advisor.runOnce();
    expect(calls).toHaveLength(1);
    expect(entry().queryIndexes).toEqual([{ fields: [{ key: 'title', direction: 'asc' }] }]);
  });

  it('does not drop an advised index that is not built yet', async () => {
    const { advisor, calls, registry, entry, advance } = setup();
    registry.set('ws:Product', { ...entry(), queryIndexes: [{ ...advisedIndex, origin: 'advised' }] });
    for (let pass = 0; pass < 5; pass++) {
      await advisor.runOnce();
      advance(60_000);
    }
    expect(calls).toEqual([]);
  });
});
