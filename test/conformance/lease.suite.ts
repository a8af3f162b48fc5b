import { randomUUID } from 'node:crypto';
import type { LeaseStore } from '../../infra/lease/port';

/** `open` gives a new instance's LeaseStore on one shared backend, each call a different instance. */
export function describeLeaseStoreConformance(label: string, setUp: () => Promise<{ open: () => Promise<LeaseStore>; tearDown: () => Promise<void> }>): void {
  describe(`LeaseStore conformance: ${label}`, () => {
    let open: () => Promise<LeaseStore>;
    let tearDown: () => Promise<void>;
    const opened: LeaseStore[] = [];
    const instance = async () => {
      const store = await open();
      opened.push(store);
      return store;
    };

    beforeAll(async () => {
      ({ open, tearDown } = await setUp());
    });
    afterAll(async () => {
      for (const store of opened) await store.close();
      await tearDown();
    });

    it('gives a lease to one instance at a time; the holder keeps and confirms it', async () => {
      const name = randomUUID();
      const [first, second] = [await instance(), await instance()];
      expect(await first.tryAcquire(name)).toBe(true);
      expect(await second.tryAcquire(name)).toBe(false);
      expect(await first.tryAcquire(name)).toBe(true);
      expect(await first.confirm(name)).toBe(true);
      expect(await second.confirm(name)).toBe(false);
    });

    it('hands the lease over when the holder releases it or closes', async () => {
      const name = randomUUID();
      const [first, second, third] = [await instance(), await instance(), await instance()];
      expect(await first.tryAcquire(name)).toBe(true);
      await first.release(name);
      expect(await first.confirm(name)).toBe(false);
      expect(await second.tryAcquire(name)).toBe(true);
      await second.close();
      expect(await third.tryAcquire(name)).toBe(true);
    });

    it('keeps leases of different names apart', async () => {
      const [first, second] = [await instance(), await instance()];
      expect(await first.tryAcquire(randomUUID())).toBe(true);
      expect(await second.tryAcquire(randomUUID())).toBe(true);
    });

    it('of several instances racing for a lease, exactly one wins', async () => {
      const name = randomUUID();
      const racers = await Promise.all(Array.from({ length: 6 }, () => instance()));
      const won = await Promise.all(racers.map((racer) => racer.tryAcquire(name)));
      expect(won.filter(Boolean)).toHaveLength(1);
    });
  });
}
