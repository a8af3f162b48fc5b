import type { Change, ColumnDefinition, Document } from '../../infra/readstore/port';
import { sortablePosition } from '../../src/domain/audit/log-position';
import { contentEvent } from '../../src/domain/content/events';
import type { Projector, ReadView } from '../projector';
import { publishedVersionScope } from './published-versions';

export const PUBLISHED_COUNTS = 'published_counts';
const PUBLISHED_COUNT_ITEMS = 'published_count_items';

/** Calendar periods (UTC), longest first: a time's past is whole years, then months, days and hours of its own. */
export const COUNT_LEVELS = ['year', 'month', 'day', 'hour'] as const;
export type CountLevel = (typeof COUNT_LEVELS)[number];

/** The start of the period of `level` holding `ms`. */
export function periodStart(level: CountLevel, ms: number): number {
  const time = new Date(ms);
  const [year, month, day, hour] = [time.getUTCFullYear(), time.getUTCMonth(), time.getUTCDate(), time.getUTCHours()];
  if (level === 'year') return Date.UTC(year, 0);
  if (level === 'month') return Date.UTC(year, month);
  if (level === 'day') return Date.UTC(year, month, day);
  return Date.UTC(year, month, day, hour);
}

/**
 * The change, within one period of a scope (workspace and type), of the number of versions
 * served: +1 at each version's start, -1 at its end, of the versions still in published_versions
 * (a deleted or erased item's are taken back). Id `${scope}:${level}:${startMs}`. The sum over
 * the periods before a time is the number served just before it, whatever order the events came
 * in: additions commute, so event times that run backwards (an import, a clock behind) do no harm.
 */
export interface PublishedCountDocument extends Document {
  readonly scope: string;
  readonly level: CountLevel;
  readonly startMs: number;
  readonly change: number;
}

/** A living item's served intervals: the closed ones and the open one's start. Id `${workspaceId}:${itemId}`. */
interface PublishedCountItemDocument extends Document {
  readonly scope: string;
  readonly openFromMs: number | null;
  readonly closed: readonly (readonly [number, number])[];
  /** The last event applied: an event seen again changes no count twice. */
  readonly position: string;
}

const COUNT_COLUMNS: readonly ColumnDefinition[] = [
  { path: 'scope', type: 'text' },
  { path: 'level', type: 'text' },
  { path: 'startMs', type: 'number' },
  { path: 'change', type: 'number' },
];

/** A change of the count at a time: the version counted from `atMs` on (+1) or no longer (-1). */
type Step = readonly [atMs: number, change: number];

/**
 * Exact totals of the unfiltered as-of list without counting every version served at T
 * (queries/published-totals.ts): the sum of at most a few dozen period changes before T's hour,
 * plus the versions that started or ended within that hour. A read model of its own, so that a
 * store built before it is backfilled by replaying the log into it alone. It names no item once
 * the item is deleted or erased: only the periods' numbers remain, changed back.
 */
export const publishedCountsProjector: Projector = {
  name: 'published_counts',
  collections: [
    { name: PUBLISHED_COUNTS, indexes: [{ fields: ['scope', 'level', 'startMs', 'change'] }], columns: COUNT_COLUMNS },
    { name: PUBLISHED_COUNT_ITEMS, indexes: [] },
  ],
  eventTypes: new Set(['ContentPublished', 'ContentUnpublished', 'ContentDraftDeleted', 'ContentDeleted', 'ContentErased']),

  prefetch(recorded) {
    const { workspaceId, itemId, contentType } = recorded.data as { workspaceId: string; itemId: string; contentType: string };
    const scope = publishedVersionScope(workspaceId, contentType);
    const atMs = Date.parse(recorded.metadata.timestamp);
    return [
      { collection: PUBLISHED_COUNT_ITEMS, id: `${workspaceId}:${itemId}` },
      ...COUNT_LEVELS.map((level) => ({ collection: PUBLISHED_COUNTS, id: periodId(scope, level, atMs) })),
    ];
  },

  async project(recorded, view) {
    const event = contentEvent.parse(recorded);
    const { workspaceId, itemId, contentType } = event.data;
    const scope = publishedVersionScope(workspaceId, contentType);
    const position = sortablePosition(recorded.position);
    const key = `${workspaceId}:${itemId}`;
    const item = await view.get<PublishedCountItemDocument>(PUBLISHED_COUNT_ITEMS, key);
    if (item && item.position >= position) return [];
    const atMs = Date.parse(recorded.metadata.timestamp);
    const open = item?.openFromMs ?? null;
    const closed = open === null ? (item?.closed ?? []) : [...item!.closed, [open, atMs] as const];
    const closing = open === null ? [] : ended(open, atMs);

    switch (event.type) {
      case 'ContentPublished':
        return [
          ...(await counted(view, scope, [...closing, [atMs, 1]])),
          { kind: 'upsert', collection: PUBLISHED_COUNT_ITEMS, document: { id: key, scope, openFromMs: atMs, closed, position } satisfies PublishedCountItemDocument },
        ];
      case 'ContentUnpublished':
        if (!item || open === null) return [];
        return [...(await counted(view, scope, closing)), { kind: 'upsert', collection: PUBLISHED_COUNT_ITEMS, document: { ...item, openFromMs: null, closed, position } }];
      case 'ContentDraftDeleted':
        // As in published_versions: without a published version the item ends, its past included.
        return item && open === null ? removed(view, item) : [];
      case 'ContentDeleted':
      case 'ContentErased':
        return item ? removed(view, item) : [];
    }
    return [];
  },
};

const periodId = (scope: string, level: CountLevel, ms: number) => `${scope}:${level}:${periodStart(level, ms)}`;

/**
 * The end of a version served from `fromMs`, at `untilMs`. A version whose end is not after its
 * start (times ran backwards) was never served: its start is taken back instead.
 */
function ended(fromMs: number, untilMs: number): Step[] {
  return [untilMs > fromMs ? [untilMs, -1] : [fromMs, -1]];
}

/** The item's versions taken back, and its own document gone. */
async function removed(view: ReadView, item: PublishedCountItemDocument): Promise<Change[]> {
  const steps: Step[] = item.closed.filter(([from, until]) => until > from).flatMap(([from, until]): Step[] => [[from, -1], [until, 1]]);
  if (item.openFromMs !== null) steps.push([item.openFromMs, -1]);
  return [...(await counted(view, item.scope, steps)), { kind: 'delete', collection: PUBLISHED_COUNT_ITEMS, id: item.id }];
}

/** Each step added to its period at every level (steps that cancel out within a period change nothing). */
async function counted(view: ReadView, scope: string, steps: readonly Step[]): Promise<Change[]> {
  const changes = new Map<string, { level: CountLevel; startMs: number; change: number }>();
  for (const [atMs, change] of steps) {
    for (const level of COUNT_LEVELS) {
      const id = periodId(scope, level, atMs);
      const entry = changes.get(id) ?? { level, startMs: periodStart(level, atMs), change: 0 };
      changes.set(id, { ...entry, change: entry.change + change });
    }
  }
  const written: Change[] = [];
  for (const [id, { level, startMs, change }] of changes) {
    if (change === 0) continue;
    const stored = await view.get<PublishedCountDocument>(PUBLISHED_COUNTS, id);
    const document: PublishedCountDocument = { id, scope, level, startMs, change: (stored?.change ?? 0) + change };
    written.push({ kind: 'upsert', collection: PUBLISHED_COUNTS, document });
  }
  return written;
}
