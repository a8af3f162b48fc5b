import type { ReadStore } from '../infra/readstore/port';
import type { Stage } from '../projections/read-models/content-items';
import { ITEM_COUNTS, type ItemCountHead, itemCountHeadId } from '../projections/read-models/item-counts';
import { publishedVersionScope } from '../projections/read-models/published-versions';

/** The number of a content type's documents in a stage, from its head in item_counts: the total of an unfiltered list in one read. */
export class StageTotals {
  constructor(
    private readonly store: ReadStore,
    /** False while item_counts awaits its backfill: lists count their rows instead. */
    readonly live: () => boolean,
  ) {}

  async of(workspaceId: string, contentType: string, stage: Stage): Promise<number> {
    const head = await this.store.get<ItemCountHead>(ITEM_COUNTS, itemCountHeadId(publishedVersionScope(workspaceId, contentType)));
    return (stage === 'draft' ? head?.draftsNow : head?.servedNow) ?? 0;
  }
}
