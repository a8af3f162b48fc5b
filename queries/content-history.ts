import type { EventHeader, EventStore } from '../infra/eventstore/port';
import type { ContentItemDocument } from '../projections/read-models/content-items';
import { type Attribution, attributionOf } from '../src/domain/audit/actor';
import type { ActorNames } from './actor-names';
import { contentEvent, contentStream } from '../src/domain/content/events';
import { gone, notFound } from '../src/domain/errors';
import { ContentTimeline, type StageAtVersion } from './content-timeline';

export interface HistoryEntry extends Attribution {
  readonly version: number;
  readonly type: string;
  readonly at: string;
  readonly actor: string;
  readonly clientInfo: string | null;
  /** The id of the request that wrote it (the event's correlation id: the client's X-Request-Id, if it sent one). */
  readonly requestId: string | null;
  /** The server's own id of that request; null for events written before it was recorded. */
  readonly serverRequestId: string | null;
  /** The content release that wrote it; absent for events no release wrote. */
  readonly releaseId?: string;
}

/**
 * The part of an item's stream that API keys may still read. Deleted content is not served:
 * nothing before the item's last deletion (a delete, or a draft delete that left no
 * published version), and no draft written before a draft delete that left the published
 * version. The events themselves stay in the log for operators and audit export.
 */
interface ServedStream {
  /** Every event of the stream, without its data. */
  readonly headers: EventHeader[];
  /** Index of the first event of the item's current life. */
  readonly firstServed: number;
  /** Versions up to this index are served without their draft (-1: none). */
  readonly draftsErasedThrough: number;
  /** The item was erased: its history keeps who did what when, and no version is readable. */
  readonly erased: boolean;
}

/**
 * The audit trail of one item: the only queries that read the event log (one stream). They read
 * the stream's headers (no values) and the values of only the events a version shows, so the
 * work per request does not grow with what earlier versions held.
 */
export class ContentHistoryQueries {
  constructor(
    private readonly events: EventStore,
    private readonly actorNames: ActorNames,
  ) {}

  async history(workspaceId: string, contentType: string, itemId: string): Promise<HistoryEntry[]> {
    const { headers, firstServed } = await this.served(workspaceId, contentType, itemId);
    return this.actorNames.fillIn(
      headers.slice(firstServed).map((event) => ({
        version: event.revision + 1,
        type: event.type,
        at: event.metadata.timestamp,
        actor: event.metadata.actor,
        ...attributionOf(event.metadata),
        clientInfo: event.metadata.clientInfo ?? null,
        requestId: event.metadata.correlationId ?? null,
        serverRequestId: event.metadata.serverRequestId ?? null,
        ...(event.metadata.releaseId === undefined ? {} : { releaseId: event.metadata.releaseId }),
      })),
    );
  }

  /** The item's draft and published states after each served version, without their values (stage-aware versions, as-of reads, restore, diff). */
  async timeline(workspaceId: string, contentType: string, itemId: string): Promise<ContentTimeline> {
    const { headers, firstServed, draftsErasedThrough, erased } = await this.served(workspaceId, contentType, itemId);
    if (erased) throw gone(`content item ${itemId} was erased: its versions are not readable`);
    return ContentTimeline.replay({ workspaceId, itemId, contentType }, headers.slice(firstServed), draftsErasedThrough + 1, headers.length);
  }

  /** `found` with its values, read from the one event that wrote them (the document's version). */
  async withValues(workspaceId: string, itemId: string, found: StageAtVersion): Promise<StageAtVersion> {
    const { fields, translations } = await this.valuesOf(workspaceId, itemId, found.document.version - 1);
    return { ...found, document: { ...found.document, fields, translations } };
  }

  private async valuesOf(workspaceId: string, itemId: string, revision: number) {
    const [recorded] = await this.events.readStream(contentStream(workspaceId, itemId), { fromRevision: revision, maxCount: 1 });
    const event = contentEvent.parse(recorded);
    if (!('fields' in event.data)) throw new Error(`event ${revision} of content item ${itemId} is a ${event.type}, which carries no values`);
    return { fields: event.data.fields, translations: event.data.translations as ContentItemDocument['translations'], contentType: event.data.contentType };
  }

  /**
   * 404 unless the item exists now, under this content type, or was erased (then only its
   * metadata is served). Follows the decider's evolve (exists, published, erased) on the event
   * types alone; the content type is that of the last draft written, the one event read whole.
   */
  private async served(workspaceId: string, contentType: string, itemId: string): Promise<ServedStream> {
    const headers = await this.events.readStreamHeaders(contentStream(workspaceId, itemId));
    let exists = false;
    let published = false;
    let erased = false;
    let lastDraft = -1;
    let firstServed = 0;
    let draftsErasedThrough = -1;
    let lastLifeStart = 0;
    const endLife = (index: number) => {
      exists = false;
      published = false;
      lastLifeStart = firstServed;
      firstServed = index + 1;
    };
    headers.forEach(({ type }, index) => {
      if (type === 'ContentDraftSaved' || type === 'ContentRestored') {
        exists = true;
        lastDraft = index;
      } else if (type === 'ContentPublished') published = true;
      else if (type === 'ContentUnpublished') published = false;
      else if (type === 'ContentDeleted') endLife(index);
      else if (type === 'ContentDraftDeleted') {
        if (published) draftsErasedThrough = index;
        else endLife(index);
      } else if (type === 'ContentErased') {
        exists = false;
        published = false;
        erased = true;
      }
    });
    const heldType = lastDraft < 0 ? null : (await this.valuesOf(workspaceId, itemId, lastDraft)).contentType;
    if (erased && heldType === contentType) {
      // An item erased after a delete shows its last life and the erasure.
      const start = headers[firstServed]?.type === 'ContentErased' ? lastLifeStart : firstServed;
      return { headers, firstServed: start, draftsErasedThrough, erased: true };
    }
    if (!exists || heldType !== contentType) throw notFound(`content item ${itemId} does not exist in ${contentType}`);
    return { headers, firstServed, draftsErasedThrough, erased: false };
  }
}
