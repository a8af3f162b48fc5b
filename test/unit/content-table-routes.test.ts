import type { ReadStore } from '../../infra/readstore/port';
import { CONTENT_ITEMS } from '../../projections/read-models/content-items';
import type { ContentTypeDocument } from '../../projections/read-models/content-types';
import { type ContentTableDocument, contentTableId, tableColumns, tableGeneration } from '../../projections/content-tables/schema';
import { ContentTableRoutes } from '../../queries/content-table-source';

const WORKSPACE = 'w1';
const FIELDS = [{ key: 'title', type: 'Text' as const }];
const type = { key: 'Product', fields: FIELDS.map((field, sortIndex) => ({ ...field, sortIndex })) } as unknown as ContentTypeDocument;

function entry(serving: boolean): ContentTableDocument {
  const generation = tableGeneration(WORKSPACE, 'Product', FIELDS);
  return { id: contentTableId(WORKSPACE, 'Product'), workspaceId: WORKSPACE, contentType: 'Product', wanted: generation, serving: serving ? generation : null };
}

/** A registry of one entry whose reads are counted and may be held open or failed. */
function registry() {
  const state = { document: entry(true) as ContentTableDocument | null, reads: 0, fail: false, hold: null as Promise<void> | null };
  const store = {
    get: async () => {
      state.reads++;
      if (state.hold) await state.hold;
      if (state.fail) throw new Error('store down');
      return state.document;
    },
  } as unknown as ReadStore;
  return { state, store };
}

describe('content table routes', () => {
  it('reads the registry on every query when given no age', async () => {
    const { state, store } = registry();
    const routes = new ContentTableRoutes(store);
    await routes.source(WORKSPACE, type);
    await routes.source(WORKSPACE, type);
    expect(state.reads).toBe(2);
  });

  it('reuses an entry within its age, and reads it again after', async () => {
    const { state, store } = registry();
    let now = 0;
    const routes = new ContentTableRoutes(store, { maxAgeMs: 1000, now: () => now });
    const first = await routes.source(WORKSPACE, type);
    expect(first).toEqual({ collection: entry(true).serving!.collection, typed: true, columns: tableColumns(entry(true).serving!) });
    state.document = entry(false);
    now = 999;
    expect(await routes.source(WORKSPACE, type)).toEqual(first);
    expect(state.reads).toBe(1);
    now = 1000;
    expect(await routes.source(WORKSPACE, type)).toEqual({ collection: CONTENT_ITEMS, typed: false, columns: [] });
    expect(state.reads).toBe(2);
  });

  it('reads the registry again after forget (a write of this process to it)', async () => {
    const { state, store } = registry();
    const routes = new ContentTableRoutes(store, { maxAgeMs: 60_000, now: () => 0 });
    await routes.source(WORKSPACE, type);
    state.document = entry(false);
    routes.forget();
    expect(await routes.source(WORKSPACE, type)).toEqual({ collection: CONTENT_ITEMS, typed: false, columns: [] });
    expect(state.reads).toBe(2);
  });

  it('shares one read among concurrent queries and keeps no failed read', async () => {
    const { state, store } = registry();
    const routes = new ContentTableRoutes(store, { maxAgeMs: 60_000, now: () => 0 });
    let release = () => undefined as void;
    state.hold = new Promise((resolve) => (release = resolve));
    state.fail = true;
    const queries = Array.from({ length: 5 }, () => routes.source(WORKSPACE, type));
    release();
    for (const query of queries) await expect(query).rejects.toThrow('store down');
    expect(state.reads).toBe(1);
    state.hold = null;
    state.fail = false;
    expect((await routes.source(WORKSPACE, type)).typed).toBe(true);
    expect(state.reads).toBe(2);
  });

  it('routes as-of queries to the versions table of the serving generation, else to none', async () => {
    const { state, store } = registry();
    const routes = new ContentTableRoutes(store);
    expect(await routes.versions(WORKSPACE, type)).toEqual({ collection: entry(true).serving!.versions, typed: true, columns: [] });
    // A generation of layout 2 has no versions table: no table answers the type's versions (as-of queries answer 503).
    state.document = { ...entry(true), serving: { collection: entry(true).serving!.collection, fields: entry(true).serving!.fields } };
    expect(await routes.versions(WORKSPACE, type)).toBeNull();
    expect((await routes.source(WORKSPACE, type)).typed).toBe(true);
    // A retyped field: neither typed table answers alike.
    state.document = entry(true);
    const retyped = { ...type, fields: [{ key: 'title', type: 'Number', sortIndex: 0 }] } as unknown as ContentTypeDocument;
    expect(await routes.versions(WORKSPACE, retyped)).toBeNull();
  });

  it('routes to the untyped read models while the typed tables are not mirrored (content_tables awaiting its backfill)', async () => {
    const { store } = registry();
    let ready = false;
    const routes = new ContentTableRoutes(store, { ready: () => ready });
    expect(await routes.source(WORKSPACE, type)).toEqual({ collection: CONTENT_ITEMS, typed: false, columns: [] });
    expect(await routes.versions(WORKSPACE, type)).toBeNull();
    ready = true;
    expect((await routes.source(WORKSPACE, type)).typed).toBe(true);
    expect((await routes.versions(WORKSPACE, type))?.typed).toBe(true);
  });
});
