import type { Logger } from 'pino';
import type { Position } from '../infra/eventstore/port';
import type { ProjectionDaemon } from './daemon';
import type { ReadModelFeed, ReadModelMove } from './read-model-moves';

/** How often a write waiting on this instance probes the store while no move answers it. */
const PROBE_EVERY_MS = 500;
/** How long a probe waits for the notification of a move the store already shows before it forgets the caches instead. */
const MOVE_WAIT_MS = 1000;

/** Retires what a cache holds of the collections and documents another instance wrote. */
export type ForgetWritten = (collections: ReadModelMove['collections'], documents: ReadModelMove['documents']) => void;

/**
 * On an instance that does not project (another holds the lease), keeps the read-your-writes
 * barrier and the read caches in step with the instance that does: each move it publishes retires
 * the cached results and documents it names, then answers the writes waiting for its position.
 * When moves may have been missed (the feed reconnected), everything cached is forgotten and the
 * position is read from the store's checkpoints.
 */
export class ReadModelFollower {
  private stopFollowing: (() => Promise<void>) | null = null;
  /** The probe of the store's position under way, and the one queued behind it (see caughtUp). */
  private probing: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;

  constructor(
    private readonly feed: ReadModelFeed,
    private readonly daemon: ProjectionDaemon,
    private readonly forget: ForgetWritten,
    private readonly logger: Logger,
  ) {}

  /** True while this instance hears the moves of the live read models. */
  get following(): boolean {
    return this.stopFollowing !== null;
  }

  async start(): Promise<void> {
    this.stopFollowing = await this.feed.follow((move) => this.onMove(move));
    await this.daemon.followStore();
  }

  async stop(): Promise<void> {
    const stop = this.stopFollowing;
    this.stopFollowing = null;
    await stop?.();
  }

  /**
   * Waits as the daemon does; while no move answers, the store is probed now and then, so a write
   * is answered even when the holder's notification is lost or never sent (an older version holds
   * the lease during a rolling upgrade).
   */
  async waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    const probes = setInterval(() => void this.caughtUp(), PROBE_EVERY_MS);
    try {
      return await this.daemon.waitFor(position, timeoutMs);
    } finally {
      clearInterval(probes);
    }
  }

  /**
   * Resolves once this instance has heard every move committed before the call: a write another
   * instance acknowledged may not have reached its notification yet. One read of the group
   * checkpoint serves every call that arrived before it started; a move that does not arrive
   * within MOVE_WAIT_MS is taken as missed.
   */
  caughtUp(): Promise<void> {
    if (this.queued) return this.queued;
    const queued = this.probing.then(() => {
      this.queued = null;
      this.probing = this.probe();
      return this.probing;
    });
    this.queued = queued;
    return queued;
  }

  private async probe(): Promise<void> {
    try {
      const stored = await this.daemon.storedPosition();
      if (stored === null) return this.missed();
      if (!(await this.daemon.waitFor(stored, MOVE_WAIT_MS))) {
        this.forget([], 'everything');
        this.daemon.observe(stored);
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'could not read where the read models stand; serving from the store');
      this.forget([], 'everything');
    }
  }

  private async missed(): Promise<void> {
    this.forget([], 'everything');
    await this.daemon.followStore();
  }

  private onMove(move: ReadModelMove | null): void {
    // This instance's own writes: its caches were retired by them already.
    if (this.daemon.running) return;
    if (move === null) {
      this.missed().catch((error: unknown) => this.logger.warn({ err: error }, 'could not read where the read models stand; waiting for the next move'));
      return;
    }
    this.forget(move.collections, move.documents);
    this.daemon.observe(move.position);
  }
}
