import type { ReadStore } from '../infra/readstore/port';
import type { QueryIndex } from '../src/domain/content-type/query-indexes';
import type { QueryIndexState } from '../projections/content-tables/query-indexes';
import { type ContentTableDocument, contentTableId } from '../projections/content-tables/schema';
import { CONTENT_TABLES } from '../projections/read-models/content-tables';
import { CONTENT_TYPES, contentTypeDocumentId } from '../projections/read-models/content-types';

export interface DeclaredQueryIndexes {
  readonly indexes: readonly QueryIndex[];
  /** Whether they are built on the type's serving table yet (projections/content-tables/query-indexes.ts). */
  readonly state: QueryIndexState;
}

/** A content type's declared query indexes, as its registry entry of typed tables carries them, and where their build stands. */
export class QueryIndexQueries {
  constructor(
    private readonly store: ReadStore,
    private readonly stateOf: (entry: ContentTableDocument) => QueryIndexState,
  ) {}

  /** Null when the type does not exist. */
  async declared(workspaceId: string, key: string): Promise<DeclaredQueryIndexes | null> {
    const [type, entry] = await Promise.all([
      this.store.get(CONTENT_TYPES, contentTypeDocumentId(workspaceId, key)),
      this.store.get<ContentTableDocument>(CONTENT_TABLES, contentTableId(workspaceId, key)),
    ]);
    if (!type) return null;
    // A type saved a moment ago may have no registry entry yet: nothing is declared on it.
    return entry ? { indexes: entry.queryIndexes ?? [], state: this.stateOf(entry) } : { indexes: [], state: 'none' };
  }
}
