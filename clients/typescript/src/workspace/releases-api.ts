import type { ItemSchedule, ItemScheduleRequest, Operations, Release, ReleaseEntry, ReleaseHistory, ReleaseItemRequest, ReleaseItemsRequest, ReleasePage, ReleaseValidation } from '../generated/api-types';
import type { Transport } from '../http/transport';
import { WORKSPACE_OPERATIONS } from '../operations/workspace-operations';

const routes = WORKSPACE_OPERATIONS.releases;

export type ReleaseListQuery = Operations['listReleases']['query'];
export type ReleaseEntriesQuery = Operations['getRelease']['query'];
export type ReleaseHistoryQuery = Operations['getReleaseHistory']['query'];

/** Content releases: many item changes published as one append, and reverted as one (docs/releases.md). */
export class ReleasesApi {
  constructor(private readonly transport: Transport) {}

  create(name: string): Promise<Release> {
    return this.transport.json(routes.create, { body: { name } });
  }

  /** Newest first; `hasMore` tells whether another page follows. */
  list(query: ReleaseListQuery = {}): Promise<ReleasePage> {
    return this.transport.json(routes.list, { query });
  }

  /** publishAt and/or unpublishAt of one item: one-entry releases, scheduled, publish first. */
  scheduleItem(schedule: ItemScheduleRequest): Promise<ItemSchedule> {
    return this.transport.json(routes.scheduleItem, { body: schedule });
  }

  /**
   * A page of entries (100 unless asked); an Open release shows each entry's diff against the
   * published content, or its problem, within the answer's diff budget (`diffLeftOut` past it).
   */
  get(id: string, query: ReleaseEntriesQuery = {}): Promise<Release> {
    return this.transport.json(routes.get, { path: { id }, query });
  }

  /** One entry, with its whole diff (an entry the release's page left out). */
  getEntry(id: string, itemId: string): Promise<ReleaseEntry> {
    return this.transport.json(routes.getEntry, { path: { id, itemId } });
  }

  /** The release's own events in order, who made each and when (50 unless asked); `hasMore` tells whether another page follows. */
  history(id: string, query: ReleaseHistoryQuery = {}): Promise<ReleaseHistory> {
    return this.transport.json(routes.history, { path: { id }, query });
  }

  setItem(id: string, itemId: string, item: ReleaseItemRequest): Promise<Release> {
    return this.transport.json(routes.setItem, { path: { id, itemId }, body: item });
  }

  /** Up to 1,000 entries at once. */
  setItems(id: string, items: ReleaseItemsRequest['items']): Promise<Release> {
    return this.transport.json(routes.setItems, { path: { id }, body: { items } });
  }

  removeItem(id: string, itemId: string): Promise<Release> {
    return this.transport.json(routes.removeItem, { path: { id, itemId } });
  }

  validate(id: string): Promise<ReleaseValidation> {
    return this.transport.json(routes.validate, { path: { id } });
  }

  /** All or nothing: a 409 names each item that cannot be published. */
  publish(id: string): Promise<Release> {
    return this.transport.json(routes.publish, { path: { id } });
  }

  /** An ISO 8601 time, or null to clear it; a release that cannot be published then ends Failed. */
  schedule(id: string, publishAt: string | null): Promise<Release> {
    return this.transport.json(routes.schedule, { path: { id }, body: { publishAt } });
  }

  cancel(id: string): Promise<Release> {
    return this.transport.json(routes.cancel, { path: { id } });
  }

  revert(id: string, reason: string): Promise<Release> {
    return this.transport.json(routes.revert, { path: { id }, body: { reason } });
  }
}
