import type { Logger } from 'pino';
import type { ChainAudit } from '../../infra/eventstore/chain-audit';
import { comparePositions, type EventStore, type Position } from '../../infra/eventstore/port';

/** How often the leader signs the stream heads when the log has grown. */
export const CHECKPOINT_INTERVAL_MS = 60_000;

/**
 * Writes a signed checkpoint over every stream's head (chain-audit.ts) once a minute when the
 * log has grown since the last one, on the instance that runs the process managers. Events
 * after the latest checkpoint can be cut off the end of the log unseen; this bounds that window.
 * Each checkpoint is also logged, so a copy lives outside the database.
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
    private readonly intervalMs = CHECKPOINT_INTERVAL_MS,
  ) {}

  start(): void {
    this.timer = setInterval(() => (this.running = this.run()), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
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
