import type { EventStore } from '../infra/eventstore/port';
import { foldStream } from '../infra/eventstore/stream-pages';
import type { ReadStore } from '../infra/readstore/port';
import { initialContentState } from '../src/domain/content/decider';
import { type ContentBody, contentEvent, contentStream } from '../src/domain/content/events';
import { foldStoredContent } from '../src/domain/content/fold-stored';
import { ARRAY_ALIGNMENT_CELLS, type AlignmentBudget, createPatch, type PatchOperation } from '../src/domain/json-patch';
import type { ReleaseItem } from '../src/domain/release/events';
import { entryOutcome } from '../src/domain/release/item-changes';
import { type ItemRead, needsStream, readItemsNow } from './release-items-now';

/** Content one answer compares at most (published now and after each entry, as JSON characters); past it an entry's diff is left out. */
export const RELEASE_DIFF_BUDGET = 400_000;
/** Pinned entries whose draft moved on since their version need their stream read back to it: at most this many per answer. */
export const PINNED_READS_PER_ANSWER = 20;
/** How many events back from its version such a read looks for the pinned draft. */
const PINNED_LOOKBACK = 50;

const ENTRY_ALONE = 'GET /v2/releases/{id}/items/{itemId}';

/** What an entry would change in the published content (RFC 6902), its problem, or why this answer left them out. */
export interface EntryDiff {
  readonly problem: string | null;
  readonly diff: PatchOperation[] | null;
  readonly diffLeftOut?: string;
}

/**
 * The diffs of a release's entries, from the read models (each item's draft and published
 * documents, its erasure) and each stream's last revision, never replaying an item's stream but
 * for a pinned draft that moved on. One answer compares at most RELEASE_DIFF_BUDGET of content and
 * shares one array-alignment budget: however many entries and versions, it stays bounded.
 */
export class ReleaseEntryDiffs {
  constructor(
    private readonly store: ReadStore,
    private readonly events: EventStore,
  ) {}

  /** One page of entries, in order. */
  async page(workspaceId: string, entries: readonly ReleaseItem[]): Promise<EntryDiff[]> {
    const reads = await this.read(workspaceId, entries.map((entry) => entry.itemId));
    let pinnedReads = PINNED_READS_PER_ANSWER;
    const pinnedDrafts = await Promise.all(
      entries.map((entry) => {
        if (!needsStream(entry, reads.get(entry.itemId)!)) return undefined;
        if (pinnedReads-- <= 0) return 'left out' as const;
        return this.draftBackFrom(workspaceId, entry);
      }),
    );
    const budget = { left: RELEASE_DIFF_BUDGET };
    const alignment: AlignmentBudget = { cellsLeft: ARRAY_ALIGNMENT_CELLS };
    return entries.map((entry, i) => {
      const pinned = pinnedDrafts[i];
      if (pinned === 'left out') return leftOut(`its pinned version's draft needs its stream read, and this answer read ${PINNED_READS_PER_ANSWER}: ${ENTRY_ALONE} answers it`);
      if (pinned === 'too far') return leftOut(`its pinned version's draft lies more than ${PINNED_LOOKBACK} events back: ${ENTRY_ALONE} answers it`);
      return diffOf(entry, reads.get(entry.itemId)!, pinned, budget, alignment);
    });
  }

  /** One entry alone: its pinned draft read as far back as it lies, no budget but the item's own size. */
  async entry(workspaceId: string, entry: ReleaseItem): Promise<EntryDiff> {
    const read = (await this.read(workspaceId, [entry.itemId])).get(entry.itemId)!;
    const pinned = needsStream(entry, read)
      ? (await foldStream(this.events, contentStream(workspaceId, entry.itemId), initialContentState, foldStoredContent, { maxCount: entry.version })).draft
      : undefined;
    return diffOf(entry, read, pinned, { left: Number.POSITIVE_INFINITY }, { cellsLeft: ARRAY_ALIGNMENT_CELLS });
  }

  private read(workspaceId: string, itemIds: readonly string[]): Promise<Map<string, ItemRead>> {
    return readItemsNow(this.store, this.events, workspaceId, itemIds);
  }

  /**
   * The draft as it was at a pinned entry's version, read backwards from it: the first event that
   * set or removed the draft decides; 'too far' when none is found within PINNED_LOOKBACK events.
   */
  private async draftBackFrom(workspaceId: string, entry: ReleaseItem): Promise<ContentBody | null | 'too far'> {
    const back = await this.events.readStream(contentStream(workspaceId, entry.itemId), { direction: 'backwards', fromRevision: entry.version - 1, maxCount: PINNED_LOOKBACK });
    for (const recorded of back) {
      const event = contentEvent.parse(recorded);
      if (event.type === 'ContentDraftSaved' || event.type === 'ContentRestored') return { fields: event.data.fields, translations: event.data.translations };
      if (event.type === 'ContentDraftDeleted' || event.type === 'ContentDeleted' || event.type === 'ContentErased') return null;
    }
    return back.at(-1)?.revision === 0 || back.length === 0 ? null : 'too far';
  }
}

function diffOf(entry: ReleaseItem, read: ItemRead, pinnedDraft: ContentBody | null | undefined, budget: { left: number }, alignment: AlignmentBudget): EntryDiff {
  const outcome = entryOutcome(entry, read.now, () => (pinnedDraft === undefined ? read.now.draft : pinnedDraft));
  if (!outcome.ok) return { problem: outcome.problem, diff: null };
  const size = JSON.stringify(read.now.published ?? null).length + JSON.stringify(outcome.publishedAfter ?? null).length;
  if (size > budget.left) return leftOut(`this answer's diff budget (${RELEASE_DIFF_BUDGET} characters of content compared) is spent: ${ENTRY_ALONE} answers it`);
  budget.left -= size;
  return { problem: null, diff: createPatch(read.now.published, outcome.publishedAfter, alignment) };
}

const leftOut = (reason: string): EntryDiff => ({ problem: null, diff: null, diffLeftOut: reason });
