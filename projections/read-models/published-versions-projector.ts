import type { Projector } from '../projector';
import { CONTENT_ITEM_STATES, contentItemStateId } from './content-item-states';
import { itemCountChanges, itemCountCollections, itemCountKeys } from './item-counts';
import { ITEM_EVENTS, itemStep, itemTransition, stateChange } from './published-versions';

/**
 * The item states behind the typed versions tables (content_item_states: one row per item, its
 * published versions' numbers and intervals, content-item-states.ts), and from the same state the
 * counts of unfiltered lists, now and at a time (item_counts). content_tables computes each type's version rows from these states as they
 * stand before the event (projections/read-models/content-tables.ts).
 * Deleting an item (or its draft when nothing is published, which ends the item) and erasing
 * it remove all its rows, as API keys may never read deleted or erased content again.
 * Version 2: the three read models kept one item state each (published_version_items with a
 * copy of the open version, published_count_items, content_count_items) and had a projector each.
 * Version 3: published_counts keeps months and hours only (version 2 also years and days).
 * Version 4: no `published_versions` table (every published version of every type, a second copy
 * of the typed versions tables' rows); it writes the same documents into the collections it
 * keeps as version 3, so it continues a store of version 3 without a rebuild and drops that table.
 * Version 5: the counts of a type by day, its latest day holding the counts now (item_counts),
 * instead of the stages' counts now (content_counts) and a month's and an hour's served count
 * (published_counts): a create wrote three rows of counts, now one.
 */
export const publishedVersionsProjector: Projector = {
  name: 'published_versions',
  version: 5,
  collections: [{ name: CONTENT_ITEM_STATES, indexes: [] }, ...itemCountCollections],
  retiredCollections: ['published_versions', 'published_version_items', 'published_count_items', 'content_count_items', 'content_counts', 'published_counts'],
  eventTypes: ITEM_EVENTS,

  prefetch(recorded) {
    const { workspaceId, itemId } = recorded.data as { workspaceId: string; itemId: string };
    return [{ collection: CONTENT_ITEM_STATES, id: contentItemStateId(workspaceId, itemId) }, ...itemCountKeys(recorded)];
  },

  async project(recorded, view) {
    const step = itemStep(recorded);
    const transition = await itemTransition(step, view);
    if (!transition || transition.after === transition.before) return [];
    return [...(await itemCountChanges(view, step, transition)), ...stateChange(transition.before, transition.after)];
  },
};
