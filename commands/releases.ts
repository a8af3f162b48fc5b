import { randomUUID } from 'node:crypto';
import { type EventStore, type RecordedEvent, WrongExpectedRevisionError } from '../infra/eventstore/port';
import { foldStream, foldStreams } from '../infra/eventstore/stream-pages';
import type { ContentTypeDocument } from '../projections/read-models/content-types';
import { type ContentState, initialContentState } from '../src/domain/content/decider';
import { contentEvent, contentStream } from '../src/domain/content/events';
import { foldStoredContent } from '../src/domain/content/fold-stored';
import { DomainError, type FieldProblem, invalidFields, notFound } from '../src/domain/errors';
import { foldRelease, initialReleaseState, releaseDecider, type ReleaseState } from '../src/domain/release/decider';
import { type ReleaseAction, type ReleaseItem, releaseEvent, releaseStream } from '../src/domain/release/events';
import { type ItemChange, releaseItemChange, revertItemChange } from '../src/domain/release/item-changes';
import { extendTrail, type ItemEvent, type ItemTrail, startTrail } from '../src/domain/release/item-trail';
import type { CommandContext, CommandRunner, DomainEvent } from './aggregate';
import { contentAggregate } from './content';

export const releaseAggregate = { decider: releaseDecider, parse: releaseEvent.parse, fold: foldRelease };

/** How often a publish or revert is decided again when an item moved between its read and the append. */
const APPEND_ATTEMPTS = 3;

export interface ReleaseItemInput {
  readonly itemId: string;
  readonly contentType: string;
  readonly action: ReleaseAction;
  /** Pins the release to publish the item's draft as it was at this version. */
  readonly version?: number;
}

/** One entry of a release as it would be published now: its problem, or null. */
export interface ReleaseItemPreview {
  readonly itemId: string;
  readonly problem: string | null;
}

/**
 * Releases: a named set of intended item changes, published (or reverted) as ONE append across
 * the release's stream and every item's stream, each on its expected revision. Items of
 * personal-data content types are refused: their values are sealed per item when appended,
 * which a release's append does not do yet.
 */
export class ReleaseCommands {
  constructor(
    private readonly runner: CommandRunner,
    /** The log as the service reads it (personal-data values opened). */
    private readonly events: EventStore,
    private readonly contentType: (workspaceId: string, key: string) => Promise<ContentTypeDocument | null>,
    /** Tells the release scheduler a time was set, so an early one is not waited for. */
    private readonly onScheduled: () => void,
  ) {}

  async create(workspaceId: string, name: string, context: CommandContext): Promise<string> {
    const releaseId = randomUUID();
    await this.runner.create(releaseAggregate, releaseStream(workspaceId, releaseId), { type: 'Create', workspaceId, releaseId, name }, context);
    return releaseId;
  }

  /**
   * Adds the items (or replaces their entries), recording each one's version now: an unpinned
   * entry is refused at publish if its item changes. One item that does not exist refuses them all.
   */
  async setItems(workspaceId: string, releaseId: string, inputs: readonly ReleaseItemInput[], context: CommandContext): Promise<void> {
    const problems: FieldProblem[] = [];
    for (const key of new Set(inputs.map((input) => input.contentType))) {
      const type = await this.contentType(workspaceId, key);
      if (!type) problems.push({ field: 'contentType', message: `content type ${key} does not exist` });
      else if (type.personalData) problems.push({ field: 'contentType', message: `${key} is a personal-data content type: its items cannot be put in a release` });
    }
    const states =
      problems.length > 0
        ? new Map<string, ContentState>()
        : await foldStreams(this.events, inputs.map((input) => contentStream(workspaceId, input.itemId)), () => initialContentState, foldStoredContent);
    const items = inputs.map((input) => {
      const state = states.get(contentStream(workspaceId, input.itemId)) ?? initialContentState;
      if (!state.exists || state.contentType !== input.contentType) problems.push({ field: `items.${input.itemId}`, message: `content item ${input.itemId} does not exist in ${input.contentType}` });
      else if (input.version !== undefined && input.version > state.version) problems.push({ field: `items.${input.itemId}`, message: `content item ${input.itemId} has no version ${input.version}` });
      return { itemId: input.itemId, contentType: input.contentType, action: input.action, version: input.version ?? state.version, pinned: input.version !== undefined };
    });
    if (problems.length > 0) throw invalidFields(problems);
    await this.runner.run(releaseAggregate, releaseStream(workspaceId, releaseId), { type: 'SetItems', workspaceId, releaseId, items }, context);
  }

