import type { Clock } from '../infra/clock';
import type { EventStore } from '../infra/eventstore/port';
import { foldStream } from '../infra/eventstore/stream-pages';
import type { ReadStore } from '../infra/readstore/port';
import { loadRelease } from '../commands/releases';
import { type ContentItemDocument, nextStages } from '../projections/read-models/content-items';
import { initialContentState } from '../src/domain/content/decider';
import { type ContentBody, contentStream } from '../src/domain/content/events';
import { foldStoredContent } from '../src/domain/content/fold-stored';
import { conflict, notFound } from '../src/domain/errors';
import type { ReleaseItem } from '../src/domain/release/events';
import type { ReleaseState } from '../src/domain/release/decider';
import { entryOutcome } from '../src/domain/release/item-changes';
import { needsStream, readItemsNow } from './release-items-now';

/** A release's entries of one content type, as the preview of a list needs them. */
export interface PreviewedItems {
  /** Every item the release has an entry for: the store's answer leaves them out. */
  readonly itemIds: string[];
  /** Their published documents once the release is published (an item it unpublishes or deletes has none). */
  readonly documents: ContentItemDocument[];
}

/** Problems one 409 names at most; the release's detail lists them all. */
const PROBLEMS_NAMED = 10;

/**
 * Published content as an Open release will leave it, without publishing it: each entry is
 * decided by the publish's own rule (entryOutcome) on its item as the read models hold it now,
 * every entry of an answer read together (readItemsNow), and the event the publish would append
 * is applied to the item's documents with the read model's own rule (nextStages). An item not in
 * the release reads as published now: the store answers for it.
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
    const entry = (await this.openRelease(workspaceId, releaseId)).items.get(itemId);
    if (!entry) return null;
    const [published] = await this.publishedAfter(workspaceId, releaseId, [entry]);
    if (!published || published.contentType !== contentType) throw notFound(`content item ${itemId} is not published in ${contentType} once release ${releaseId} is published`);
    return published;
  }

  /** The release's entries of `contentType` (404 and 409 as for an item; a 409 names each refused entry, up to PROBLEMS_NAMED). */
  async ofType(workspaceId: string, releaseId: string, contentType: string): Promise<PreviewedItems> {
    const entries = [...(await this.openRelease(workspaceId, releaseId)).items.values()].filter((entry) => entry.contentType === contentType);
    const published = await this.publishedAfter(workspaceId, releaseId, entries);
    return { itemIds: entries.map((entry) => entry.itemId), documents: published.filter((document) => document !== null) };
  }

  /** The items among `itemIds` the release has an entry for → their published document once it is published (null: none). */
  async entriesAmong(workspaceId: string, releaseId: string, itemIds: readonly string[]): Promise<Map<string, ContentItemDocument | null>> {
    const release = await this.openRelease(workspaceId, releaseId);
    const entries = itemIds.map((itemId) => release.items.get(itemId)).filter((entry) => entry !== undefined);
    const published = await this.publishedAfter(workspaceId, releaseId, entries);
    return new Map(entries.map((entry, i) => [entry.itemId, published[i]!]));
  }

  private async openRelease(workspaceId: string, releaseId: string): Promise<ReleaseState> {
    const { state } = await loadRelease(this.events, workspaceId, releaseId);
    if (state.status !== 'Open') throw conflict(`release ${releaseId} is ${state.status}: only an Open release is previewed`);
    return state;
  }

  /** Each entry's published document once it is applied, in order; 409 when the publish would refuse any. */
  private async publishedAfter(workspaceId: string, releaseId: string, entries: readonly ReleaseItem[]): Promise<(ContentItemDocument | null)[]> {
    const reads = await readItemsNow(this.store, this.events, workspaceId, entries.map((entry) => entry.itemId));
    // A pinned entry whose draft moved on publishes the draft of its version, which only its stream still holds.
    const pinnedDrafts = await Promise.all(entries.map((entry) => (needsStream(entry, reads.get(entry.itemId)!) ? this.draftAt(workspaceId, entry) : undefined)));
    const at = this.clock.now().toISOString();
    const problems: string[] = [];
    const published = entries.map((entry, i) => {
      const read = reads.get(entry.itemId)!;
      const pinned = pinnedDrafts[i];
      const outcome = entryOutcome(entry, read.now, () => (pinned === undefined ? read.now.draft : pinned));
      if (!outcome.ok) {
        problems.push(`content item ${entry.itemId} ${outcome.problem}`);
        return null;
      }
      const type = entry.action === 'publish' ? 'ContentPublished' : entry.action === 'unpublish' ? 'ContentUnpublished' : 'ContentDeleted';
      const step = { type, workspaceId, itemId: entry.itemId, contentType: entry.contentType, at, version: read.now.version + 1, body: outcome.publishedAfter };
      return nextStages({ draft: read.draft, published: read.published }, step).published;
    });
    if (problems.length > 0) {
      const more = problems.length > PROBLEMS_NAMED ? `; and ${problems.length - PROBLEMS_NAMED} more (GET /v2/releases/${releaseId} lists them)` : '';
      throw conflict(`release ${releaseId} cannot be published: ${problems.slice(0, PROBLEMS_NAMED).join('; ')}${more}`);
    }
    return published;
  }

  private async draftAt(workspaceId: string, entry: ReleaseItem): Promise<ContentBody | null> {
    return (await foldStream(this.events, contentStream(workspaceId, entry.itemId), initialContentState, foldStoredContent, { maxCount: entry.version })).draft;
  }
}
