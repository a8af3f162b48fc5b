import type { Logger } from 'pino';
import type { ChainAudit } from '../../infra/eventstore/chain-audit';
import { comparePositions, type EventStore, type Position } from '../../infra/eventstore/port';

/**
 * Writes a signed checkpoint over every stream's head (chain-audit.ts) every interval
 * (CHAIN_CHECKPOINT_INTERVAL_MS) when the log has grown since the last one, and once more at a
 * clean stop, on the instance that runs the process managers. Events after the latest
 * checkpoint can be cut off the end of the log unseen; this bounds that window, and `cms verify`
 * counts the events in it. Each checkpoint is also logged, so a copy lives outside the database.
 */
export class ChainCheckpoints {
  private timer: NodeJS.Timeout | null = null;
  private lastHead: Position | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly audit: ChainAudit,
    private readonly key: Buffer,
    private readonly events: EventStore,
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => (this.running = this.run()), this.intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and signs what was appended since the last checkpoint, so that a clean stop leaves no unprotected tail. */
  async stop(): Promise<void> {
    if (!this.timer) return;
    clearInterval(this.timer);
    this.timer = null;
    await this.running;
    await this.run();
  }

  private async run(): Promise<void> {
    try {
      const head = await this.events.headPosition();
      if (this.lastHead && comparePositions(head, this.lastHead) === 0) return;
      const checkpoint = await this.audit.writeCheckpoint('periodic', this.key);
      this.lastHead = head;
      const { streams, events, digest } = checkpoint.body;
      this.logger.info({ checkpoint: checkpoint.id, streams, events, digest, signature: checkpoint.signature }, 'event log checkpoint signed');
    } catch (error) {
      this.logger.error({ err: error }, 'signing an event log checkpoint failed');
    }
  }
}
