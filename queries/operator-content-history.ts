import type { EventStore } from '../infra/eventstore/port';
import { forEachPage } from '../infra/eventstore/stream-pages';
import { contentStream } from '../src/domain/content/events';
import { notFound } from '../src/domain/errors';

/** One event of an item's stream as an operator sees it (GET /admin/workspaces/{id}/contents/{itemId}/history). */
export interface OperatorHistoryEntry {
  readonly version: number;
  readonly type: string;
  readonly at: string;
  readonly actor: string;
  readonly clientInfo: string | null;
  readonly correlationId: string;
  readonly serverRequestId: string | null;
  readonly contentType: string;
}

export interface OperatorHistoryRange {
  /** 1-based, inclusive. */
  readonly fromVersion: number;
  /** At most this many entries; every one from fromVersion on when absent. */
  readonly limit?: number;
}

/**
 * Any item's whole stream for operators, nothing hidden (deleted items, deleted types). The stream is
 * read a page at a time and only each event's metadata and content type are kept, so a long history
 * of large values is never in memory at once; `limit` bounds the answer itself.
 */
export async function operatorContentHistory(events: EventStore, workspaceId: string, itemId: string, range: OperatorHistoryRange): Promise<OperatorHistoryEntry[]> {
  const stream = contentStream(workspaceId, itemId);
  const entries: OperatorHistoryEntry[] = [];
  await forEachPage(
    events,
    stream,
    (page) => {
      for (const event of page) {
        entries.push({
          version: event.revision + 1,
          type: event.type,
          at: event.metadata.timestamp,
          actor: event.metadata.actor,
          clientInfo: event.metadata.clientInfo ?? null,
          correlationId: event.metadata.correlationId,
          serverRequestId: event.metadata.serverRequestId ?? null,
          contentType: (event.data as { contentType: string }).contentType,
        });
      }
    },
    { fromRevision: range.fromVersion - 1, ...(range.limit === undefined ? {} : { maxCount: range.limit }) },
  );
  if (entries.length === 0 && (await events.streamRevisions([stream])).get(stream) === -1) throw notFound(`no content item ${itemId} in this workspace`);
  return entries;
}
