import type { LeaseStore } from '../infra/lease/port';
import { conflict } from '../src/domain/errors';

/** How long a write waits for another instance's write of the same content type before a 409 asks to retry. */
const LEASE_WAIT_MS = 5_000;
const LEASE_POLL_MS = 10;

/**
 * Runs the writes that check unique values of one content type one at a time: the check
 * against the read model, the append and the wait for the read models to reach it happen with
 * no other such write of the type in between. Within this process the writes queue by name; among
 * instances sharing the store a lease of the same name (a PostgreSQL advisory lock, a MongoDB
 * lease document, in process for the embedded store) keeps them apart. Once it holds the lease, a
 * write first lets this instance's read models (and their caches) reach the head of the log, so
 * its check sees the write before it, also one another instance made or one whose wait ran out.
 */
export class UniqueWriteLock {
  /** Per name, the end of the queue of writes in this process. */
  private readonly queues = new Map<string, Promise<void>>();

  constructor(
    private readonly leases: LeaseStore,
    /** Resolves true once this instance's read models reached the head of the log, false when they did not in time. */
    private readonly catchUp: () => Promise<boolean>,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  async hold<T>(name: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(name) ?? Promise.resolve();
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const mine = before.then(() => finished);
    this.queues.set(name, mine);
    try {
      await before;
      await this.acquire(name);
      try {
        if (!(await this.catchUp())) throw conflict('the read models are behind the log, so unique values cannot be checked now; retry shortly');
        return await work();
      } finally {
        await this.leases.release(name);
      }
    } finally {
      done();
      if (this.queues.get(name) === mine) this.queues.delete(name);
    }
  }

  private async acquire(name: string): Promise<void> {
    const deadline = Date.now() + LEASE_WAIT_MS;
    while (!(await this.leases.tryAcquire(name))) {
      if (Date.now() > deadline) throw conflict('another instance is saving an item of this content type with unique fields; retry');
      await this.sleep(LEASE_POLL_MS);
    }
  }
}
