import type { Logger } from 'pino';
import type { ReleaseCommands } from '../../commands/releases';
import type { Clock } from '../../infra/clock';
import type { ReadStore } from '../../infra/readstore/port';
import type { Filter } from '../../infra/readstore/query';
import { RELEASES, type ReleaseDocument } from '../read-models/releases';
import { type DueLook, DueWorkLoop } from './due-work-loop';

/**
 * Releases published at once. Each publish mostly waits (its append behind the others', then the
 * read models), so 100 due at one instant start together: with 8 at once the last of them was
 * 1.2 s late on PostgreSQL, with 100 0.2 s (bench/RESULTS.md, "Scheduled publishing").
 */
const MAX_PUBLISHES_AT_ONCE = 100;

const SCHEDULED_BY_SYSTEM = { actor: 'system', actorKind: 'system', actorId: 'system', actorName: null } as const;

/**
 * Publishes Open releases whose publishAt has come, on the instance holding the process-manager
 * lease. The publish appends with the release stream's expected revision, so of two instances
 * (a lease handed over mid-look) one publishes and the other finds it closed.
 */
export class ReleaseScheduler extends DueWorkLoop<ReleaseDocument> {
  constructor(
    private readonly store: ReadStore,
    private readonly releases: ReleaseCommands,
    private readonly clock: Clock,
    logger: Logger,
    maxSleepMs = 1000,
  ) {
    super(logger, MAX_PUBLISHES_AT_ONCE, maxSleepMs);
  }

  protected async findDue(limit: number): Promise<DueLook<ReleaseDocument>> {
    const items = await this.store.list<ReleaseDocument>(RELEASES, { filter: scheduled(this.clock.now().toISOString()), sort: [{ field: 'publishAt', direction: 'asc' }], limit });
    return { items, full: items.length === limit };
  }

  protected override async untilNextDue(): Promise<number> {
    const [next] = await this.store.list<ReleaseDocument>(RELEASES, { filter: scheduled(null), sort: [{ field: 'publishAt', direction: 'asc' }], limit: 1 });
    if (!next?.publishAt) return this.maxSleepMs;
    return Math.max(0, Math.min(Date.parse(next.publishAt) - this.clock.now().getTime(), this.maxSleepMs));
  }

  protected async work(release: ReleaseDocument): Promise<void> {
    if (!release.publishAt) return;
    const context = { workspaceId: release.workspaceId, ...SCHEDULED_BY_SYSTEM };
    const outcome = await this.releases.publishScheduled(release.workspaceId, release.releaseId, release.publishAt, context);
    if (outcome === 'failed') this.logger.warn({ workspaceId: release.workspaceId, releaseId: release.releaseId }, 'a scheduled release failed its validation; nothing was published');
  }
}

/** Open releases with a publish time (up to `until` when given). */
function scheduled(until: string | null): Filter {
  return {
    type: 'and',
    conditions: [
      { type: 'condition', field: 'status', operator: 'e', value: 'Open' },
      { type: 'condition', field: 'publishAt', operator: until === null ? 'gte' : 'lte', value: until ?? '0' },
      ...(until === null ? [] : [{ type: 'condition' as const, field: 'publishAt', operator: 'gte' as const, value: '0' }]),
    ],
  };
}
