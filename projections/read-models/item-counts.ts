import type { RecordedEvent } from '../../infra/eventstore/port';
import type { Change, ColumnDefinition, Document } from '../../infra/readstore/port';
import type { CollectionDefinition, DocumentKey, Projector, ReadView } from '../projector';
import { CONTENT_ITEM_STATES, type ContentItemStateDocument, contentItemStateId } from './content-item-states';
import { ITEM_EVENTS, itemStep, itemTransition, publishedVersionScope } from './published-versions';

export const ITEM_COUNTS = 'item_counts';

const DAY_MS = 86_400_000;

/** The start of the UTC day holding `ms`. */
export const dayStart = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

/**
 * The change, within one UTC day of a scope (`${workspaceId}:${contentType}`), of the number of
 * published versions served: +1 at a version's start, -1 at its end. The sum of the days before a
 * time is the number served then. Additions commute, so event times that run backwards (an import,
 * a clock behind) do no harm, and a deleted or erased item's days are changed back: only numbers
 * remain, naming no item.
 *
 * The latest day of a scope is its head (ItemCountHead, id `${scope}:now`), which also holds the
 * counts now (served and drafts); an earlier day is a row of its own (id `${scope}:${dayMs}`),
 * written when the head moves to a later day or when an event's time falls before the head's day.
 * So a write changes one row (the head), where published_versions version 4 wrote three per
 * create: a row of both stages' counts now (content_counts) and a month's and an hour's change of
 * the served count (published_counts). A total now is the head's (one read); a total at T sums the
 * days before T's day (one index-only entry a day of history) and counts the versions of T's own
 * day in the type's typed versions table (queries/published-totals.ts).
 */
export interface ItemCountDocument extends Document {
  readonly scope: string;
  readonly dayMs: number;
  readonly served: number;
}

/** The latest day of a scope, and the counts now: the served versions (every day's changes, its own included) and the drafts. */
export interface ItemCountHead extends ItemCountDocument {
  readonly servedNow: number;
  readonly draftsNow: number;
}

export const itemCountHeadId = (scope: string) => `${scope}:now`;
const itemCountDayId = (scope: string, dayMs: number) => `${scope}:${dayMs}`;

const COUNT_COLUMNS: readonly ColumnDefinition[] = [
  { path: 'scope', type: 'text' },
  { path: 'dayMs', type: 'number' },
  { path: 'served', type: 'number' },
];

const itemCountCollections: readonly CollectionDefinition[] = [{ name: ITEM_COUNTS, indexes: [{ fields: ['scope', 'dayMs', 'served'] }], columns: COUNT_COLUMNS }];

/**
 * The counts of unfiltered lists, now and at a time, from the item state published_versions keeps
 * (content_item_states): it runs before that projector in a batch, so it reads the state as it
 * stood before the event, and it is backfilled with it. Until version 5 of published_versions that
 * projector kept the counts itself (content_counts, published_counts), so that a new way of
 * counting rebuilt every content read model; this one is rebuilt alone, its source replayed beside it.
 */
export const itemCountsProjector: Projector = {
  name: 'item_counts',
  collections: itemCountCollections,
  reads: ['published_versions'],
  eventTypes: ITEM_EVENTS,

  prefetch(recorded) {
    return itemCountKeys(recorded);
  },

  async project(recorded, view) {
    const step = itemStep(recorded);
    const transition = await itemTransition(step, view);
    if (!transition || transition.after === transition.before) return [];
    return itemCountChanges(view, step, transition);
  },
};

/** The item's state and the head of its scope, read with the batch (an earlier day, which few events change, is read as it comes). */
function itemCountKeys(recorded: RecordedEvent): DocumentKey[] {
  const { workspaceId, itemId, contentType } = recorded.data as { workspaceId: string; itemId: string; contentType: string };
  return [
    { collection: CONTENT_ITEM_STATES, id: contentItemStateId(workspaceId, itemId) },
    { collection: ITEM_COUNTS, id: itemCountHeadId(publishedVersionScope(workspaceId, contentType)) },
  ];
}

/** A change of the number served at a time. */
type Step = readonly [atMs: number, change: number];

/** The changes of an item's state change: its draft kept or gone, a version opened or closed, or, when the item ends, all it had served taken back. */
async function itemCountChanges(
  view: ReadView,
  { type, workspaceId, contentType, atMs }: { type: string; workspaceId: string; contentType: string; atMs: number },
  { before, after }: { before: ContentItemStateDocument | null; after: ContentItemStateDocument | null },
): Promise<Change[]> {
  const drafts = (after?.hasDraft ? 1 : 0) - (before?.hasDraft ? 1 : 0);
  const steps: Step[] = [];
  if (!after) steps.push(...(before ? takenBack(before) : []));
  else {
    if (before?.open && (type === 'ContentPublished' || type === 'ContentUnpublished')) steps.push(ended(before.open.fromMs, atMs));
    if (type === 'ContentPublished') steps.push([atMs, 1]);
  }
  return counted(view, publishedVersionScope(workspaceId, contentType), dayStart(atMs), steps, drafts);
}

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

/**
 * Each step added to its day (steps that cancel out within a day change nothing) and to the
 * number served now, and `drafts` to the drafts now. An event or a step after the head's day
 * first moves the head there, leaving its former day as a row.
 */
async function counted(view: ReadView, scope: string, eventDay: number, steps: readonly Step[], drafts: number): Promise<Change[]> {
  const changes = new Map<number, number>();
  for (const [atMs, change] of steps) changes.set(dayStart(atMs), (changes.get(dayStart(atMs)) ?? 0) + change);
  for (const [day, change] of changes) if (change === 0) changes.delete(day);
  if (changes.size === 0 && drafts === 0) return [];
  const latest = Math.max(eventDay, ...changes.keys());
  const stored = await view.get<ItemCountHead>(ITEM_COUNTS, itemCountHeadId(scope));
  let head: ItemCountHead = stored ?? { id: itemCountHeadId(scope), scope, dayMs: latest, served: 0, servedNow: 0, draftsNow: 0 };
  const days = new Map<number, ItemCountDocument>();
  if (latest > head.dayMs) {
    if (head.served !== 0) days.set(head.dayMs, { id: itemCountDayId(scope, head.dayMs), scope, dayMs: head.dayMs, served: head.served });
    head = { ...head, dayMs: latest, served: 0 };
  }
  head = { ...head, draftsNow: head.draftsNow + drafts };
  for (const [dayMs, served] of changes) {
    head = { ...head, servedNow: head.servedNow + served };
    if (dayMs === head.dayMs) {
      head = { ...head, served: head.served + served };
      continue;
    }
    const id = itemCountDayId(scope, dayMs);
    const day = days.get(dayMs) ?? (await view.get<ItemCountDocument>(ITEM_COUNTS, id)) ?? { id, scope, dayMs, served: 0 };
    days.set(dayMs, { ...day, served: day.served + served });
  }
  return [...days.values(), head].map((document) => ({ kind: 'upsert', collection: ITEM_COUNTS, document }));
}
