import type { RecordedEvent } from '../../infra/eventstore/port';
import type { Change, ColumnDefinition, Document } from '../../infra/readstore/port';
import type { CollectionDefinition, DocumentKey, ReadView } from '../projector';
import type { ContentItemStateDocument } from './content-item-states';
import { publishedVersionScope } from './published-versions';

export const ITEM_COUNTS = 'item_counts';

const DAY_MS = 86_400_000;

/** The start of the UTC day holding `ms`. */
export const dayStart = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * The changes, within one UTC day of a scope (`${workspaceId}:${contentType}`), of a type's item
 * counts: `served`, the published versions served (+1 at a version's start, -1 at its end) and
 * `drafts`, the items holding a draft. Id `${scope}:${dayMs}`. The sum of every day is the count
 * now (the total of an unfiltered list); the sum of the days before a time, the count then.
 * Additions commute, so event times that run backwards (an import, a clock behind) do no harm, and
 * a deleted or erased item's days are changed back: only numbers remain, naming no item.
 *
 * One row per day, where published_versions version 4 wrote three per create: a row of both
 * stages' counts now (content_counts) and a month's and an hour's change of the served count
 * (published_counts). A total now sums a type's days (365 a year of history, index-only); an
 * as-of total counts the versions of its own day in the typed versions table (published-totals.ts).
 */
export interface ItemCountDocument extends Document {
  readonly scope: string;
  readonly dayMs: number;
  readonly served: number;
  readonly drafts: number;
}

const COUNT_COLUMNS: readonly ColumnDefinition[] = [
  { path: 'scope', type: 'text' },
  { path: 'dayMs', type: 'number' },
  { path: 'served', type: 'number' },
  { path: 'drafts', type: 'number' },
];

export const itemCountCollections: readonly CollectionDefinition[] = [{ name: ITEM_COUNTS, indexes: [{ fields: ['scope', 'dayMs', 'served', 'drafts'] }], columns: COUNT_COLUMNS }];

const itemCountId = (scope: string, dayMs: number) => `${scope}:${dayMs}`;

/** The day of an item event, read with the batch (the past days a delete or an erasure takes back are read as they come). */
export function itemCountKeys(recorded: RecordedEvent): DocumentKey[] {
  const { workspaceId, contentType } = recorded.data as { workspaceId: string; contentType: string };
  return [{ collection: ITEM_COUNTS, id: itemCountId(publishedVersionScope(workspaceId, contentType), dayStart(Date.parse(recorded.metadata.timestamp))) }];
}

/** A change of a count at a time. */
type Step = readonly [atMs: number, count: 'served' | 'drafts', change: number];

/** The day changes of an item's state change: its draft kept or gone, a version opened or closed, or, when the item ends, all it had taken back. */
export async function itemCountChanges(
  view: ReadView,
  { type, workspaceId, contentType, atMs }: { type: string; workspaceId: string; contentType: string; atMs: number },
  { before, after }: { before: ContentItemStateDocument | null; after: ContentItemStateDocument | null },
): Promise<Change[]> {
  const scope = publishedVersionScope(workspaceId, contentType);
  const steps: Step[] = [];
  const drafts = (after?.hasDraft ? 1 : 0) - (before?.hasDraft ? 1 : 0);
  if (drafts !== 0) steps.push([atMs, 'drafts', drafts]);
  if (!after) steps.push(...(before ? takenBack(before) : []));
  else {
    if (before?.open && (type === 'ContentPublished' || type === 'ContentUnpublished')) steps.push(ended(before.open.fromMs, atMs));
    if (type === 'ContentPublished') steps.push([atMs, 'served', 1]);
  }
  return counted(view, scope, steps);
}

/**
 * The end of a version served from `fromMs`, at `untilMs`. A version whose end is not after its
 * start (times ran backwards) was never served: its start is taken back instead.
 */
function ended(fromMs: number, untilMs: number): Step {
  return untilMs > fromMs ? [untilMs, 'served', -1] : [fromMs, 'served', -1];
}

/** Every version the item had served, taken back. */
function takenBack(state: ContentItemStateDocument): Step[] {
  const steps: Step[] = state.closed.filter(([, from, until]) => until > from).flatMap(([, from, until]): Step[] => [[from, 'served', -1], [until, 'served', 1]]);
  if (state.open) steps.push([state.open.fromMs, 'served', -1]);
  return steps;
}

/** Each step added to its day (steps that cancel out within a day change nothing). */
async function counted(view: ReadView, scope: string, steps: readonly Step[]): Promise<Change[]> {
  const days = new Map<number, { served: number; drafts: number }>();
  for (const [atMs, count, change] of steps) {
    const day = dayStart(atMs);
    const entry = days.get(day) ?? { served: 0, drafts: 0 };
    days.set(day, { ...entry, [count]: entry[count] + change });
  }
  const written: Change[] = [];
  for (const [dayMs, { served, drafts }] of days) {
    if (served === 0 && drafts === 0) continue;
    const id = itemCountId(scope, dayMs);
    const stored = await view.get<ItemCountDocument>(ITEM_COUNTS, id);
    const document: ItemCountDocument = { id, scope, dayMs, served: (stored?.served ?? 0) + served, drafts: (stored?.drafts ?? 0) + drafts };
    written.push({ kind: 'upsert', collection: ITEM_COUNTS, document });
  }
  return written;
}
