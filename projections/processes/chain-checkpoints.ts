import type { Logger } from 'pino';
import { type ChainAudit, type Checkpoint, CheckpointRefused } from '../../infra/eventstore/chain-audit';
import { comparePositions, type EventStore, type Position } from '../../infra/eventstore/port';

/**
 * A checkpoint reads every stream's head: at a million streams that is seconds of work. The
 * next one starts no sooner than this many times the last one's duration after it ended, so
 * signing never holds more than a fifth of a connection however large the log grows.
 */
const SPACING_PER_CHECKPOINT_DURATION = 4;

/** Told of each checkpoint signed (for the witnesses) and each refused (for the alarm). */
export interface CheckpointObserver {
  signed(checkpoint: Checkpoint): void;
  refused(error: CheckpointRefused): void;
}

const UNOBSERVED: CheckpointObserver = { signed: () => undefined, refused: () => undefined };

/**
 * Writes a signed checkpoint over every stream's head (chain-audit.ts) every interval
 * (CHAIN_CHECKPOINT_INTERVAL_MS) when the log has grown since the last one, and once more at a
 * clean stop, on the instance that runs the process managers. Events after the latest
 * checkpoint can be cut off the end of the log unseen; this bounds that window, and `cms verify`
 * counts the events in it. Each checkpoint is also logged and handed to the observer (the
 * witnesses), so copies live outside the database. A checkpoint the log does not extend is
 * refused (CheckpointRefused) and tried again at the next interval, the observer told each time.
 * One checkpoint at a time: the next is timed from the end of the last.
 */
export class ChainCheckpoints {
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private lastHead: Position | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly audit: ChainAudit,
    private readonly key: Buffer,
    private readonly events: EventStore,
    private readonly logger: Logger,
    private readonly intervalMs: number,
    private readonly observer: CheckpointObserver = UNOBSERVED,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(this.intervalMs);
  }

  /** Stops the timer and signs what was appended since the last checkpoint, so that a clean stop leaves no unprotected tail. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
    await this.run();
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      const started = Date.now();
      this.running = this.run().then(() => {
        if (!this.stopped) this.schedule(Math.max(this.intervalMs, SPACING_PER_CHECKPOINT_DURATION * (Date.now() - started)));
      });
    }, delayMs);
    this.timer.unref();
  }

  private async run(): Promise<void> {
    try {
      const head = await this.events.headPosition();
      if (this.lastHead && comparePositions(head, this.lastHead) === 0) return;
      const checkpoint = await this.audit.writeCheckpoint('periodic', this.key);
      this.lastHead = head;
      const { streams, events, digest } = checkpoint.body;
      this.logger.info({ checkpoint: checkpoint.id, streams, events, digest, signature: checkpoint.signature }, 'event log checkpoint signed');
      this.observer.signed(checkpoint);
    } catch (error) {
      if (error instanceof CheckpointRefused) this.observer.refused(error);
      else this.logger.error({ err: error }, 'signing an event log checkpoint failed');
    }
  }
}
