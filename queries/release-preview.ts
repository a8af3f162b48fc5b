import type { Clock } from '../infra/clock';
import type { EventStore } from '../infra/eventstore/port';
import type { ReadStore } from '../infra/readstore/port';
import { itemEvent, loadRelease } from '../commands/releases';
import { CONTENT_ITEMS, contentItemId, type ContentItemDocument, type ItemStages, nextStages } from '../projections/read-models/content-items';
import { contentStream } from '../src/domain/content/events';
import { conflict, notFound } from '../src/domain/errors';
import { releaseItemChange } from '../src/domain/release/item-changes';

/**
 * Published content as an Open release will leave it, without publishing it: an item in the
 * release is decided exactly as the publish decides it (releaseItemChange on its stream now), and
 * the events that publish would append are applied to its documents with the read model's own
 * rule (nextStages). An item not in the release reads as published now (`null`: ask the store).
 */
export class ReleasePreview {
  constructor(
    private readonly store: ReadStore,
    /** The log as the service reads it (the publish decides on the same). */
    private readonly events: EventStore,
    private readonly clock: Clock,
  ) {}

  /**
   * The published document of the item once the release is published; null when the release has
   * no entry for it. 404 for a release the workspace does not have, or an item the release leaves
   * unpublished or deleted; 409 for a release no longer Open, or an entry its publish would refuse.
   */
  async item(workspaceId: string, releaseId: string, contentType: string, itemId: string): Promise<ContentItemDocument | null> {
    const { state } = await loadRelease(this.events, workspaceId, releaseId);
    if (state.status !== 'Open') throw conflict(`release ${releaseId} is ${state.status}: only an Open release is previewed`);
    const entry = state.items.get(itemId);
    if (!entry) return null;
    const [history, documents] = await Promise.all([
      this.events.readStream(contentStream(workspaceId, itemId)),
      this.store.getMany<ContentItemDocument>(CONTENT_ITEMS, [contentItemId(workspaceId, itemId, 'draft'), contentItemId(workspaceId, itemId, 'published')]),
    ]);
    const change = releaseItemChange(workspaceId, entry, history.map(itemEvent));
    if (!change.ok) throw conflict(`release ${releaseId} cannot be published: content item ${itemId} ${change.problem}`);
    const at = this.clock.now().toISOString();
    let stages: ItemStages = { draft: documents.find((document) => document.stage === 'draft') ?? null, published: documents.find((document) => document.stage === 'published') ?? null };
    change.events.forEach((event, i) => {
      const body = 'fields' in event.data ? event.data : null;
      stages = nextStages(stages, { ...event.data, type: event.type, at, version: change.expectedRevision + 2 + i, body });
    });
    const published = stages.published;
    if (!published || published.contentType !== contentType) throw notFound(`content item ${itemId} is not published in ${contentType} once release ${releaseId} is published`);
    return published;
  }
}
