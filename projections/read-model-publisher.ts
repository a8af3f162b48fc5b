import type { Logger } from 'pino';
import type { Position } from '../infra/eventstore/port';
import type { Change } from '../infra/readstore/port';
import { moveOf, type ReadModelFeed } from './read-model-moves';

/**
 * Publishes each committed move of this instance's live projections, one after another in the
 * order written. A move that could not be sent makes the next one say `everything`, so a follower
 * that missed it forgets its whole cache rather than keep what the lost move named.
 */
export class ReadModelPublisher {
  private sending: Promise<void> = Promise.resolve();
  private lost = false;

  constructor(
    private readonly feed: ReadModelFeed,
    /** Collections whose documents followers cache by id: only theirs are named in a move. */
    private readonly cachedById: (collection: string) => boolean,
    private readonly logger: Logger,
  ) {}

  readonly moved = (position: Position, changes: readonly Change[] | 'everything'): void => {
    this.sending = this.sending.then(() => this.send(position, changes));
  };

  /** Resolves once every move published so far was sent (or failed). */
  settled(): Promise<void> {
    return this.sending;
  }

  private async send(position: Position, changes: readonly Change[] | 'everything'): Promise<void> {
    const lost = this.lost;
    try {
      await this.feed.publish(moveOf(position, lost ? 'everything' : changes, this.cachedById));
      if (lost) this.lost = false;
    } catch (error) {
      this.lost = true;
      this.logger.warn({ err: error }, 'could not tell the other instances of a move of the read models; the next move tells them to forget their caches');
    }
  }
}