  async removeItem(workspaceId: string, releaseId: string, itemId: string, context: CommandContext): Promise<void> {
    await this.runner.run(releaseAggregate, releaseStream(workspaceId, releaseId), { type: 'RemoveItem', workspaceId, releaseId, itemId }, context);
  }

  /** Sets (or with null clears) when the Open release publishes itself. */
  async schedule(workspaceId: string, releaseId: string, publishAt: string | null, context: CommandContext): Promise<void> {
    await this.runner.run(releaseAggregate, releaseStream(workspaceId, releaseId), { type: 'Schedule', workspaceId, releaseId, publishAt }, context);
    this.onScheduled();
  }

  /**
   * `publishAt` / `unpublishAt` of one item: each is a release of that one entry, scheduled, and
   * pinned to the item's version now: the publish puts live what was scheduled (later edits stay
   * drafts), and neither is refused because the item changed since. Returns the ids, publish first.
   */
  async scheduleItem(workspaceId: string, item: { itemId: string; contentType: string }, times: { publishAt: string | null; unpublishAt: string | null }, context: CommandContext): Promise<string[]> {
    const state = await this.runner.load(contentAggregate, contentStream(workspaceId, item.itemId));
    // Checked before any release is made, so a wrong item leaves none behind.
    if (!state.exists || state.contentType !== item.contentType) throw notFound(`content item ${item.itemId} does not exist in ${item.contentType}`);
    const version = state.version;
    const planned = [
      ...(times.publishAt === null ? [] : [{ action: 'publish' as const, at: times.publishAt }]),
      ...(times.unpublishAt === null ? [] : [{ action: 'unpublish' as const, at: times.unpublishAt }]),
    ];
    const ids: string[] = [];
    for (const { action, at } of planned) {
      const releaseId = await this.create(workspaceId, `${action} ${item.contentType}/${item.itemId} at ${at}`, context);
      await this.setItems(workspaceId, releaseId, [{ ...item, action, version }], context);
      await this.schedule(workspaceId, releaseId, at, context);
      ids.push(releaseId);
    }
    return ids;
  }

  /**
   * The scheduled publish, run by the release scheduler: publishes unless the release was
   * rescheduled or closed meanwhile (another instance got there first); when an entry cannot be
   * published, the release ends Failed with every problem and nothing is published.
   */
  async publishScheduled(workspaceId: string, releaseId: string, publishAt: string, context: CommandContext): Promise<'published' | 'failed' | 'skipped'> {
    const { state } = await this.load(workspaceId, releaseId);
    if (state.status !== 'Open' || state.publishAt !== publishAt) return 'skipped';
    if (state.items.size === 0) return this.fail(workspaceId, releaseId, ['the release has no items'], context);
    try {
      await this.appendAll(workspaceId, releaseId, { type: 'MarkPublished', workspaceId, releaseId, scheduledFor: publishAt }, context, (item, trail) => releaseItemChange(workspaceId, item, trail));
      return 'published';
    } catch (error) {
      if (!(error instanceof DomainError && error.kind === 'conflict')) throw error;
      if (error.problems.length === 0) return 'skipped';
      return this.fail(workspaceId, releaseId, error.problems.map((problem) => problem.message), context);
    }
  }

  private async fail(workspaceId: string, releaseId: string, problems: readonly string[], context: CommandContext): Promise<'failed' | 'skipped'> {
    try {
      await this.runner.run(releaseAggregate, releaseStream(workspaceId, releaseId), { type: 'MarkFailed', workspaceId, releaseId, problems }, context);
      return 'failed';
    } catch (error) {
      // Closed meanwhile (published, cancelled) by someone else.
      if (error instanceof DomainError && error.kind === 'conflict') return 'skipped';
      throw error;
    }
  }

  async cancel(workspaceId: string, releaseId: string, context: CommandContext): Promise<void> {
    await this.runner.run(releaseAggregate, releaseStream(workspaceId, releaseId), { type: 'Cancel', workspaceId, releaseId }, context);
  }

