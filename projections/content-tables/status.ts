import type { ReadStore } from '../../infra/readstore/port';
import { CONTENT_TABLES } from '../read-models/content-tables';
import type { QueryIndexState } from './query-indexes';
import type { ContentTableDocument } from './schema';

export interface ContentTableStatus {
  readonly workspaceId: string;
  readonly contentType: string;
  /**
   * serving: queries use the table built for the type's current fields; building: the fields
   * changed (or no table exists yet) and queries use content_items until the new table is
   * switched in; removing: the type was deleted and its table goes.
   */
  readonly state: 'serving' | 'building' | 'removing';
  readonly servingTable: string | null;
  readonly wantedTable: string | null;
  /** Where the type's declared query indexes stand; known to a running service only. */
  readonly queryIndexes?: QueryIndexState;
}

/** Each content type's typed table, read from the registry (whether or not a service runs; a running one passes its builder's queryIndexState). */
export async function contentTableStatuses(readStore: ReadStore, queryIndexState?: (entry: ContentTableDocument) => QueryIndexState): Promise<ContentTableStatus[]> {
  const entries = await readStore.list<ContentTableDocument>(CONTENT_TABLES, { sort: [{ field: 'id', direction: 'asc' }] });
  return entries.map((entry) => ({
    workspaceId: entry.workspaceId,
    contentType: entry.contentType,
    state: entry.wanted === null ? 'removing' : entry.wanted.collection === entry.serving?.collection ? 'serving' : 'building',
    servingTable: entry.serving?.collection ?? null,
    wantedTable: entry.wanted?.collection ?? null,
    ...(queryIndexState ? { queryIndexes: queryIndexState(entry) } : {}),
  }));
}
