import { z } from 'zod';
import type { ReplicaStatus } from './replicas';

/** Primary observations remembered while a secondary has not reached them: its lag is the age of the oldest. */
const MAX_SAMPLES = 64;

/**
 * The parts of a member's `hello` reply (the driver's heartbeat) that tell its role and how far it
 * has written. `majorityWriteDate` is the wall time of the last write in the member's majority
 * snapshot, the one majority reads see: what a read sent there waits for.
 */
const helloReply = z.object({
  isWritablePrimary: z.boolean().optional(),
  ismaster: z.boolean().optional(),
  secondary: z.boolean().optional(),
  lastWrite: z.object({ lastWriteDate: z.date().optional(), majorityWriteDate: z.date().optional() }).optional(),
});

interface Secondary {
  reachable: boolean;
  /** Wall time (ms) of the last write its majority snapshot holds. */
  writtenAt: number;
}

/**
 * The lag of each secondary of a replica set, from the heartbeats the driver already sends (every
 * `heartbeatFrequencyMS`). As on PostgreSQL (ReplicaSet), a secondary's lag is how long ago the
 * primary was seen at a write the secondary has not reached yet: 0 when it has, however old the
 * last write. The driver, not this process, picks the secondary a read goes to, so the secondaries
 * are in rotation together: while any reachable one lags past `maxLagMs`, reads go to the primary.
 * A secondary the driver cannot reach it does not pick either: it is left out of that rule.
 */
export class SecondaryLag {
  private readonly secondaries = new Map<string, Secondary>();
  /** When the primary was first seen at each of its writes not every secondary has reached, oldest first. */
  private samples: { readonly at: number; readonly writtenAt: number }[] = [];
  private primarySeen = false;

  constructor(private readonly maxLagMs: number) {}

  /** A member answered a heartbeat at `at` (ms) with `reply`. */
  heard(address: string, reply: unknown, at: number): void {
    const parsed = helloReply.safeParse(reply);
    const hello = parsed.success ? parsed.data : {};
    const written = hello.lastWrite?.majorityWriteDate ?? hello.lastWrite?.lastWriteDate;
    if (hello.isWritablePrimary === true || hello.ismaster === true) {
      this.secondaries.delete(address);
      this.primarySeen = true;
      const last = this.samples[this.samples.length - 1];
      if (written && (!last || written.getTime() > last.writtenAt)) {
        if (this.samples.length >= MAX_SAMPLES) this.samples.splice(1, 1);
        this.samples.push({ at, writtenAt: written.getTime() });
      }
    } else if (hello.secondary === true && written) {
      this.secondaries.set(address, { reachable: true, writtenAt: written.getTime() });
    } else if (this.secondaries.has(address)) {
      // Recovering, rolling back, or a secondary that tells no write date: the driver does not pick it for reads.
      this.lost(address);
    }
    this.forgetReached();
  }

  /** A member's heartbeat failed: it keeps its place, so that its lag shows in full when it answers again. */
  lost(address: string): void {
    const secondary = this.secondaries.get(address);
    if (secondary) secondary.reachable = false;
  }

  /** The driver stopped monitoring a member (it left the set's configuration). */
  removed(address: string): void {
    this.secondaries.delete(address);
    this.forgetReached();
  }

  /** Whether queries may go to the secondaries at `now`: a primary was seen and no reachable secondary lags past the bound. */
  inRotation(now: number): boolean {
    if (!this.primarySeen) return false;
    return [...this.secondaries.values()].every((secondary) => !secondary.reachable || this.lagMs(secondary, now) <= this.maxLagMs);
  }

  status(now: number): ReplicaStatus[] {
    const serving = this.inRotation(now);
    return [...this.secondaries].map(([name, secondary]) => ({
      name,
      inRotation: serving && secondary.reachable,
      lagSeconds: secondary.reachable ? this.lagMs(secondary, now) / 1000 : null,
      lagBytes: null,
    }));
  }

  private lagMs(secondary: Secondary, now: number): number {
    const ahead = this.samples.find((sample) => sample.writtenAt > secondary.writtenAt);
    return ahead ? Math.max(0, now - ahead.at) : 0;
  }

  /**
   * Drops the samples every known secondary has reached (an unreachable one too: when it answers
   * again, its lag counts from where it stopped). With none known yet (the primary answered first)
   * they are kept for the secondaries to come.
   */
  private forgetReached(): void {
    if (this.secondaries.size === 0) return;
    const slowest = Math.min(...[...this.secondaries.values()].map((secondary) => secondary.writtenAt));
    while (this.samples[0] && this.samples[0].writtenAt <= slowest) this.samples.shift();
  }
}
