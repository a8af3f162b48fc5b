import type { RecordedEvent } from '../../infra/eventstore/port';
import type { Change, ColumnDefinition, Document } from '../../infra/readstore/port';
import type { CollectionDefinition, DocumentKey, ReadView } from '../projector';
import type { ContentItemStateDocument } from './content-item-states';
import { publishedVersionScope } from './published-versions';

export const PUBLISHED_COUNTS = 'published_counts';

/**
 * Calendar periods (UTC), longest first: a time's past is whole months, then the hours of its own
 * month. Two levels, not four (years and days too, version 2): each step of a count wrote a row
 * per level, four of a create's 18 read-store rows; a total now sums at most 12 months a year of
 * history and 743 hours where it summed a few dozen periods.
 */
export const COUNT_LEVELS = ['month', 'hour'] as const;
export type CountLevel = (typeof COUNT_LEVELS)[number];

/** The start of the period of `level` holding `ms`. */
export function periodStart(level: CountLevel, ms: number): number {
  const time = new Date(ms);
  const [year, month, day, hour] = [time.getUTCFullYear(), time.getUTCMonth(), time.getUTCDate(), time.getUTCHours()];
  if (level === 'month') return Date.UTC(year, month);
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
 * (queries/published-totals.ts): the sum of the month changes before T's month and the hour
 * changes of T's month before T's hour, plus the versions that started or ended within that
 * hour. Kept by the published_versions
 * projector from the item state it shares (content-item-states.ts). It names no item: once an
 * item is deleted or erased only the periods' numbers remain, changed back.
 */
export const publishedCountCollections: readonly CollectionDefinition[] = [{ name: PUBLISHED_COUNTS, indexes: [{ fields: ['scope', 'level', 'startMs', 'change'] }], columns: COUNT_COLUMNS }];

/** The periods an event of an item may change, read with the batch. */
export function publishedCountKeys(recorded: RecordedEvent): DocumentKey[] {
  if (!COUNTED_EVENTS.has(recorded.type)) return [];
  const { workspaceId, contentType } = recorded.data as { workspaceId: string; contentType: string };
  const scope = publishedVersionScope(workspaceId, contentType);
  const atMs = Date.parse(recorded.metadata.timestamp);
  return COUNT_LEVELS.map((level) => ({ collection: PUBLISHED_COUNTS, id: periodId(scope, level, atMs) }));
}

const COUNTED_EVENTS: ReadonlySet<string> = new Set(['ContentPublished', 'ContentUnpublished']);

/** The period changes of an item's state change: a version opened, one closed, or, when the item ends, all it had taken back. */
export async function publishedCountChanges(
  view: ReadView,
  { type, workspaceId, contentType, atMs }: { type: string; workspaceId: string; contentType: string; atMs: number },
  { before, after }: { before: ContentItemStateDocument | null; after: ContentItemStateDocument | null },
): Promise<Change[]> {
  const scope = publishedVersionScope(workspaceId, contentType);
  if (!after) return before ? counted(view, scope, takenBack(before)) : [];
  const steps: Step[] = [];
  if (before?.open && (type === 'ContentPublished' || type === 'ContentUnpublished')) steps.push(ended(before.open.fromMs, atMs));
  if (type === 'ContentPublished') steps.push([atMs, 1]);
  return counted(view, scope, steps);
}

const periodId = (scope: string, level: CountLevel, ms: number) => `${scope}:${level}:${periodStart(level, ms)}`;

/**
 * The end of a version served from `fromMs`, at `untilMs`. A version whose end is not after its
 * start (times ran backwards) was never served: its start is taken back instead.
 */
function ended(fromMs: number, untilMs: number): Step {
  return untilMs > fromMs ? [untilMs, -1] : [fromMs, -1];
}

/** Every version the item had served, taken back. */
function takenBack(state: ContentItemStateDocument): Step[] {
  const steps: Step[] = state.closed.filter(([, from, until]) => until > from).flatMap(([, from, until]): Step[] => [[from, -1], [until, 1]]);
  if (state.open) steps.push([state.open.fromMs, -1]);
  return steps;
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
