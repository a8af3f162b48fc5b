import type { ReadStore } from '../infra/readstore/port';
import { CONTENT_COUNTS, type ContentCountDocument, contentCountId } from '../projections/read-models/content-counts';
import type { Stage } from '../projections/read-models/content-items';

/** The number of a content type's documents in a stage, from content_counts: the total of an unfiltered list in one read. */
export class StageTotals {
  constructor(
    private readonly store: ReadStore,
    /** False while content_counts awaits its backfill: lists count their rows instead. */
    readonly live: () => boolean,
  ) {}

  async of(workspaceId: string, contentType: string, stage: Stage): Promise<number> {
    return (await this.store.get<ContentCountDocument>(CONTENT_COUNTS, contentCountId(workspaceId, contentType)))?.[stage] ?? 0;
  }
}
