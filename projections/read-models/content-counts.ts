import type { Change, Document } from '../../infra/readstore/port';
import { sortablePosition } from '../../src/domain/audit/log-position';
import type { Projector, ReadView } from '../projector';
import { ITEM_DOCUMENT_EVENTS, type Stage } from './content-items';

export const CONTENT_COUNTS = 'content_counts';
const CONTENT_COUNT_ITEMS = 'content_count_items';

const STAGES: readonly Stage[] = ['draft', 'published'];

/** How many documents of a stage a content type has in content_items. Id `${workspaceId}:${contentType}:${stage}`. */
export interface ContentCountDocument extends Document {
  readonly workspaceId: string;
  readonly contentType: string;
  readonly stage: Stage;
  readonly count: number;
}

/** The stages a living item has a document in. Id `${workspaceId}:${itemId}`. */
interface ContentCountItemDocument extends Document {
  readonly stages: readonly Stage[];
  /** The last event that changed its stages: an event seen again changes no count twice. */
  readonly position: string;
}

export const contentCountId = (workspaceId: string, contentType: string, stage: Stage) => `${workspaceId}:${contentType}:${stage}`;

/**
 * The stages an item has a document in after an event, as content_items makes them: a save or
 * a restore makes the draft, a publish the published document (the draft stays as it was), an
 * unpublish or a draft delete removes one, a delete or an erasure both.
 */
export function stagesAfter(eventType: string, before: readonly Stage[]): Stage[] {
  const stages = new Set(before);
  if (eventType === 'ContentDraftSaved' || eventType === 'ContentRestored') stages.add('draft');
  if (eventType === 'ContentPublished') stages.add('published');
  if (eventType === 'ContentUnpublished') stages.delete('published');
  if (eventType === 'ContentDraftDeleted') stages.delete('draft');
  if (eventType === 'ContentDeleted' || eventType === 'ContentErased') stages.clear();
  return STAGES.filter((stage) => stages.has(stage));
}

/**
 * The total of an unfiltered list in one read: without it, every `GET` of a type's first page
 * counted the stage's rows of the type (10 ms at 100,000 items, 100 ms at a million).
 *
 * Its own state per item (the stages it has documents in), so that a store built before it is
 * backfilled by replaying the log into it alone; a test checks it against content_items.
 */
export const contentCountsProjector: Projector = {
  name: 'content_counts',
  collections: [
    { name: CONTENT_COUNTS, indexes: [] },
    { name: CONTENT_COUNT_ITEMS, indexes: [] },
  ],
  eventTypes: new Set(ITEM_DOCUMENT_EVENTS),

  // The counts are read only when a stage changes (and then stay known to the batch): most events change none.
  prefetch(recorded) {
    const { workspaceId, itemId } = recorded.data as { workspaceId: string; itemId: string };
    return [{ collection: CONTENT_COUNT_ITEMS, id: `${workspaceId}:${itemId}` }];
  },

  async project(recorded, view) {
    // The item events' own parse runs in content_items; these three keys are in every one of them.
    const { workspaceId, itemId, contentType } = recorded.data as { workspaceId: string; itemId: string; contentType: string };
    const key = `${workspaceId}:${itemId}`;
    const position = sortablePosition(recorded.position);
    const item = await view.get<ContentCountItemDocument>(CONTENT_COUNT_ITEMS, key);
    if (item && item.position >= position) return [];
    const before = item?.stages ?? [];
    const after = stagesAfter(recorded.type, before);
    // Most events (a save of a draft that exists, a republish) change no stage: nothing is written.
    if (after.length === before.length && after.every((stage) => before.includes(stage))) return [];

    const changes: Change[] = [];
    for (const stage of STAGES) {
      const step = (after.includes(stage) ? 1 : 0) - (before.includes(stage) ? 1 : 0);
      if (step !== 0) changes.push(await countedChange(view, workspaceId, contentType, stage, step));
    }
    changes.push(
      after.length > 0
        ? { kind: 'upsert', collection: CONTENT_COUNT_ITEMS, document: { id: key, stages: after, position } satisfies ContentCountItemDocument }
        : { kind: 'delete', collection: CONTENT_COUNT_ITEMS, id: key },
    );
    return changes;
  },
};

async function countedChange(view: ReadView, workspaceId: string, contentType: string, stage: Stage, step: number): Promise<Change> {
  const id = contentCountId(workspaceId, contentType, stage);
  const count = ((await view.get<ContentCountDocument>(CONTENT_COUNTS, id))?.count ?? 0) + step;
  return { kind: 'upsert', collection: CONTENT_COUNTS, document: { id, workspaceId, contentType, stage, count } satisfies ContentCountDocument };
}
