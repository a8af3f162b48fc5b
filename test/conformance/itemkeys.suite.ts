import { randomBytes, randomUUID } from 'node:crypto';
import { ItemErasedError, ItemSealer } from '../../infra/crypto/item-sealer';
import type { ItemKeyStore } from '../../infra/keys/item-port';

export function describeItemKeyStoreConformance(label: string, open: () => Promise<{ store: ItemKeyStore; close: () => Promise<void> }>): void {
  describe(`ItemKeyStore conformance: ${label}`, () => {
    let store: ItemKeyStore;
    let close: () => Promise<void>;

    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(() => close());

    it('has no key for an unknown item, and answers several items in one call', async () => {
      const workspaceId = randomUUID();
      expect(await store.get(workspaceId, [randomUUID()])).toEqual(new Map());
      expect(await store.get(workspaceId, [])).toEqual(new Map());
      await store.putIfAbsent(workspaceId, 'a', 'wrapped-a');
      await store.putIfAbsent(workspaceId, 'b', 'wrapped-b');
      await store.putIfAbsent(randomUUID(), 'a', 'elsewhere');
      expect(await store.get(workspaceId, ['a', 'b', 'c'])).toEqual(new Map([['a', 'wrapped-a'], ['b', 'wrapped-b']]));
    });

    it('keeps the first key stored, also when several puts race', async () => {
      const workspaceId = randomUUID();
      const results = await Promise.all(Array.from({ length: 8 }, (_, index) => store.putIfAbsent(workspaceId, 'item', `wrapped-${index}`)));
      expect(new Set(results).size).toBe(1);
      expect(await store.putIfAbsent(workspaceId, 'item', 'later')).toBe(results[0]);
    });

    it('shreds a key for good, idempotently: a tombstone refuses every later put, and the listing leaves it out', async () => {
      const workspaceId = randomUUID();
      await store.putIfAbsent(workspaceId, 'erased', 'wrapped-1');
      await store.putIfAbsent(workspaceId, 'kept', 'wrapped-2');
      await store.shred(workspaceId, 'erased');
      await store.shred(workspaceId, 'erased');
      await store.shred(workspaceId, 'never-had-one');
      expect(await store.get(workspaceId, ['erased', 'kept', 'never-had-one'])).toEqual(new Map([['kept', 'wrapped-2']]));
      expect(await store.putIfAbsent(workspaceId, 'erased', 'wrapped-3')).toBeNull();
      expect(await store.putIfAbsent(workspaceId, 'never-had-one', 'wrapped-4')).toBeNull();
      expect(await store.list(workspaceId)).toEqual([{ itemId: 'kept', wrapped: 'wrapped-2' }]);
    });

    it('holds the keys of a value sealed under several items (an AI answer): it opens while each keeps its key, never once one is erased', async () => {
      const workspaceId = randomUUID();
      const sealer = new ItemSealer(randomBytes(32), store);
      await sealer.seal({ workspaceId, itemId: 'person-a' }, { name: 'Ada' });
      const sealed = await sealer.sealUnderItems(workspaceId, ['person-a', 'person-b'], 'Ada Quill keeps the lamp');
      // A key is made for an item that had none; the value's key is split, one share per item.
      expect(await sealer.keyed(workspaceId, ['person-a', 'person-b', 'other'])).toEqual(new Set(['person-a', 'person-b']));
      expect(sealed.items.map((item) => item.itemId)).toEqual(['person-a', 'person-b']);
      expect(JSON.stringify(sealed)).not.toContain('Ada');
      expect(await sealer.openUnderItems(workspaceId, sealed)).toBe('Ada Quill keeps the lamp');
      expect(await sealer.openUnderItems(randomUUID(), sealed)).toBeUndefined();

      await sealer.shred({ workspaceId, itemId: 'person-b' });
      expect(await sealer.openUnderItems(workspaceId, sealed)).toBeUndefined();
      expect(await sealer.open({ workspaceId, itemId: 'person-a' }, await sealer.seal({ workspaceId, itemId: 'person-a' }, 'still'))).toBe('still');
      await expect(sealer.sealUnderItems(workspaceId, ['person-a', 'person-b'], 'again')).rejects.toEqual(new ItemErasedError('person-b'));
    });
  });
}
