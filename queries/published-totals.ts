import type { ReadStore } from '../infra/readstore/port';
import type { Filter } from '../infra/readstore/query';
import { dayStart, ITEM_COUNTS } from '../projections/read-models/item-counts';

const condition = (field: string, operator: 'e' | 'gt' | 'gte' | 'lt' | 'lte', value: string | number): Filter => ({ type: 'condition', field, operator, value });

/**
 * The number of items the unfiltered published list of a scope served at a time, without
 * counting every version served then: the served changes of item_counts before the time's day
 * (one index-only row a day of history), plus the versions published within that day and still
 * served at the time, less those served before the day and ended by the time (two index-only
 * ranges of one day's events in the type's typed versions table, `versions`).
 * Null while item_counts is being backfilled: count instead.
 */
export class PublishedTotals {
  constructor(
    private readonly store: ReadStore,
    private readonly ready: () => boolean,
  ) {}

  async at(scope: string, versions: string, at: Date): Promise<number | null> {
    if (!this.ready()) return null;
    const time = at.getTime();
    const day = dayStart(time);
    const [before, started, ended] = await Promise.all([
      this.store.aggregate(ITEM_COUNTS, { filter: { type: 'and', conditions: [condition('scope', 'e', scope), condition('dayMs', 'lt', day)] }, field: 'served', operation: 'sum' }),
      this.store.count(versions, {
        filter: { type: 'and', conditions: [condition('validFromMs', 'gte', day), condition('validFromMs', 'lte', time), condition('validUntilMs', 'gt', time)] },
      }),
      this.store.count(versions, {
        filter: { type: 'and', conditions: [condition('validUntilMs', 'gte', day), condition('validUntilMs', 'lte', time), condition('validFromMs', 'lt', day)] },
      }),
    ]);
    return (before ?? 0) + started - ended;
  }
}