  /** Every entry decided on its item's stream as it is now, nothing appended (validate). */
  async preview(workspaceId: string, releaseId: string): Promise<ReleaseItemPreview[]> {
    const { state } = await this.load(workspaceId, releaseId);
    const changes = await this.decideItems(workspaceId, releaseId, state, (item, trail) => releaseItemChange(workspaceId, item, trail));
    return changes.map(({ itemId, change }) => ({ itemId, problem: change.ok ? null : change.problem }));
  }

  /** Publishes every entry as one append with the ReleasePublished; any problem refuses the whole release (409 naming each item). */
  async publish(workspaceId: string, releaseId: string, context: CommandContext): Promise<void> {
    await this.appendAll(workspaceId, releaseId, { type: 'MarkPublished', workspaceId, releaseId }, context, (item, trail) => releaseItemChange(workspaceId, item, trail));
  }

  /** Puts back each item's published state from before the release, as one append with the ReleaseReverted. */
  async revert(workspaceId: string, releaseId: string, reason: string, context: CommandContext): Promise<void> {
    await this.appendAll(workspaceId, releaseId, { type: 'MarkReverted', workspaceId, releaseId, reason }, context, (item, trail) => revertItemChange(workspaceId, item.contentType, item.itemId, trail, reason));
  }

  private async appendAll(
    workspaceId: string,
    releaseId: string,
    command: Parameters<typeof releaseDecider.decide>[0],
    context: CommandContext,
    decide: (item: ReleaseItem, trail: ItemTrail) => ItemChange,
  ): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const { state, revision } = await this.load(workspaceId, releaseId);
      const releaseEvents: DomainEvent[] = releaseDecider.decide(command, state);
      const changes = await this.decideItems(workspaceId, releaseId, state, decide);
      const problems: FieldProblem[] = changes.flatMap(({ itemId, change }) => (change.ok ? [] : [{ field: `items.${itemId}`, message: `content item ${itemId} ${change.problem}` }]));
      if (problems.length > 0) throw new DomainError('conflict', `release ${releaseId} cannot be applied: ${problems.map((problem) => problem.message).join('; ')}`, undefined, problems);
      const items = changes.flatMap(({ itemId, change }) =>
        change.ok && change.events.length > 0 ? [{ stream: contentStream(workspaceId, itemId), events: change.events, expectedRevision: change.expectedRevision }] : [],
      );
      try {
        await this.runner.appendMany([{ stream: releaseStream(workspaceId, releaseId), events: releaseEvents, expectedRevision: revision }, ...items], { ...context, releaseId });
        return;
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= APPEND_ATTEMPTS) throw error;
      }
    }
  }

  private load(workspaceId: string, releaseId: string): Promise<{ state: ReleaseState; revision: number }> {
    return loadRelease(this.events, workspaceId, releaseId);
  }

  /** Folds every item's stream into its trail (a page of events read at a time, however many items) and decides each entry on it. */
  private async decideItems(
    workspaceId: string,
    releaseId: string,
    state: ReleaseState,
    decide: (item: ReleaseItem, trail: ItemTrail) => ItemChange,
  ): Promise<{ itemId: string; change: ItemChange }[]> {
    const items = [...state.items.values()];
    const byStream = new Map(items.map((item) => [contentStream(workspaceId, item.itemId), item]));
    const trails = await foldStreams(this.events, [...byStream.keys()], (stream) => startTrail(byStream.get(stream)!.version, releaseId), (trail, page) => extendTrail(trail, page.map(itemEvent)));
    return items.map((item) => ({ itemId: item.itemId, change: decide(item, trails.get(contentStream(workspaceId, item.itemId))!) }));
  }
}

/** A release of the workspace folded from its stream, as its publish decides on it; 404 when the workspace has no such release. */
export async function loadRelease(events: EventStore, workspaceId: string, releaseId: string): Promise<{ state: ReleaseState; revision: number }> {
  const folded = await foldStream(events, releaseStream(workspaceId, releaseId), { state: initialReleaseState, revision: -1 }, ({ state }, page) => ({
    state: foldRelease(state, page.map((event) => releaseEvent.parse(event))),
    revision: page[page.length - 1]!.revision,
  }));
  if (folded.revision < 0) throw notFound(`release ${releaseId} does not exist`);
  return folded;
}

/** An item's recorded event as a release entry is decided on (releaseItemChange). */
export function itemEvent(recorded: RecordedEvent): ItemEvent {
  const event = contentEvent.parse(recorded);
  return recorded.metadata.releaseId === undefined ? { event } : { event, releaseId: recorded.metadata.releaseId };
}
