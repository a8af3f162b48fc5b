import type { Document } from '../../infra/readstore/port';
import { RELEASE_EVENT_TYPES, type ReleaseItem, type ReleaseStatus, releaseEvent } from '../../src/domain/release/events';
import type { Projector } from '../projector';

export const RELEASES = 'releases';

/** One document per release, id `${workspaceId}:${releaseId}`; its entries in the order first added. */
export interface ReleaseDocument extends Document {
  readonly workspaceId: string;
  readonly releaseId: string;
  readonly name: string;
  readonly status: ReleaseStatus;
  readonly items: readonly ReleaseItem[];
  readonly createdAt: string;
  readonly updatedAt: string;
  /** Open and scheduled: when it publishes itself. */
  readonly publishAt: string | null;
  readonly publishedAt: string | null;
  /** Failed: why its scheduled publish was refused. */
  readonly problems: readonly string[];
  readonly revertedAt: string | null;
  readonly revertReason: string | null;
}

export const releaseDocumentId = (workspaceId: string, releaseId: string) => `${workspaceId}:${releaseId}`;

export const releasesProjector: Projector = {
  name: 'releases',
  collections: [{ name: RELEASES, indexes: [{ fields: ['workspaceId', 'createdAt'] }, { fields: ['status', 'publishAt'] }] }],
  eventTypes: RELEASE_EVENT_TYPES,

  prefetch(recorded) {
    const { workspaceId, releaseId } = recorded.data as { workspaceId: string; releaseId: string };
    return recorded.type === 'ReleaseCreated' ? [] : [{ collection: RELEASES, id: releaseDocumentId(workspaceId, releaseId) }];
  },

  async project(recorded, view) {
    const event = releaseEvent.parse(recorded);
    const id = releaseDocumentId(event.data.workspaceId, event.data.releaseId);
    const at = recorded.metadata.timestamp;
    if (event.type === 'ReleaseCreated') {
      const document: ReleaseDocument = { id, ...event.data, status: 'Open', items: [], createdAt: at, updatedAt: at, publishAt: null, publishedAt: null, problems: [], revertedAt: null, revertReason: null };
      return [{ kind: 'upsert', collection: RELEASES, document }];
    }
    const current = await view.get<ReleaseDocument>(RELEASES, id);
    if (!current) return [];
    const changed = (change: Partial<ReleaseDocument>) => [{ kind: 'upsert' as const, collection: RELEASES, document: { ...current, ...change, updatedAt: at } }];
    switch (event.type) {
      case 'ReleaseItemSet': {
        const { workspaceId: _ws, releaseId: _id, ...item } = event.data;
        const known = current.items.some((entry) => entry.itemId === item.itemId);
        return changed({ items: known ? current.items.map((entry) => (entry.itemId === item.itemId ? item : entry)) : [...current.items, item] });
      }
      case 'ReleaseItemRemoved':
        return changed({ items: current.items.filter((entry) => entry.itemId !== event.data.itemId) });
      case 'ReleaseScheduled':
        return changed({ publishAt: event.data.publishAt });
      case 'ReleasePublished':
        return changed({ status: 'Published', publishAt: null, publishedAt: at });
      case 'ReleaseFailed':
        return changed({ status: 'Failed', publishAt: null, problems: event.data.problems });
      case 'ReleaseCancelled':
        return changed({ status: 'Cancelled', publishAt: null });
      case 'ReleaseReverted':
        return changed({ status: 'Reverted', revertedAt: at, revertReason: event.data.reason });
    }
  },
};
