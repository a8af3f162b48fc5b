import type { ReadStore } from '../infra/readstore/port';
import { CONTENT_ITEMS } from '../projections/read-models/content-items';
import { CONTENT_TABLES } from '../projections/read-models/content-tables';
import type { ContentTypeDocument } from '../projections/read-models/content-types';
import { answersAlike, type ContentTableDocument, contentTableId } from '../projections/content-tables/schema';

export interface ContentSource {
  readonly collection: string;
  /** A typed table: it holds the items of one content type of one workspace. */
  readonly typed: boolean;
}

const FALLBACK: ContentSource = { collection: CONTENT_ITEMS, typed: false };

/**
 * The collection to query a content type's items in: its typed table when the registry
 * says one serves and that table answers the type's current fields alike (while the table
 * for a changed field set is built, the old one serves unless a field was retyped);
 * otherwise content_items, slower but always right.
 */
export async function contentTableSource(store: ReadStore, workspaceId: string, type: ContentTypeDocument): Promise<ContentSource> {
  const entry = await store.get<ContentTableDocument>(CONTENT_TABLES, contentTableId(workspaceId, type.key));
  const serving = entry?.serving;
  if (!serving || !answersAlike(serving.fields, type.fields)) return FALLBACK;
  return { collection: serving.collection, typed: true };
}
