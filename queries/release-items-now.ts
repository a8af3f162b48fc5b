import type { EventStore } from '../infra/eventstore/port';
import type { ReadStore } from '../infra/readstore/port';
import { CONTENT_ERASURES, type ContentErasureDocument, contentErasureId } from '../projections/read-models/content-erasures';
import { CONTENT_ITEMS, type ContentItemDocument, contentItemId } from '../projections/read-models/content-items';
import { type ContentBody, contentStream } from '../src/domain/content/events';
import type { ReleaseItem } from '../src/domain/release/events';
import type { ItemNow } from '../src/domain/release/item-changes';

/** What a release's entry is decided on, read from the read models instead of the item's stream. */
export interface ItemRead {
  readonly now: ItemNow;
  /** The stream version of the draft document, when there is one. */
  readonly draftVersion: number | null;
  readonly draft: ContentItemDocument | null;
  readonly published: ContentItemDocument | null;
}

/**
 * Every item's documents, erasure and stream revision: three statements side by side, however
 * many items (a release holds at most MAX_RELEASE_ITEMS).
 */
export async function readItemsNow(store: ReadStore, events: EventStore, workspaceId: string, itemIds: readonly string[]): Promise<Map<string, ItemRead>> {
  if (itemIds.length === 0) return new Map();
  const [documents, erasures, revisions] = await Promise.all([
    store.getMany<ContentItemDocument>(CONTENT_ITEMS, itemIds.flatMap((itemId) => [contentItemId(workspaceId, itemId, 'draft'), contentItemId(workspaceId, itemId, 'published')])),
    store.getMany<ContentErasureDocument>(CONTENT_ERASURES, itemIds.map((itemId) => contentErasureId(workspaceId, itemId))),
    events.streamRevisions(itemIds.map((itemId) => contentStream(workspaceId, itemId))),
  ]);
  const erased = new Set(erasures.map((erasure) => erasure.itemId));
  const stages = new Map(documents.map((document) => [`${document.itemId}:${document.stage}`, document]));
  return new Map(
    itemIds.map((itemId) => {
      const draft = stages.get(`${itemId}:draft`) ?? null;
      const published = stages.get(`${itemId}:published`) ?? null;
      const now: ItemNow = {
        exists: draft !== null || published !== null,
        contentType: (draft ?? published)?.contentType ?? null,
        draft: body(draft),
        published: body(published),
        version: revisions.get(contentStream(workspaceId, itemId))! + 1,
        erased: erased.has(itemId),
      };
      return [itemId, { now, draftVersion: draft?.version ?? null, draft, published }];
    }),
  );
}

/** A pinned publish whose draft document is newer than its version (or gone): the draft it publishes is only in the stream. */
export function needsStream(entry: ReleaseItem, read: ItemRead): boolean {
  return entry.pinned && entry.action === 'publish' && read.now.exists && entry.version <= read.now.version && !(read.draftVersion !== null && read.draftVersion <= entry.version);
}

function body(document: ContentItemDocument | null): ContentBody | null {
  return document && { fields: document.fields, translations: document.translations };
}
