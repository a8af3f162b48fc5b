import { isDeepStrictEqual } from 'node:util';
import { comparePositions, type EventStore, type Position, type RecordedEvent, START } from '../infra/eventstore/port';
import { foldStream } from '../infra/eventstore/stream-pages';
import { contentDecider, type ContentState, initialContentState } from '../src/domain/content/decider';
import { contentEvent, contentStream } from '../src/domain/content/events';
import { DomainError } from '../src/domain/errors';
import { awaitReadModels, type CommandContext, type ReadModelBarrier } from './aggregate';
import type { ContentCommands } from './content';

/** Which changes to revert: every given criterion must match (at least one is given). */
export interface UndoSelector {
  readonly actor?: string;
  /**
   * The server's own id of one request (EventMetadata.serverRequestId). An event written before
   * the server's id was recorded has only its correlation id, and is selected by that.
   */
  readonly requestId?: string;
  /** The client's X-Request-Id (the correlation id), which any client may send: given only with `actor`. */
  readonly correlationId?: string;
  /** Inclusive ISO time. */
  readonly from?: string;
  /** Exclusive ISO time. */
  readonly to?: string;
}

/**
 * What reverting an item does:
 * - restore: the item's content before its first matching change becomes the draft again
 *   (a ContentRestored; an item deleted by a matching change comes back), and its published
 *   stage is put back as it was then (see PublishedAction);
 * - delete: the item did not exist before its first matching change (the selection created
 *   it), so it is deleted;
 * - unchanged: the item already is as it was before (reverted earlier, or changed back);
 * - conflict: someone else changed it after the first matching change; it is left alone.
 */
export type UndoAction = 'restore' | 'delete' | 'unchanged' | 'conflict';

/**
 * What a restore does to the published stage, put back as it was before the first matching
 * change: publish the content published then (a ContentPublished), unpublish (nothing was
 * published then: a ContentUnpublished), or none (it already is as it was; also for items
 * deleted or left alone).
 */
export type PublishedAction = 'publish' | 'unpublish' | 'none';

export interface LaterChange {
  readonly version: number;
  readonly type: string;
  readonly at: string;
  readonly actor: string;
}

export interface UndoPlanItem {
  readonly itemId: string;
  readonly contentType: string;
  /** The item's version now. */
  readonly currentVersion: number;
  /** The version of the first matching change. */
  readonly firstChange: number;
  /** The version whose state is restored (the one before firstChange); null when the item is deleted or left alone. */
  readonly restoreVersion: number | null;
  readonly action: UndoAction;
  readonly publishedAction: PublishedAction;
  /** For a conflict: the changes by others after the first matching change. */
  readonly laterChanges: readonly LaterChange[];
}

export type UndoOutcome = 'restored' | 'deleted' | 'unchanged' | 'conflict' | 'failed';

export interface UndoResult extends UndoPlanItem {
  readonly outcome: UndoOutcome;
  /** Why it failed (the content no longer fits its type, or the item changed meanwhile). */
  readonly detail?: string;
}

const PAGE_SIZE = 1000;

/** Reverts every content change made by one actor, request or time window in a workspace (an operator feature). */
export class ContentUndo {
  constructor(
    private readonly events: EventStore,
    private readonly commands: ContentCommands,
    private readonly readModels: ReadModelBarrier,
  ) {}

  /** The items with matching changes, in the order of their first one: a scan of the log up to its head now. */
  async findItems(workspaceId: string, selector: UndoSelector): Promise<string[]> {
    const prefix = contentStream(workspaceId, '');
    const head = await this.events.headPosition();
    const found = new Set<string>();
    for (let after = START; comparePositions(after, head) < 0; ) {
      const page = await this.events.readAll({ after, maxCount: PAGE_SIZE });
      if (page.length === 0) break;
      for (const event of page) {
        if (comparePositions(event.position, head) > 0) return [...found];
        if (event.stream.startsWith(prefix) && matches(event, selector)) found.add(event.stream.slice(prefix.length));
      }
      after = page[page.length - 1]!.position;
    }
    return [...found];
  }

  /**
   * The plan (no `revert`) or the outcome of each item, in the order given; items without a
   * matching change are left out. The reverts run one after another without waiting for the
   * read models each time; the answer waits once, for the last (read-your-writes for the batch).
   */
  async run(workspaceId: string, itemIds: readonly string[], selector: UndoSelector, revert: { reason: string; context: CommandContext } | null): Promise<(UndoPlanItem | UndoResult)[]> {
    const answers: (UndoPlanItem | UndoResult)[] = [];
    let last: Position | null = null;
    for (const itemId of itemIds) {
      if (!revert) {
        const planned = await this.planItem(workspaceId, itemId, selector);
        if (planned) answers.push(planned);
        continue;
      }
      const reverted = await this.revertItem(workspaceId, itemId, selector, revert.reason, revert.context);
      if (!reverted) continue;
      answers.push(reverted.result);
      if (reverted.position) last = reverted.position;
    }
    if (last && revert) await awaitReadModels(this.readModels, last, revert.context);
    return answers;
  }

