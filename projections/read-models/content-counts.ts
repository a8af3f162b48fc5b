import type { Change, Document } from '../../infra/readstore/port';
import type { CollectionDefinition, ReadView } from '../projector';
import type { Stage } from './content-items';

export const CONTENT_COUNTS = 'content_counts';

const STAGES: readonly Stage[] = ['draft', 'published'];

/** How many documents of a stage a content type has in content_items. Id `${workspaceId}:${contentType}:${stage}`. */
export interface ContentCountDocument extends Document {
  readonly workspaceId: string;
  readonly contentType: string;
  readonly stage: Stage;
  readonly count: number;
}

export const contentCountId = (workspaceId: string, contentType: string, stage: Stage) => `${workspaceId}:${contentType}:${stage}`;

/**
 * The total of an unfiltered list in one read: without it, every `GET` of a type's first page
 * counted the stage's rows of the type (10 ms at 100,000 items, 100 ms at a million). Kept by
 * the published_versions projector from the item state it shares (content-item-states.ts); a
 * test checks it against content_items.
 */
export const contentCountCollections: readonly CollectionDefinition[] = [{ name: CONTENT_COUNTS, indexes: [] }];

/** The counts an item's change of stages moves: most events (a save of a draft that exists, a republish) move none. */
export async function contentCountChanges(view: ReadView, { workspaceId, contentType }: { workspaceId: string; contentType: string }, before: readonly Stage[], after: readonly Stage[]): Promise<Change[]> {
  const changes: Change[] = [];
  for (const stage of STAGES) {
    const step = (after.includes(stage) ? 1 : 0) - (before.includes(stage) ? 1 : 0);
    if (step !== 0) changes.push(await countedChange(view, workspaceId, contentType, stage, step));
  }
  return changes;
}
async function countedChange(view: ReadView, workspaceId: string, contentType: string, stage: Stage, step: number): Promise<Change> {
  const id = contentCountId(workspaceId, contentType, stage);
  const count = ((await view.get<ContentCountDocument>(CONTENT_COUNTS, id))?.count ?? 0) + step;
  return { kind: 'upsert', collection: CONTENT_COUNTS, document: { id, workspaceId, contentType, stage, count } satisfies ContentCountDocument };
}
