import type { ReadStore } from '../infra/readstore/port';
import type { Stage } from '../projections/read-models/content-items';
import { ITEM_COUNTS } from '../projections/read-models/item-counts';
import { publishedVersionScope } from '../projections/read-models/published-versions';

/** The number of a content type's documents in a stage: the sum of its days in item_counts, the total of an unfiltered list without counting its rows. */
export class StageTotals {
  constructor(
    private readonly store: ReadStore,
    /** False while item_counts awaits its backfill: lists count their rows instead. */
    readonly live: () => boolean,
  ) {}

  async of(workspaceId: string, contentType: string, stage: Stage): Promise<number> {
    const scope = { type: 'condition', field: 'scope', operator: 'e', value: publishedVersionScope(workspaceId, contentType) } as const;
    return (await this.store.aggregate(ITEM_COUNTS, { filter: scope, field: stage === 'draft' ? 'drafts' : 'served', operation: 'sum' })) ?? 0;
  }
}
