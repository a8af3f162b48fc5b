import type { EventStore } from '../infra/eventstore/port';
import { type Attribution, attributionOf } from '../src/domain/audit/actor';
import { releaseStream } from '../src/domain/release/events';
import type { ActorNames } from './actor-names';
import type { ReleaseQueries } from './releases';

export interface ReleaseHistoryPage {
  readonly page: number;
  readonly pageSize: number;
}

export interface ReleaseHistoryEntry extends Attribution {
  /** 1 for the release's creation, then one per event of the release, in order. */
  readonly revision: number;
  readonly type: string;
  readonly at: string;
  /** The id of the request that wrote it (the client's X-Request-Id, if it sent one). */
  readonly requestId: string | null;
  /** The server's own id of that request; null for events written before it was recorded. */
  readonly serverRequestId: string | null;
  /** What the event recorded, without the workspace and release ids: an item's entry, the schedule, the problems, the reason. */
  readonly change: Record<string, unknown>;
}

/**
 * A release's own history: who created it, added, changed and removed each item, scheduled,
 * published, cancelled or reverted it, and when, read from the release's stream one page at a
 * time (a release's entries change without bound while it is Open, so its stream is never read whole).
 */
export class ReleaseHistoryQueries {
  constructor(
    private readonly events: EventStore,
    private readonly releases: ReleaseQueries,
    private readonly actorNames: ActorNames,
  ) {}

  async page(workspaceId: string, releaseId: string, page: ReleaseHistoryPage): Promise<{ page: number; pageSize: number; hasMore: boolean; items: ReleaseHistoryEntry[] }> {
    await this.releases.assertExists(workspaceId, releaseId);
    const read = await this.events.readStream(releaseStream(workspaceId, releaseId), { fromRevision: (page.page - 1) * page.pageSize, maxCount: page.pageSize + 1 });
    const entries = read.slice(0, page.pageSize).map((event): ReleaseHistoryEntry => {
      const { workspaceId: _workspace, releaseId: _release, ...change } = event.data as Record<string, unknown>;
      return {
        revision: event.revision + 1,
        type: event.type,
        at: event.metadata.timestamp,
        ...attributionOf(event.metadata),
        requestId: event.metadata.correlationId ?? null,
        serverRequestId: event.metadata.serverRequestId ?? null,
        change,
      };
    });
    return { page: page.page, pageSize: page.pageSize, hasMore: read.length > page.pageSize, items: await this.actorNames.fillIn(entries) };
  }
}
