import type { Change, Document } from '../../infra/readstore/port';
import { sortablePosition } from '../../src/domain/audit/log-position';
import { assetEvent } from '../../src/domain/asset/events';
import type { Projector } from '../projector';

export const ASSET_USAGE = 'asset_usage';
export const ASSET_USAGE_ITEMS = 'asset_usage_items';

/** What a workspace's assets take in the blob store, kept on the asset events so a quota is one read. Id: the workspace id. */
export interface AssetUsageDocument extends Document {
  readonly workspaceId: string;
  /** The sizes of the assets' current files. */
  readonly storedBytes: number;
  /** Uploads started and not finished (uploaded, failed, found a duplicate, expired) nor deleted with their asset. */
  readonly pendingUploads: number;
  /** The declared totalFileSize of those uploads: what their chunks may still take. */
  readonly pendingBytes: number;
}

/** One asset's share of its workspace's usage. Id `${workspaceId}:${assetId}`; kept after a delete, with nothing in it. */
export interface AssetUsageItemDocument extends Document {
  readonly workspaceId: string;
  readonly assetId: string;
  readonly storedBytes: number;
  /** The unfinished upload of the asset, if any: its fileUploadId, declared size and last chunk's time. */
  readonly pendingFileUploadId: string | null;
  readonly pendingBytes: number;
  readonly pendingSince: string | null;
  /** The last event applied: an event seen again changes no total twice. */
  readonly position: string;
}

export const assetUsageItemId = (workspaceId: string, assetId: string) => `${workspaceId}:${assetId}`;

const USAGE_EVENTS = ['AssetUploadStarted', 'AssetChunkReceived', 'AssetUploaded', 'AssetUploadFailed', 'AssetUploadDuplicated', 'AssetDeleted'];

type ItemState = Pick<AssetUsageItemDocument, 'storedBytes' | 'pendingFileUploadId' | 'pendingBytes' | 'pendingSince'>;
const EMPTY: ItemState = { storedBytes: 0, pendingFileUploadId: null, pendingBytes: 0, pendingSince: null };
const NOT_PENDING = { pendingFileUploadId: null, pendingBytes: 0, pendingSince: null } as const;

/**
 * Stored and pending bytes and unfinished uploads per workspace, for the upload quotas, and each
 * asset's unfinished upload with the time of its last chunk, for the expiry sweep. Its own state per
 * asset, so a store that already holds assets is backfilled by replaying the log into it alone.
 */
export const assetUsageProjector: Projector = {
  name: 'asset_usage',
  collections: [
    { name: ASSET_USAGE, indexes: [] },
    { name: ASSET_USAGE_ITEMS, indexes: [{ fields: ['pendingFileUploadId'] }, { fields: ['pendingSince'] }] },
  ],
  eventTypes: new Set(USAGE_EVENTS),

  prefetch(recorded) {
    const { workspaceId, assetId } = recorded.data as { workspaceId: string; assetId: string };
    return [
      { collection: ASSET_USAGE_ITEMS, id: assetUsageItemId(workspaceId, assetId) },
      { collection: ASSET_USAGE, id: workspaceId },
    ];
  },

  async project(recorded, view) {
    const event = assetEvent.parse(recorded);
    const { workspaceId, assetId } = event.data;
    const id = assetUsageItemId(workspaceId, assetId);
    const position = sortablePosition(recorded.position);
    const item = await view.get<AssetUsageItemDocument>(ASSET_USAGE_ITEMS, id);
    if (item && item.position >= position) return [];
    const before: ItemState = item ?? EMPTY;
    const finishes = (fileUploadId: string) => (before.pendingFileUploadId === fileUploadId ? NOT_PENDING : {});
    const at = recorded.metadata.timestamp;
    let after: ItemState = before;
    switch (event.type) {
      case 'AssetUploadStarted':
        after = { ...before, pendingFileUploadId: event.data.fileUploadId, pendingBytes: event.data.totalFileSize, pendingSince: at };
        break;
      case 'AssetChunkReceived':
        if (before.pendingFileUploadId === event.data.fileUploadId) after = { ...before, pendingSince: at };
        break;
      case 'AssetUploaded':
        after = { ...before, storedBytes: event.data.fileInfo.fileSize, ...finishes(event.data.fileUploadId) };
        break;
      case 'AssetUploadFailed':
      case 'AssetUploadDuplicated':
        after = { ...before, ...finishes(event.data.fileUploadId) };
        break;
      case 'AssetDeleted':
        after = EMPTY;
        break;
      default:
        return [];
    }
    const changes: Change[] = [{ kind: 'upsert', collection: ASSET_USAGE_ITEMS, document: { id, workspaceId, assetId, ...after, position } satisfies AssetUsageItemDocument }];
    const pending = (state: ItemState) => (state.pendingFileUploadId ? 1 : 0);
    const step = { storedBytes: after.storedBytes - before.storedBytes, pendingUploads: pending(after) - pending(before), pendingBytes: after.pendingBytes - before.pendingBytes };
    if (step.storedBytes !== 0 || step.pendingUploads !== 0 || step.pendingBytes !== 0) {
      const usage = (await view.get<AssetUsageDocument>(ASSET_USAGE, workspaceId)) ?? { id: workspaceId, workspaceId, storedBytes: 0, pendingUploads: 0, pendingBytes: 0 };
      const document: AssetUsageDocument = {
        id: workspaceId,
        workspaceId,
        storedBytes: usage.storedBytes + step.storedBytes,
        pendingUploads: usage.pendingUploads + step.pendingUploads,
        pendingBytes: usage.pendingBytes + step.pendingBytes,
      };
      changes.push({ kind: 'upsert', collection: ASSET_USAGE, document });
    }
    return changes;
  },
};
