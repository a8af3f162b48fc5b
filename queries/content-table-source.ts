import type { ReadStore } from '../infra/readstore/port';
import { CONTENT_ITEMS } from '../projections/read-models/content-items';
import { CONTENT_TABLES } from '../projections/read-models/content-tables';
import type { ContentTypeDocument } from '../projections/read-models/content-types';
import { type ContentTableDocument, contentTableId, sameFields, typedFields } from '../projections/content-tables/schema';

export interface ContentSource {
  readonly collection: string;
  /** A typed table: it holds the items of one content type of one workspace. */
  readonly typed: boolean;
}

const FALLBACK: ContentSource = { collection: CONTENT_ITEMS, typed: false };

/**
 * The collection to query a content type's items in: its typed table when the registry
 * says one serves and that table was built for exactly the type's current fields (a table
 * built for older fields may lack a column, or hold one of another type); otherwise
 * content_items, slower but always right, e.g. while a new table is being built.
 */
export async function contentTableSource(store: ReadStore, workspaceId: string, type: ContentTypeDocument): Promise<ContentSource> {
  const entry = await store.get<ContentTableDocument>(CONTENT_TABLES, contentTableId(workspaceId, type.key));
  const serving = entry?.serving;
  if (!serving || !sameFields(serving.fields, typedFields(type.fields))) return FALLBACK;
  return { collection: serving.collection, typed: true };
}