  /** What reverting one item would do, decided on its stream as it is now; null when none of its changes match. */
  async planItem(workspaceId: string, itemId: string, selector: UndoSelector): Promise<UndoPlanItem | null> {
    return (await this.plan(workspaceId, itemId, selector))?.item ?? null;
  }

  private async plan(workspaceId: string, itemId: string, selector: UndoSelector): Promise<{ item: UndoPlanItem; before: ContentState; now: ContentState } | null> {
    const read = await foldStream(this.events, contentStream(workspaceId, itemId), { now: initialContentState, first: null, laterChanges: [] }, (walk: UndoWalk, page) => walkPage(walk, page, selector));
    if (!read.first) return null;
    const { now, laterChanges } = read;
    const { before, contentType } = read.first;
    const first = before.version;
    const base = { itemId, contentType, currentVersion: now.version, firstChange: first + 1, laterChanges };
    const target = before.draft ?? before.published;
    if (!before.exists || !target) {
      return { before, now, item: { ...base, restoreVersion: null, action: now.exists ? decided(laterChanges, 'delete') : 'unchanged', publishedAction: 'none' } };
    }
    const publishedAction: PublishedAction = isDeepStrictEqual(now.published, before.published) ? 'none' : before.published ? 'publish' : 'unpublish';
    const alreadyReverted = now.exists && isDeepStrictEqual(now.draft ?? now.published, target) && publishedAction === 'none';
    const action = alreadyReverted ? 'unchanged' : decided(laterChanges, 'restore');
    return { before, now, item: { ...base, restoreVersion: first, action, publishedAction: action === 'restore' ? publishedAction : 'none' } };
  }

  /**
   * Reverts one item as planned on its current stream. A restore appends only if the item is
   * still at the version planned (else 'failed', changed meanwhile); the reason goes into the
   * restore event and, as clientInfo, into the metadata of every event appended.
   */
  private async revertItem(
    workspaceId: string,
    itemId: string,
    selector: UndoSelector,
    reason: string,
    context: CommandContext,
  ): Promise<{ result: UndoResult; position: Position | null } | null> {
    const plan = await this.plan(workspaceId, itemId, selector);
    if (!plan) return null;
    const { before, now, item } = plan;
    const withReason = { ...context, clientInfo: reason };
    try {
      if (item.action === 'delete') {
        await this.commands.change('Delete', workspaceId, item.contentType, itemId, withReason);
        return { result: { ...item, outcome: 'deleted' }, position: null };
      }
      if (item.action === 'restore') {
        const stage = before.draft ? 'draft' : 'published';
        const content = (before.draft ?? before.published)!;
        const restored = { content, fromVersion: item.restoreVersion!, stage, reason } as const;
        const published = item.publishedAction === 'publish' ? before.published! : item.publishedAction === 'unpublish' ? null : undefined;
        const guard = { undelete: !now.exists, basedOnVersion: now.version, ...(published === undefined ? {} : { published }) };
        const { position } = await this.commands.restore(workspaceId, item.contentType, itemId, restored, withReason, guard, { waitForReadModels: false });
        return { result: { ...item, outcome: 'restored' }, position };
      }
    } catch (error) {
      if (error instanceof DomainError) return { result: { ...item, outcome: 'failed', detail: error.message }, position: null };
      throw error;
    }
    return { result: { ...item, outcome: item.action === 'conflict' ? 'conflict' : 'unchanged' }, position: null };
  }
}

/** An item's stream walked a page at a time for a plan: its state now, and from its first matching change on, the state before it and the changes by others since. */
interface UndoWalk {
  readonly now: ContentState;
  readonly first: { readonly before: ContentState; readonly contentType: string } | null;
  /** Appended to as the walk goes (one array per plan). */
  readonly laterChanges: LaterChange[];
}

function walkPage(walk: UndoWalk, page: readonly RecordedEvent[], selector: UndoSelector): UndoWalk {
  let { now, first } = walk;
  for (const recorded of page) {
    const event = contentEvent.parse(recorded);
    const matched = matches(recorded, selector);
    if (!first && matched) first = { before: now, contentType: event.data.contentType };
    else if (first && !matched) walk.laterChanges.push({ version: recorded.revision + 1, type: recorded.type, at: recorded.metadata.timestamp, actor: recorded.metadata.actor });
    now = contentDecider.evolve(now, event);
  }
  return { now, first, laterChanges: walk.laterChanges };
}

function decided(laterChanges: readonly LaterChange[], action: 'restore' | 'delete'): UndoAction {
  return laterChanges.length > 0 ? 'conflict' : action;
}

function matches(event: RecordedEvent, selector: UndoSelector): boolean {
  const { actor, correlationId, serverRequestId, timestamp } = event.metadata;
  if (selector.actor !== undefined && actor !== selector.actor) return false;
  if (selector.requestId !== undefined && (serverRequestId ?? correlationId) !== selector.requestId) return false;
  if (selector.correlationId !== undefined && correlationId !== selector.correlationId) return false;
  const at = Date.parse(timestamp);
  if (selector.from !== undefined && at < Date.parse(selector.from)) return false;
  if (selector.to !== undefined && at >= Date.parse(selector.to)) return false;
  return true;
}
