import type { ReadStore } from '../infra/readstore/port';
import type { Filter } from '../infra/readstore/query';
import { COUNT_LEVELS, PUBLISHED_COUNTS, periodStart } from '../projections/read-models/published-counts';

const condition = (field: string, operator: 'e' | 'gt' | 'gte' | 'lt' | 'lte', value: string | number): Filter => ({ type: 'condition', field, operator, value });

/**
 * The number of items the unfiltered published list of a scope served at a time, without
 * counting every version served then: the period changes of published_counts before the
 * time's hour (whole months, then the hours of its own month: at most 12 rows a year of history
 * and 743), plus the versions published within that hour and still served at the time, less
 * those served before the hour and ended by the time (two index-only ranges of one hour's events
 * in the type's typed versions table, `versions`).
 * Null while published_counts is being backfilled: count instead.
 */
export class PublishedTotals {
  constructor(
    private readonly store: ReadStore,
    private readonly ready: () => boolean,
  ) {}

  async at(scope: string, versions: string, at: Date): Promise<number | null> {
    if (!this.ready()) return null;
    const time = at.getTime();
    const hour = periodStart('hour', time);
    const [before, started, ended] = await Promise.all([
      this.store.aggregate(PUBLISHED_COUNTS, { filter: { type: 'or', conditions: periodsBefore(scope, time) }, field: 'change', operation: 'sum' }),
      this.store.count(versions, {
        filter: { type: 'and', conditions: [condition('validFromMs', 'gte', hour), condition('validFromMs', 'lte', time), condition('validUntilMs', 'gt', time)] },
      }),
      this.store.count(versions, {
        filter: { type: 'and', conditions: [condition('validUntilMs', 'gte', hour), condition('validUntilMs', 'lte', time), condition('validFromMs', 'lt', hour)] },
      }),
    ]);
    return (before ?? 0) + started - ended;
  }
}

/** The periods that together cover every time before `time`'s hour: each level from where the longer one stops. */
function periodsBefore(scope: string, time: number): Filter[] {
  return COUNT_LEVELS.map((level, index) => {
    const longer = COUNT_LEVELS[index - 1];
    return {
      type: 'and',
      conditions: [
        condition('scope', 'e', scope),
        condition('level', 'e', level),
        ...(longer ? [condition('startMs', 'gte', periodStart(longer, time))] : []),
        condition('startMs', 'lt', periodStart(level, time)),
      ],
    };
  });
}
