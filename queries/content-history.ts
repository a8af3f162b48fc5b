import type { EventStore, RecordedEvent } from '../infra/eventstore/port';
import { type Attribution, attributionOf } from '../src/domain/audit/actor';
import type { ActorNames } from './actor-names';
import { contentDecider, type ContentState, initialContentState } from '../src/domain/content/decider';
import { contentEvent, contentStream } from '../src/domain/content/events';
import { foldEvents } from '../src/domain/decider';
import { notFound } from '../src/domain/errors';

export interface HistoryEntry extends Attribution {
  readonly version: number;
  readonly type: string;
  readonly at: string;
  readonly actor: string;
  readonly clientInfo: string | null;
  /** The id of the request that wrote it (the event's correlation id). */
  readonly requestId: string | null;
}

/**
 * The part of an item's stream that API keys may still read. Deleted content is not served:
 * nothing before the item's last deletion (a delete, or a draft delete that left no
 * published version), and no draft written before a draft delete that left the published
 * version. The events themselves stay in the log for operators and audit export.
 */
interface ServedStream {
  readonly recorded: RecordedEvent[];
  /** Index of the first event of the item's current life. */
  readonly firstServed: number;
  /** Versions up to this index are served without their draft (-1: none). */
  readonly draftsErasedThrough: number;
}

/** The audit trail of one item: the only queries that read the event log (one stream). */
export class ContentHistoryQueries {
  constructor(
    private readonly events: EventStore,
    private readonly actorNames: ActorNames,
  ) {}

  async history(workspaceId: string, contentType: string, itemId: string): Promise<HistoryEntry[]> {
    const { recorded, firstServed } = await this.served(workspaceId, contentType, itemId);
    return this.actorNames.fillIn(
      recorded.slice(firstServed).map((event) => ({
        version: event.revision + 1,
        type: event.type,
        at: event.metadata.timestamp,
        actor: event.metadata.actor,
        ...attributionOf(event.metadata),
        clientInfo: event.metadata.clientInfo ?? null,
        requestId: event.metadata.correlationId ?? null,
      })),
    );
  }

  /** The item as it was after version `version` (1-based), with when that version was written. */
  async atVersion(
    workspaceId: string,
    contentType: string,
    itemId: string,
    version: number,
  ): Promise<{ state: ContentState; at: string; latest: number; createdAt: string }> {
    const { recorded, firstServed, draftsErasedThrough } = await this.served(workspaceId, contentType, itemId);
    const index = version - 1;
    if (index < firstServed || index >= recorded.length) throw notFound(`content item ${itemId} has no version ${version}`);
    const state = foldEvents(contentDecider, recorded.slice(firstServed, index + 1).map((event) => contentEvent.parse(event)));
    return {
      state: index <= draftsErasedThrough ? { ...state, draft: null } : state,
      at: recorded[index]!.metadata.timestamp,
      latest: recorded.length,
      createdAt: recorded[firstServed]!.metadata.timestamp,
    };
  }

  /** 404 unless the item exists now, under this content type. */
  private async served(workspaceId: string, contentType: string, itemId: string): Promise<ServedStream> {
    const recorded = await this.events.readStream(contentStream(workspaceId, itemId));
    let state = initialContentState;
    let firstServed = 0;
    let draftsErasedThrough = -1;
    recorded.forEach((event, index) => {
      const parsed = contentEvent.parse(event);
      state = contentDecider.evolve(state, parsed);
      if (parsed.type === 'ContentDeleted' || (parsed.type === 'ContentDraftDeleted' && !state.exists)) firstServed = index + 1;
      else if (parsed.type === 'ContentDraftDeleted') draftsErasedThrough = index;
    });
    if (!state.exists || state.contentType !== contentType) throw notFound(`content item ${itemId} does not exist in ${contentType}`);
    return { recorded, firstServed, draftsErasedThrough };
  }
}

