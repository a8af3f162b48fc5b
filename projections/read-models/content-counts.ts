import type { Change, Document } from '../../infra/readstore/port';
import type { CollectionDefinition, ReadView } from '../projector';
import type { Stage } from './content-items';

export const CONTENT_COUNTS = 'content_counts';

const STAGES: readonly Stage[] = ['draft', 'published'];

/**
 * How many documents of each stage a content type has in content_items, id
 * `${workspaceId}:${contentType}`: both stages in one row, so a create (a draft and a published
 * document) writes one row, not two.
 */
export interface ContentCountDocument extends Document {
  readonly workspaceId: string;
  readonly contentType: string;
  readonly draft: number;
  readonly published: number;
}

export const contentCountId = (workspaceId: string, contentType: string) => `${workspaceId}:${contentType}`;

/**
 * The total of an unfiltered list in one read: without it, every `GET` of a type's first page
 * counted the stage's rows of the type (10 ms at 100,000 items, 100 ms at a million). Kept by
 * the published_versions projector from the item state it shares (content-item-states.ts); a
 * test checks it against content_items.
 */
export const contentCountCollections: readonly CollectionDefinition[] = [{ name: CONTENT_COUNTS, indexes: [] }];

/** The count an item's change of stages moves: most events (a save of a draft that exists, a republish) move none. */
export async function contentCountChanges(view: ReadView, { workspaceId, contentType }: { workspaceId: string; contentType: string }, before: readonly Stage[], after: readonly Stage[]): Promise<Change[]> {
  const step = (stage: Stage) => (after.includes(stage) ? 1 : 0) - (before.includes(stage) ? 1 : 0);
  if (STAGES.every((stage) => step(stage) === 0)) return [];
  const id = contentCountId(workspaceId, contentType);
  const stored = await view.get<ContentCountDocument>(CONTENT_COUNTS, id);
  const document: ContentCountDocument = { id, workspaceId, contentType, draft: (stored?.draft ?? 0) + step('draft'), published: (stored?.published ?? 0) + step('published') };
  return [{ kind: 'upsert', collection: CONTENT_COUNTS, document }];
}
