import type { Projector } from '../projector';
import { contentCountChanges, contentCountCollections } from './content-counts';
import { stagesOf } from './content-item-states';
import { publishedCountChanges, publishedCountCollections, publishedCountKeys } from './published-counts';
import { ITEM_EVENTS, itemStep, itemTransition, PUBLISHED_VERSIONS, stateChange, versionRowChanges, versionRowsProjector } from './published-versions';

/**
 * The read model behind as-of list, ids and aggregate queries (queries/content-as-of.ts):
 * every version an item had on the published paths, with the interval it was served in; and,
 * from the same item state (one row per item, content-item-states.ts), the counts of unfiltered
 * lists: per stage now (content_counts) and served at a time (published_counts).
 * Deleting an item (or its draft when nothing is published, which ends the item) and erasing
 * it remove all its rows, as API keys may never read deleted or erased content again.
 * Version 2: the three read models kept one item state each (published_version_items with a
 * copy of the open version, published_count_items, content_count_items) and had a projector each.
 * Version 3: published_counts keeps months and hours only (version 2 also years and days).
 */
export const publishedVersionsProjector: Projector = {
  name: 'published_versions',
  version: 3,
  collections: [...versionRowsProjector.collections, ...contentCountCollections, ...publishedCountCollections],
  retiredCollections: ['published_version_items', 'published_count_items', 'content_count_items'],
  eventTypes: ITEM_EVENTS,

  prefetch(recorded) {
    return [...versionRowsProjector.prefetch!(recorded), ...publishedCountKeys(recorded)];
  },
  prefetchFollowing: versionRowsProjector.prefetchFollowing!,

  async project(recorded, view) {
    const step = itemStep(recorded);
    const transition = await itemTransition(step, view);
    if (!transition || transition.after === transition.before) return [];
    return [
      ...(await versionRowChanges(step, transition, view, PUBLISHED_VERSIONS)),
      ...(await contentCountChanges(view, step, stagesOf(transition.before), stagesOf(transition.after))),
      ...(await publishedCountChanges(view, step, transition)),
      ...stateChange(transition.before, transition.after),
    ];
  },
};
