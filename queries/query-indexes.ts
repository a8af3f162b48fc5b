import type { ReadStore } from '../infra/readstore/port';
import type { QueryIndex } from '../src/domain/content-type/query-indexes';
import { type ContentTableDocument, contentTableId } from '../projections/content-tables/schema';
import { CONTENT_TABLES } from '../projections/read-models/content-tables';
import { CONTENT_TYPES, contentTypeDocumentId } from '../projections/read-models/content-types';

/** A content type's declared query indexes, as its registry entry of typed tables carries them. */
export class QueryIndexQueries {
  constructor(private readonly store: ReadStore) {}

  /** Null when the type does not exist. */
  async declared(workspaceId: string, key: string): Promise<readonly QueryIndex[] | null> {
    const [type, entry] = await Promise.all([
      this.store.get(CONTENT_TYPES, contentTypeDocumentId(workspaceId, key)),
      this.store.get<ContentTableDocument>(CONTENT_TABLES, contentTableId(workspaceId, key)),
    ]);
    if (!type) return null;
    return entry?.queryIndexes ?? [];
  }
}
