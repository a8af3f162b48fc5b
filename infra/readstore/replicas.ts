import type { Logger } from 'pino';
import type { SqlClient } from '../sql/client';

/** How often each replica's replay position is compared with the primary's. */
export const REPLICA_PROBE_MS = 1000;
/** How often a replica's replay position is read while a read or a write waits for it. */
const WAIT_POLL_MS = 5;
/** Primary positions remembered per replica while it has not replayed them: its lag is the age of the oldest. */
const MAX_SAMPLES = 64;

/** A read-only PostgreSQL standby (streaming replication) that serves read-model queries. */
export interface Replica {
  /** host:port, for logs, /health/ready and /metrics: never the credentials. */
  readonly name: string;
  readonly sql: SqlClient;
}

export interface ReplicaStatus {
  readonly name: string;
  readonly inRotation: boolean;
  /** How long ago the primary was at a position this replica has not replayed yet: 0 when caught up; null when unreachable. */
  readonly lagSeconds: number | null;
  /** WAL bytes between the primary's position and this replica's replay at the last probe; null when unreachable. */
  readonly lagBytes: number | null;
}

/** A PostgreSQL LSN (`16/B374D848`) as a number. */
export function parseLsn(text: string): bigint {
  const [high = '0', low = '0'] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

interface Waiter {
  readonly lsn: bigint;
  readonly done: (replayed: boolean) => void;
}

class Tracked {
  reachable = false;
  replayed = 0n;
  lagBytes: number | null = null;
  /** Primary positions (and when they were read) not replayed yet, oldest first. */
  samples: { readonly at: number; readonly lsn: bigint }[] = [];
  /** A position a wait for it gave up on: the replica serves again only once it has replayed it. */
  owed = 0n;
  readonly waiters = new Set<Waiter>();
  polling = false;

  constructor(readonly replica: Replica) {}

  lagSeconds(now: number): number | null {
    if (!this.reachable) return null;
    const oldest = this.samples[0];
    return oldest ? (now - oldest.at) / 1000 : 0;
  }
}

/**
 * The replicas that read-model queries may be sent to, and when each may be. A fence is the
 * primary's WAL position after the latest read-model write this process knows of (its own, or
 * another instance's it heard of): a query runs on a replica only once the replica has replayed
 * the fence, so nothing it answers is older than what this process would read on the primary.
 * A write's answer waits (`caughtUp`) until every replica in rotation has replayed the position
 * its projection reached, so a client sent to any instance reads it there. A replica is out of
 * rotation while it is unreachable, lags more than `maxLagMs`, or owes a position a wait gave
 * up on; queries then go to the primary.
 */
export class ReplicaSet {
  private readonly tracked: Tracked[];
  private fenceLsn: Promise<bigint | null> = Promise.resolve(0n);
  private next = 0;
  private probes: NodeJS.Timeout | null = null;
  private probing: Promise<void> = Promise.resolve();

  constructor(
    private readonly primary: SqlClient,
    replicas: readonly Replica[],
    private readonly maxLagMs: number,
    private readonly logger: Logger,
  ) {
    this.tracked = replicas.map((replica) => new Tracked(replica));
  }

  /** A wait for a replica gives up after this: by then an instance probing it has seen it lag past the bound. */
  private get waitMs(): number {
    return this.maxLagMs + REPLICA_PROBE_MS;
  }

  async start(): Promise<void> {
    await this.probe();
    this.probes = setInterval(() => {
      this.probing = this.probing.then(() => this.probe());
    }, REPLICA_PROBE_MS);
    this.probes.unref();
  }

  /** Stops probing and closes the replicas' connections. */
  async stop(): Promise<void> {
    if (this.probes) clearInterval(this.probes);
    this.probes = null;
    await this.probing;
    for (const tracked of this.tracked) this.release(tracked, false);
    await Promise.all(this.tracked.map((tracked) => tracked.replica.sql.close()));
  }

  /** A read-model write committed: queries from now on wait for the replicas to replay the primary's position. */
  fence(): void {
    this.fenceLsn = this.primaryLsn().catch(() => null);
  }

  /** A replica in rotation that has replayed the fence (waiting for one when needed), or null for the primary. */
  async pick(): Promise<Replica | null> {
    const fence = await this.fenceLsn;
    if (fence === null) return null;
    const candidates = this.inRotation();
    if (candidates.length === 0) return null;
    this.next = (this.next + 1) % candidates.length;
    const ordered = [...candidates.slice(this.next), ...candidates.slice(0, this.next)];
    const ready = ordered.find((tracked) => tracked.replayed >= fence);
    if (ready) return ready.replica;
    const first = ordered[0]!;
    return (await this.replayed(first, fence)) ? first.replica : null;
  }

  /** Resolves once every replica in rotation has replayed the primary's position now (one that does not in time leaves the rotation). */
  async caughtUp(): Promise<void> {
    this.fence();
    const fence = await this.fenceLsn;
    if (fence === null) return;
    await Promise.all(this.inRotation().map((tracked) => this.replayed(tracked, fence)));
  }

  /** A query on the replica failed for want of a connection: out of rotation until a probe reaches it. */
  lost(replica: Replica): void {
    const tracked = this.tracked.find((candidate) => candidate.replica === replica);
    if (!tracked) return;
    if (tracked.reachable) this.logger.warn({ replica: replica.name }, 'read replica unreachable; its reads go to the primary');
    tracked.reachable = false;
    tracked.samples = [];
    this.release(tracked, false);
  }

  status(): ReplicaStatus[] {
    const now = Date.now();
    return this.tracked.map((tracked) => ({
      name: tracked.replica.name,
      inRotation: this.serves(tracked, now),
      lagSeconds: tracked.lagSeconds(now),
      lagBytes: tracked.reachable ? tracked.lagBytes : null,
    }));
  }

  private inRotation(): Tracked[] {
    const now = Date.now();
    return this.tracked.filter((tracked) => this.serves(tracked, now));
  }

  private serves(tracked: Tracked, now: number): boolean {
    const lag = tracked.lagSeconds(now);
    return lag !== null && lag * 1000 <= this.maxLagMs && tracked.replayed >= tracked.owed;
  }

  private async primaryLsn(): Promise<bigint> {
    const [row] = await this.primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn', [], { prepare: true });
    return parseLsn(row!.lsn);
  }

  private async probe(): Promise<void> {
    let primary: bigint;
    try {
      primary = await this.primaryLsn();
    } catch {
      return;
    }
    // A fence the primary could not answer is replaced by a later position, which is as safe.
    if ((await this.fenceLsn) === null) this.fenceLsn = Promise.resolve(primary);
    const at = Date.now();
    await Promise.all(
      this.tracked.map(async (tracked) => {
        const wasServing = this.serves(tracked, at);
        try {
          const replayed = await this.replayPosition(tracked);
          tracked.reachable = true;
          tracked.lagBytes = primary > replayed ? Number(primary - replayed) : 0;
          if (primary > replayed) {
            if (tracked.samples.length >= MAX_SAMPLES) tracked.samples.splice(1, 1);
            tracked.samples.push({ at, lsn: primary });
          }
        } catch (error) {
          if (tracked.reachable) this.logger.warn({ replica: tracked.replica.name, err: error }, 'read replica unreachable; its reads go to the primary');
          tracked.reachable = false;
          tracked.samples = [];
          this.release(tracked, false);
        }
        const serving = this.serves(tracked, Date.now());
        if (serving !== wasServing) this.logger.info({ replica: tracked.replica.name, ...this.status().find((status) => status.name === tracked.replica.name) }, serving ? 'read replica in rotation' : 'read replica out of rotation');
      }),
    );
  }

  /** Reads the replica's replay position, forgetting the primary positions it has replayed and answering the waits it satisfies. */
  private async replayPosition(tracked: Tracked): Promise<bigint> {
    const [row] = await tracked.replica.sql.read<{ lsn: string | null }>('select pg_last_wal_replay_lsn()::text as lsn', [], { prepare: true });
    if (!row?.lsn) throw new Error(`${tracked.replica.name} is not a standby (pg_last_wal_replay_lsn() is null)`);
    const replayed = parseLsn(row.lsn);
    if (replayed > tracked.replayed) tracked.replayed = replayed;
    while (tracked.samples[0] && tracked.samples[0].lsn <= tracked.replayed) tracked.samples.shift();
    for (const waiter of tracked.waiters) if (waiter.lsn <= tracked.replayed) waiter.done(true);
    return tracked.replayed;
  }

  /** True once the replica has replayed `lsn`; false when it did not within waitMs (it then owes it) or was lost. */
  private replayed(tracked: Tracked, lsn: bigint): Promise<boolean> {
    if (tracked.replayed >= lsn) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (lsn > tracked.owed) tracked.owed = lsn;
        this.logger.warn({ replica: tracked.replica.name }, 'read replica did not replay a write in time; out of rotation until it has');
        waiter.done(false);
      }, this.waitMs);
      const waiter: Waiter = {
        lsn,
        done: (replayed) => {
          clearTimeout(timer);
          tracked.waiters.delete(waiter);
          resolve(replayed);
        },
      };
      tracked.waiters.add(waiter);
      void this.poll(tracked);
    });
  }

  /** One loop per replica reads its replay position while anyone waits on it. */
  private async poll(tracked: Tracked): Promise<void> {
    if (tracked.polling) return;
    tracked.polling = true;
    try {
      while (tracked.waiters.size > 0) {
        try {
          await this.replayPosition(tracked);
        } catch {
          this.lost(tracked.replica);
          return;
        }
        if (tracked.waiters.size > 0) await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
      }
    } finally {
      tracked.polling = false;
    }
  }

  private release(tracked: Tracked, replayed: boolean): void {
    for (const waiter of [...tracked.waiters]) waiter.done(replayed);
  }
}
