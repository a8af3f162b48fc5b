import type { EventStore } from '../infra/eventstore/port';
import { contentDecider, type ContentState } from '../src/domain/content/decider';
import { contentEvent, contentStream } from '../src/domain/content/events';
import { foldEvents } from '../src/domain/decider';
import { notFound } from '../src/domain/errors';

export interface HistoryEntry {
  readonly version: number;
  readonly type: string;
  readonly at: string;
  readonly actor: string;
  readonly clientInfo: string | null;
}

/** The audit trail of one item: the only queries that read the event log (one stream). */
export class ContentHistoryQueries {
  constructor(private readonly events: EventStore) {}

  async history(workspaceId: string, contentType: string, itemId: string): Promise<HistoryEntry[]> {
    const recorded = await this.ownEvents(workspaceId, contentType, itemId);
    return recorded.map((event) => ({
      version: event.revision + 1,
      type: event.type,
      at: event.metadata.timestamp,
      actor: event.metadata.actor,
      clientInfo: event.metadata.clientInfo ?? null,
    }));
  }

  /** The item as it was after version `version` (1-based), with when that version was written. */
  async atVersion(
    workspaceId: string,
    contentType: string,
    itemId: string,
    version: number,
  ): Promise<{ state: ContentState; at: string; latest: number; createdAt: string }> {
    const recorded = await this.ownEvents(workspaceId, contentType, itemId);
    if (version < 1 || version > recorded.length) throw notFound(`content item ${itemId} has no version ${version}`);
    const upTo = recorded.slice(0, version);
    return {
      state: foldEvents(contentDecider, upTo.map((event) => contentEvent.parse(event))),
      at: upTo[upTo.length - 1]!.metadata.timestamp,
      latest: recorded.length,
      createdAt: recorded[0]!.metadata.timestamp,
    };
  }

  private async ownEvents(workspaceId: string, contentType: string, itemId: string) {
    const recorded = await this.events.readStream(contentStream(workspaceId, itemId));
    const first = recorded[0] ? contentEvent.parse(recorded[0]) : null;
    if (!first || first.data.contentType !== contentType) throw notFound(`content item ${itemId} does not exist in ${contentType}`);
    return recorded;
  }
}
