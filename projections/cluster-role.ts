import type { Leadership } from './processes/leadership';
import type { ReadModelFollower } from './read-model-follower';

/**
 * What this instance does among those sharing the stores: the lease holder projects and runs the
 * process managers; every instance follows the moves of the read models, so its caches and its
 * read-your-writes barrier keep up whether it holds the lease or not (the embedded store, one
 * process, has no follower: its instance always holds the lease).
 */
export class ClusterRole {
  constructor(
    private readonly leadership: Leadership,
    private readonly follower: ReadModelFollower | null,
  ) {}

  get isLeading(): boolean {
    return this.leadership.isLeading;
  }

  /** True while this instance's read models keep up: it projects, or it hears the instance that does. */
  get readModelsFollowed(): boolean {
    return this.leadership.isLeading || this.follower?.following === true;
  }

  /** Follows first, so a standby answers writes from its first request. */
  async start(): Promise<void> {
    await this.follower?.start();
    await this.leadership.start();
  }

  /** Stops leading; following goes on until the stores close, so writes through this instance stay answered. */
  async stop(): Promise<void> {
    await this.leadership.stop();
  }
}
