import { CachingReadStore } from '../../infra/readstore/caching';
import { PostgresReadStore } from '../../infra/readstore/postgres';
import { PgliteSqlClient } from '../../infra/sql/pglite-client';
import { describeReadStoreConformance } from './readstore.suite';

// The caching decorator must be indistinguishable from the store it wraps: the same suite,
// with every collection cached, so any stale read after a write, delete or swap fails it.
describeReadStoreConformance('caching over PGlite', async () => {
  const client = await PgliteSqlClient.open();
  return { store: new CachingReadStore(await PostgresReadStore.open(client), () => true), close: () => client.close() };
});

describe('caching read store', () => {
  it('serves repeated gets from memory and sees writes at once', async () => {
    const client = await PgliteSqlClient.open();
    const inner = await PostgresReadStore.open(client);
    let innerGets = 0;
    const counting = new Proxy(inner, {
      get(target, property, receiver) {
        if (property === 'get') innerGets++;
        return Reflect.get(target, property, receiver);
      },
    });
    const store = new CachingReadStore(counting, () => true);
    await store.ensureCollection('things', []);
    await store.apply([{ kind: 'upsert', collection: 'things', document: { id: 'a', v: 1 } }]);
    expect(await store.get('things', 'a')).toEqual({ id: 'a', v: 1 });
    expect(await store.get('things', 'a')).toEqual({ id: 'a', v: 1 });
    expect(innerGets).toBe(1);
    await store.apply([{ kind: 'upsert', collection: 'things', document: { id: 'a', v: 2 } }]);
    expect(await store.get('things', 'a')).toEqual({ id: 'a', v: 2 });
    await store.apply([{ kind: 'delete', collection: 'things', id: 'a' }]);
    expect(await store.get('things', 'a')).toBeNull();
    await client.close();
  });
});
