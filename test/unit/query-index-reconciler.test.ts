import pino from 'pino';
import type { IndexChanges, IndexDefinition, ReadStore } from '../../infra/readstore/port';
import { QUERY_INDEX_GROUP, QueryIndexReconciler } from '../../projections/content-tables/query-indexes';
import { type ContentTableDocument, tableGeneration } from '../../projections/content-tables/schema';
import type { QueryIndex } from '../../src/domain/content-type/query-indexes';

const generation = tableGeneration('ws', 'Product', [{ key: 'color', type: 'Text' }, { key: 'price', type: 'Number' }]);
const byPrice: QueryIndex = { fields: [{ key: 'color', direction: 'asc' }, { key: 'price', direction: 'desc' }] };
const entry = (queryIndexes?: QueryIndex[], serving = generation): ContentTableDocument => ({
  id: 'ws:Product',
  workspaceId: 'ws',
  contentType: 'Product',
  wanted: serving,
  serving,
  ...(queryIndexes ? { queryIndexes } : {}),
});

/** A store that records each ensureIndexes and ensureCounts call and fails while `failing` is set. */
function recordingStore() {
  const calls: { collection: string; group: string; indexes: readonly IndexDefinition[] }[] = [];
  const counts: { collection: string; group: string; fieldSets: readonly (readonly string[])[] }[] = [];
  const state = { failing: false };
  const store = {
    ensureIndexes: async (collection: string, group: string, indexes: readonly IndexDefinition[]): Promise<IndexChanges> => {
      calls.push({ collection, group, indexes });
      if (state.failing) throw new Error('index row size exceeds maximum');
      return { created: [], dropped: [] };
    },
    ensureCounts: async (collection: string, group: string, fieldSets: readonly (readonly string[])[]): Promise<void> => {
      counts.push({ collection, group, fieldSets });
    },
  } as unknown as ReadStore;
  return { store, calls, counts, state };
}

