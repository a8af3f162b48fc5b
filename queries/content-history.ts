import type { EventStore, RecordedEvent } from '../infra/eventstore/port';
import { type Attribution, attributionOf } from '../src/domain/audit/actor';
import type { ActorNames } from './actor-names';
import { contentDecider, initialContentState } from '../src/domain/content/decider';
import { contentEvent, contentStream } from '../src/domain/content/events';
import { gone, notFound } from '../src/domain/errors';
import { ContentTimeline } from './content-timeline';

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
  /** The item was erased: its history keeps who did what when, and no version is readable. */
  readonly erased: boolean;
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

  /** The item's draft and published states after each served version (stage-aware versions, as-of reads, restore, diff). */
  async timeline(workspaceId: string, contentType: string, itemId: string): Promise<ContentTimeline> {
    const { recorded, firstServed, draftsErasedThrough, erased } = await this.served(workspaceId, contentType, itemId);
    if (erased) throw gone(`content item ${itemId} was erased: its versions are not readable`);
    return ContentTimeline.replay(recorded.slice(firstServed), draftsErasedThrough + 1, recorded.length);
  }

  /** 404 unless the item exists now, under this content type, or was erased (then only its metadata is served). */
  private async served(workspaceId: string, contentType: string, itemId: string): Promise<ServedStream> {
    const recorded = await this.events.readStream(contentStream(workspaceId, itemId));
    let state = initialContentState;
    let firstServed = 0;
    let draftsErasedThrough = -1;
    let lastLifeStart = 0;
    recorded.forEach((event, index) => {
      const parsed = contentEvent.parse(event);
      state = contentDecider.evolve(state, parsed);
      if (parsed.type === 'ContentDeleted' || (parsed.type === 'ContentDraftDeleted' && !state.exists)) {
        lastLifeStart = firstServed;
        firstServed = index + 1;
      } else if (parsed.type === 'ContentDraftDeleted') draftsErasedThrough = index;
    });
    if (state.erased && state.heldType === contentType) {
      // An item erased after a delete shows its last life and the erasure.
      const start = recorded[firstServed]?.type === 'ContentErased' ? lastLifeStart : firstServed;
      return { recorded, firstServed: start, draftsErasedThrough, erased: true };
    }
    if (!state.exists || state.contentType !== contentType) throw notFound(`content item ${itemId} does not exist in ${contentType}`);
    return { recorded, firstServed, draftsErasedThrough, erased: false };
  }
}

