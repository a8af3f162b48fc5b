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

  it('keeps the totals of a declared single field without building a second copy of the index the field already has', async () => {
    const { store, calls, counts } = recordingStore();
    const reconciler = new QueryIndexReconciler(store, pino({ level: 'silent' }));
    const byColour: QueryIndex = { fields: [{ key: 'color', direction: 'asc' }] };
    const newestColour: QueryIndex = { fields: [{ key: 'color', direction: 'desc' }] };
    await reconciler.reconcile([entry([byColour, newestColour, byPrice])]);
    expect(calls[0]!.indexes).toEqual([
      { fields: ['stage', 'fields.color', 'id'], descending: ['fields.color'] },
      { fields: ['stage', 'fields.color', 'fields.price', 'id'], descending: ['fields.price'] },
    ]);
    expect(counts[0]!.fieldSets).toEqual([['stage', 'fields.color']]);
    expect(reconciler.state(entry([byColour, newestColour, byPrice]))).toBe('built');
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