describe('query index reconciler', () => {
  it('asks the store once per serving table and declaration, again when either changes', async () => {
    const { store, calls, counts } = recordingStore();
    const reconciler = new QueryIndexReconciler(store, pino({ level: 'silent' }));
    await reconciler.reconcile([entry()]);
    await reconciler.reconcile([entry([])]);
    expect(calls).toEqual([{ collection: generation.collection, group: QUERY_INDEX_GROUP, indexes: [] }]);

    await reconciler.reconcile([entry([byPrice])]);
    await reconciler.reconcile([entry([byPrice])]);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.indexes).toEqual([{ fields: ['stage', 'fields.color', 'fields.price', 'id'], descending: ['fields.price'] }]);
    // The first declared field keeps its totals (within a stage); none kept without a declaration.
    expect(counts.map((call) => call.fieldSets)).toEqual([[], [['stage', 'fields.color']]]);

    const other = tableGeneration('ws', 'Product', [{ key: 'color', type: 'Text' }, { key: 'price', type: 'Number' }, { key: 'size', type: 'Number' }]);
    await reconciler.reconcile([entry([byPrice], other)]);
    expect(calls.map((call) => call.collection)).toEqual([generation.collection, generation.collection, other.collection]);
    // A table that stopped serving is forgotten: serving again, it is asked again.
    await reconciler.reconcile([entry([byPrice])]);
    expect(calls).toHaveLength(4);
  });

  it('keeps no counts for an index led by a system field (as many values as items), one per leading field otherwise', async () => {
    const { store, counts } = recordingStore();
    const reconciler = new QueryIndexReconciler(store, pino({ level: 'silent' }));
    const byUpdated: QueryIndex = { fields: [{ key: 'updatedAt', direction: 'desc' }] };
    const byColour: QueryIndex = { fields: [{ key: 'color', direction: 'asc' }] };
    await reconciler.reconcile([entry([byUpdated, byPrice, byColour])]);
    expect(counts.map((call) => call.fieldSets)).toEqual([[['stage', 'fields.color']]]);
  });

  it('builds a declared single field (the lean table has no index per field), but not [id], which is the table\'s own (stage, id)', async () => {
    const { store, calls, counts } = recordingStore();
    const reconciler = new QueryIndexReconciler(store, pino({ level: 'silent' }));
    const byColour: QueryIndex = { fields: [{ key: 'color', direction: 'asc' }] };
    const byId: QueryIndex = { fields: [{ key: 'id', direction: 'asc' }] };
    await reconciler.reconcile([entry([byColour, byId, byPrice])]);
    expect(calls[0]!.indexes).toEqual([
      { fields: ['stage', 'fields.color', 'id'] },
      { fields: ['stage', 'fields.color', 'fields.price', 'id'], descending: ['fields.price'] },
    ]);
    expect(counts[0]!.fieldSets).toEqual([['stage', 'fields.color']]);
    expect(reconciler.state(entry([byColour, byId, byPrice]))).toBe('built');
  });

  it('indexes each unique field for the check of a save, once when a query index is the same, with no counts', async () => {
    const { store, calls, counts } = recordingStore();
    const reconciler = new QueryIndexReconciler(store, pino({ level: 'silent' }));
    const byColour: QueryIndex = { fields: [{ key: 'color', direction: 'asc' }] };
    const unique = (queryIndexes: QueryIndex[]): ContentTableDocument => ({ ...entry(queryIndexes), uniqueFields: ['price', 'color'] });
    await reconciler.reconcile([unique([byColour])]);
    expect(calls[0]!.indexes).toEqual([{ fields: ['stage', 'fields.color', 'id'] }, { fields: ['stage', 'fields.price', 'id'] }]);
    expect(counts[0]!.fieldSets).toEqual([['stage', 'fields.color']]);
    expect(reconciler.state(unique([]))).toBe('building');
    await reconciler.reconcile([unique([])]);
    expect(reconciler.state(unique([]))).toBe('built');
  });

  it("builds text indexes of the kind declared, and keeps counts only for an operator's b-trees, asked again when an advised index is pinned", async () => {
    const { store, calls, counts } = recordingStore();
    const reconciler = new QueryIndexReconciler(store, pino({ level: 'silent' }));
    const prefix: QueryIndex = { fields: [{ key: 'color', direction: 'asc' }], text: 'prefix' };
    const folded: QueryIndex = { fields: [{ key: 'color', direction: 'asc' }], text: 'prefix-folded' };
    const trigrams: QueryIndex = { fields: [{ key: 'color', direction: 'asc' }], text: 'substring' };
    const advised: QueryIndex = { ...byPrice, origin: 'advised', advisedAt: '2026-01-01T00:00:00.000Z' };
    await reconciler.reconcile([entry([prefix, folded, trigrams, advised])]);
    expect(calls[0]!.indexes).toEqual([
      { fields: ['stage', 'fields.color'], text: 'prefix' },
      { fields: ['stage', 'fields.color'], text: 'prefix-folded' },
      { fields: ['fields.color'], text: 'substring' },
      { fields: ['stage', 'fields.color', 'fields.price', 'id'], descending: ['fields.price'] },
    ]);
    expect(counts[0]!.fieldSets).toEqual([]);
    await reconciler.reconcile([entry([prefix, folded, trigrams, { ...advised, origin: 'pinned' }])]);
    expect(calls).toHaveLength(2);
    expect(counts[1]!.fieldSets).toEqual([['stage', 'fields.color']]);
  });

  it('analyzes the table after creating an index: a folded prefix is planned from statistics of its expression', async () => {
    const analyzed: string[] = [];
    const store = {
      ensureIndexes: async (): Promise<IndexChanges> => ({ created: ['rm_x_q_1'], dropped: [] }),
      ensureCounts: async () => undefined,
      analyzeCollection: async (collection: string) => {
        analyzed.push(collection);
      },
    } as unknown as ReadStore;
    const reconciler = new QueryIndexReconciler(store, pino({ level: 'silent' }));
    await reconciler.reconcile([entry([byPrice])]);
    expect(analyzed).toEqual([generation.collection]);
  });

  it('logs a failed build instead of throwing, and tries it again a minute later, or at once when the declaration changes', async () => {
    const { store, calls, state } = recordingStore();
    let now = 0;
    const reconciler = new QueryIndexReconciler(store, pino({ level: 'silent' }), () => now);
    state.failing = true;
    await reconciler.reconcile([entry([byPrice])]);
    now += 59_000;
    await reconciler.reconcile([entry([byPrice])]);
    expect(calls).toHaveLength(1);
    now += 1_000;
    await reconciler.reconcile([entry([byPrice])]);
    expect(calls).toHaveLength(2);
    await reconciler.reconcile([entry([])]);
    expect(calls).toHaveLength(3);
    state.failing = false;
    now += 60_000;
    await reconciler.reconcile([entry([])]);
    await reconciler.reconcile([entry([])]);
    expect(calls).toHaveLength(4);
  });

  it('reports where the declared indexes stand: none, waiting for a table, building until a pass brings them in line, built, failed', async () => {
    const { store, state } = recordingStore();
    const reconciler = new QueryIndexReconciler(store, pino({ level: 'silent' }));
    expect(reconciler.state({ ...entry(), serving: null })).toBe('none');
    expect(reconciler.state({ ...entry([byPrice]), serving: null })).toBe('waiting');
    // A service just started has not asked the store yet, even about nothing declared.
    expect(reconciler.state(entry())).toBe('building');
    await reconciler.reconcile([entry()]);
    expect(reconciler.state(entry())).toBe('none');

    expect(reconciler.state(entry([byPrice]))).toBe('building');
    await reconciler.reconcile([entry([byPrice])]);
    expect(reconciler.state(entry([byPrice]))).toBe('built');
    // Dropped from the declaration: building until the pass drops them.
    expect(reconciler.state(entry([]))).toBe('building');

    state.failing = true;
    const other = tableGeneration('ws', 'Product', [{ key: 'color', type: 'Text' }, { key: 'price', type: 'Number' }, { key: 'size', type: 'Number' }]);
    await reconciler.reconcile([entry([byPrice], other)]);
    expect(reconciler.state(entry([byPrice], other))).toBe('failed');
  });
});
