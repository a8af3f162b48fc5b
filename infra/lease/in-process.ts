import type { LeaseStore } from './port';

/** Holders by scope and name, shared by every instance in this process. */
const holders = new Map<string, object>();

/**
 * For the embedded store, which one process opens at a time: leases among the instances of
 * this process that share `scope` (the data directory).
 */
export class InProcessLeaseStore implements LeaseStore {
  private readonly identity = {};
  private readonly held = new Set<string>();

  constructor(private readonly scope: string) {}

  async tryAcquire(name: string): Promise<boolean> {
    const key = `${this.scope}\0${name}`;
    const holder = holders.get(key);
    if (holder !== undefined && holder !== this.identity) return false;
    holders.set(key, this.identity);
    this.held.add(name);
    return true;
  }

  async confirm(name: string): Promise<boolean> {
    return this.held.has(name) && holders.get(`${this.scope}\0${name}`) === this.identity;
  }

  async release(name: string): Promise<void> {
    if (await this.confirm(name)) holders.delete(`${this.scope}\0${name}`);
    this.held.delete(name);
  }

  async close(): Promise<void> {
    for (const name of [...this.held]) await this.release(name);
  }
}
