import { randomUUID } from 'node:crypto';
import type { DataKeyStore } from '../../infra/keys/port';

export function describeDataKeyStoreConformance(label: string, open: () => Promise<{ store: DataKeyStore; close: () => Promise<void> }>): void {
  describe(`DataKeyStore conformance: ${label}`, () => {
    let store: DataKeyStore;
    let close: () => Promise<void>;

    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(() => close());

    it('has no key for an unknown workspace', async () => {
      expect(await store.get(randomUUID())).toBeNull();
    });

    it('keeps the first key stored; a second put returns the first', async () => {
      const workspaceId = randomUUID();
      expect(await store.putIfAbsent(workspaceId, 'wrapped-1')).toBe('wrapped-1');
      expect(await store.putIfAbsent(workspaceId, 'wrapped-2')).toBe('wrapped-1');
      expect(await store.get(workspaceId)).toBe('wrapped-1');
    });

    it('agrees on one key when several puts race', async () => {
      const workspaceId = randomUUID();
      const results = await Promise.all(Array.from({ length: 8 }, (_, index) => store.putIfAbsent(workspaceId, `wrapped-${index}`)));
      expect(new Set(results).size).toBe(1);
      expect(await store.get(workspaceId)).toBe(results[0]);
    });

    it('deletes a key (shredding), idempotently', async () => {
      const workspaceId = randomUUID();
      await store.putIfAbsent(workspaceId, 'wrapped');
      await store.delete(workspaceId);
      await store.delete(workspaceId);
      expect(await store.get(workspaceId)).toBeNull();
    });

    it('remembers a shredded key: no put stores a new one, only an explicit replacement does', async () => {
      const workspaceId = randomUUID();
      expect(await store.isGone(workspaceId)).toBe(false);
      await store.putIfAbsent(workspaceId, 'wrapped-1');
      expect(await store.isGone(workspaceId)).toBe(false);
      await store.delete(workspaceId);
      expect(await store.isGone(workspaceId)).toBe(true);
      expect(await store.putIfAbsent(workspaceId, 'wrapped-2')).toBeNull();
      expect(await store.get(workspaceId)).toBeNull();
      expect(await store.replaceGone(workspaceId, 'wrapped-3')).toBe(true);
      expect(await store.replaceGone(workspaceId, 'wrapped-4')).toBe(false);
      expect(await store.get(workspaceId)).toBe('wrapped-3');
      expect(await store.isGone(workspaceId)).toBe(false);
    });
  });
}
