import type { Projector } from '../projector';
import { CONTENT_ITEM_STATES, contentItemStateId } from './content-item-states';
import { ITEM_EVENTS, itemStep, itemTransition, stateChange } from './published-versions';

/**
 * The item states behind the typed versions tables (content_item_states: one row per item, its
 * published versions' numbers and intervals, content-item-states.ts). From a state as it stands
 * before an event, content_tables computes each type's version rows (content-tables.ts) and
 * item_counts the counts of unfiltered lists (item-counts.ts).
 * Deleting an item (or its draft when nothing is published, which ends the item) and erasing
 * it remove all its rows, as API keys may never read deleted or erased content again.
 * Version 2: the three read models kept one item state each (published_version_items with a
 * copy of the open version, published_count_items, content_count_items) and had a projector each.
 * Version 3: published_counts keeps months and hours only (version 2 also years and days).
 * Version 4: no `published_versions` table (every published version of every type, a second copy
 * of the typed versions tables' rows); it writes the same documents into the collections it
 * keeps as version 3, so it continues a store of version 3 without a rebuild and drops that table.
 * Version 5: the counts are a read model of their own (item_counts, item-counts.ts), which reads
 * these states; it keeps the states as version 4 did, so it continues a store of version 4 without
 * a rebuild and drops content_counts and published_counts.
 */
export const publishedVersionsProjector: Projector = {
  name: 'published_versions',
  version: 5,
  continues: 4,
  collections: [{ name: CONTENT_ITEM_STATES, indexes: [] }],
  retiredCollections: ['published_versions', 'published_version_items', 'published_count_items', 'content_count_items', 'content_counts', 'published_counts'],
  eventTypes: ITEM_EVENTS,

  prefetch(recorded) {
    const { workspaceId, itemId } = recorded.data as { workspaceId: string; itemId: string };
    return [{ collection: CONTENT_ITEM_STATES, id: contentItemStateId(workspaceId, itemId) }];
  },

  async project(recorded, view) {
    const step = itemStep(recorded);
    const transition = await itemTransition(step, view);
    if (!transition || transition.after === transition.before) return [];
    return stateChange(transition.before, transition.after);
  },
};
