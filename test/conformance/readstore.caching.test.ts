import { CachingReadStore } from '../../infra/readstore/caching';
import { PostgresReadStore } from '../../infra/readstore/postgres';
import { countingCalls } from '../support/counting';
import { describeReadStoreConformance } from './readstore.suite';
import { openMemoryPglite } from '../support/pglite-template';

// The caching decorator must be indistinguishable from the store it wraps: the same suite,
// with every collection cached, so any stale read after a write, delete or swap fails it.
describeReadStoreConformance('caching over PGlite', async () => {
  const client = await openMemoryPglite();
  return { store: new CachingReadStore(await PostgresReadStore.open(client), { cacheGets: () => true, cacheQueries: () => true }), close: () => client.close() };
});

describe('caching read store', () => {
  it('serves repeated gets from memory and sees writes at once', async () => {
    const client = await openMemoryPglite();
    const inner = await PostgresReadStore.open(client);
    const { proxy: counting, calls } = countingCalls(inner, ['get']);
    const store = new CachingReadStore(counting, { cacheGets: () => true, cacheQueries: () => true });
    await store.ensureCollection('things', []);
    await store.apply([{ kind: 'upsert', collection: 'things', document: { id: 'a', v: 1 } }]);
    expect(await store.get('things', 'a')).toEqual({ id: 'a', v: 1 });
    expect(await store.get('things', 'a')).toEqual({ id: 'a', v: 1 });
    expect(calls.get).toBe(1);
    await store.apply([{ kind: 'upsert', collection: 'things', document: { id: 'a', v: 2 } }]);
    expect(await store.get('things', 'a')).toEqual({ id: 'a', v: 2 });
    await store.apply([{ kind: 'delete', collection: 'things', id: 'a' }]);
    expect(await store.get('things', 'a')).toBeNull();
    await client.close();
  });

  it('serves repeated queries from memory and retires them on any write to the collection', async () => {
    const client = await openMemoryPglite();
    const inner = await PostgresReadStore.open(client);
    const { proxy: counting, calls } = countingCalls(inner, ['find', 'aggregate']);
    const store = new CachingReadStore(counting, { cacheGets: () => false, cacheQueries: (collection) => collection === 'cached' });
    for (const collection of ['cached', 'other']) await store.ensureCollection(collection, []);
    await store.apply([1, 2, 3].map((n) => ({ kind: 'upsert' as const, collection: 'cached', document: { id: `d${n}`, n } })));
    const query = { filter: { type: 'condition' as const, field: 'n', operator: 'gte' as const, value: 2 } };

    expect((await store.find('cached', query)).total).toBe(2);
    expect((await store.find('cached', query)).total).toBe(2);
    expect(await store.aggregate('cached', { field: 'n', operation: 'sum' })).toBe(6);
    expect(await store.aggregate('cached', { field: 'n', operation: 'sum' })).toBe(6);
    expect(calls).toEqual({ find: 1, aggregate: 1 });

    await store.apply([{ kind: 'upsert', collection: 'other', document: { id: 'x' } }]);
    await store.find('cached', query);
    expect(calls.find).toBe(1);

    await store.apply([{ kind: 'upsert', collection: 'cached', document: { id: 'd4', n: 4 } }]);
    expect((await store.find('cached', query)).total).toBe(3);
    expect(await store.aggregate('cached', { field: 'n', operation: 'sum' })).toBe(10);
    await store.apply([{ kind: 'delete', collection: 'cached', id: 'd2' }]);
    expect((await store.find('cached', query)).items.map((document) => document.id)).toEqual(['d3', 'd4']);
    expect(calls).toEqual({ find: 3, aggregate: 2 });
    await client.close();
  });

  it('keeps the cached results of one workspace through the writes of another, and retires them on its own writes and on deletes', async () => {
    const client = await openMemoryPglite();
    const inner = await PostgresReadStore.open(client);
    const { proxy: counting, calls } = countingCalls(inner, ['find']);
    const store = new CachingReadStore(counting, { cacheGets: () => false, cacheQueries: () => true, partitionField: () => 'workspaceId' });
    await store.ensureCollection('types', []);
    const ofWorkspace = (workspaceId: string) => ({ filter: { type: 'and' as const, conditions: [{ type: 'condition' as const, field: 'workspaceId', operator: 'e' as const, value: workspaceId }] } });
    const everyone = { filter: { type: 'condition' as const, field: 'n', operator: 'gte' as const, value: 0 } };
    await store.apply([
      { kind: 'upsert', collection: 'types', document: { id: 'a1', workspaceId: 'A', n: 1 } },
      { kind: 'upsert', collection: 'types', document: { id: 'b1', workspaceId: 'B', n: 2 } },
    ]);
    const ids = async (query: typeof everyone | ReturnType<typeof ofWorkspace>) => (await store.find('types', query)).items.map((document) => document.id);

    expect(await ids(ofWorkspace('A'))).toEqual(['a1']);
    expect(await ids(everyone)).toEqual(['a1', 'b1']);
    expect(calls.find).toBe(2);

    // B's write: A's cached result stays, the query of every workspace is retired.
    await store.apply([{ kind: 'upsert', collection: 'types', document: { id: 'b2', workspaceId: 'B', n: 3 } }]);
    expect(await ids(ofWorkspace('A'))).toEqual(['a1']);
    expect(calls.find).toBe(2);
    expect(await ids(everyone)).toEqual(['a1', 'b1', 'b2']);
    expect(await ids(ofWorkspace('B'))).toEqual(['b1', 'b2']);
    expect(calls.find).toBe(4);

    // A's own write retires A's result.
    await store.apply([{ kind: 'upsert', collection: 'types', document: { id: 'a2', workspaceId: 'A', n: 4 } }]);
    expect(await ids(ofWorkspace('A'))).toEqual(['a1', 'a2']);
    expect(calls.find).toBe(5);

    // A delete names no workspace: every partition is retired.
    await store.apply([{ kind: 'delete', collection: 'types', id: 'a1' }]);
    expect(await ids(ofWorkspace('A'))).toEqual(['a2']);
    expect(await ids(ofWorkspace('B'))).toEqual(['b1', 'b2']);
    expect(calls.find).toBe(7);

    // Told another process wrote the collection: every partition too.
    store.forget(['types'], []);
    await ids(ofWorkspace('B'));
    expect(calls.find).toBe(8);
    await client.close();
  });

  it('retires what another process wrote when told (forget), and waits before serving from memory when asked to', async () => {
    const client = await openMemoryPglite();
    const inner = await PostgresReadStore.open(client);
    const writer = new CachingReadStore(inner, { cacheGets: () => true, cacheQueries: () => true });
    const follower = new CachingReadStore(inner, { cacheGets: () => true, cacheQueries: () => true });
    await writer.ensureCollection('things', []);
    await writer.apply([{ kind: 'upsert', collection: 'things', document: { id: 'a', v: 1 } }]);
    const everyThing = { filter: { type: 'condition' as const, field: 'v', operator: 'gte' as const, value: 0 } };
    expect(await follower.get('things', 'a')).toEqual({ id: 'a', v: 1 });
    expect((await follower.find('things', everyThing)).total).toBe(1);

    await writer.apply([{ kind: 'upsert', collection: 'things', document: { id: 'a', v: 2 } }, { kind: 'upsert', collection: 'things', document: { id: 'b', v: 1 } }]);
    // Another process's write does not pass through this wrapper: until told, it serves what it holds.
    expect(await follower.get('things', 'a')).toEqual({ id: 'a', v: 1 });
    follower.forget(['things'], [{ collection: 'things', id: 'a' }]);
    expect(await follower.get('things', 'a')).toEqual({ id: 'a', v: 2 });
    expect((await follower.find('things', everyThing)).total).toBe(2);

    await writer.apply([{ kind: 'delete', collection: 'things', id: 'a' }]);
    let checks = 0;
    follower.awaitBeforeServing(async () => {
      checks += 1;
      follower.forget([], 'everything');
    });
    expect(await follower.get('things', 'a')).toBeNull();
    expect((await follower.find('things', everyThing)).total).toBe(1);
    expect(checks).toBe(2);
    await client.close();
  });

  it('shares one load among concurrent identical misses', async () => {
    const client = await openMemoryPglite();
    const inner = await PostgresReadStore.open(client);
    const { proxy: counting, calls } = countingCalls(inner, ['find']);
    const store = new CachingReadStore(counting, { cacheGets: () => true, cacheQueries: () => true });
    await store.ensureCollection('things', []);
    await store.apply([{ kind: 'upsert', collection: 'things', document: { id: 'a' } }]);
    const results = await Promise.all(Array.from({ length: 10 }, () => store.find('things', {})));
    expect(calls.find).toBe(1);
    expect(results.every((result) => result.total === 1)).toBe(true);
    await client.close();
  });

  it('keeps nothing read from a collection a swap replaced while the read was under way, nor lets a later read join it', async () => {
    const client = await openMemoryPglite();
    const inner = await PostgresReadStore.open(client);
    let release: () => void = () => undefined;
    let held: Promise<void> | null = null;
    const slow = Object.create(inner) as PostgresReadStore;
    slow.get = async (collection, id) => {
      const value = await inner.get(collection, id);
      if (held) await held;
      return value as never;
    };
    const store = new CachingReadStore(slow, { cacheGets: () => true, cacheQueries: () => true });
    // Neither collection is written through this store before: a swap is the first it hears of them.
    await inner.ensureCollection('served', []);
    await inner.ensureCollection('rebuilt', []);
    await inner.apply([{ kind: 'upsert', collection: 'served', document: { id: 'a', v: 'old' } }]);
    await inner.apply([{ kind: 'upsert', collection: 'rebuilt', document: { id: 'a', v: 'new' } }]);

    held = new Promise<void>((resolve) => (release = resolve));
    const before = store.get('served', 'a');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await store.swapCollections([{ from: 'rebuilt', to: 'served' }], { from: 'rebuilt', to: 'served' });
    const joining = store.get('served', 'a');
    release();
    held = null;
    expect(await before).toEqual({ id: 'a', v: 'old' });
    expect(await joining).toEqual({ id: 'a', v: 'new' });
    expect(await store.get('served', 'a')).toEqual({ id: 'a', v: 'new' });
    await client.close();
  });

  it('tells the listeners of a collection of each write to it, and of every swap and drop', async () => {
    const client = await openMemoryPglite();
    const store = new CachingReadStore(await PostgresReadStore.open(client), { cacheGets: () => true, cacheQueries: () => true });
    for (const collection of ['watched', 'other', 'spare']) await store.ensureCollection(collection, []);
    let told = 0;
    store.onWrite('watched', () => told++);
    await store.apply([{ kind: 'upsert', collection: 'other', document: { id: 'a' } }]);
    expect(told).toBe(0);
    await store.apply([{ kind: 'upsert', collection: 'watched', document: { id: 'a' } }]);
    const afterWrite = told;
    // Before the write (so no load under way is kept) and once it is done (so none started meanwhile is).
    expect(afterWrite).toBe(2);
    await store.dropCollection('spare');
    expect(told).toBeGreaterThan(afterWrite);
    const afterDrop = told;
    await store.swapCollections([{ from: 'other', to: 'spare' }], { from: 'x', to: 'y' });
    expect(told).toBeGreaterThan(afterDrop);
    await client.close();
  });
});
