import type { ActorKind } from '../../infra/eventstore/port';
import type { Document } from '../../infra/readstore/port';
import { attributionOf } from '../../src/domain/audit/actor';
import { sortablePosition } from '../../src/domain/audit/log-position';
import { auditSummary, type SummaryValue } from '../../src/domain/audit/summary';
import type { Projector } from '../projector';

export const AUDIT_ENTRIES = 'audit_entries';

/**
 * One event of a workspace as the audit feed shows it: where it is in the log, who caused it
 * and a summary that never holds a secret (src/domain/audit/summary.ts). Keyed by event id,
 * so seeing an event again writes the same document.
 */
export interface AuditEntryDocument extends Document {
  readonly workspaceId: string;
  /** The log position as 40 sortable digits: the feed's order and cursor. */
  readonly seq: string;
  readonly stream: string;
  readonly revision: number;
  readonly type: string;
  readonly at: string;
  readonly actor: string;
  readonly actorKind: ActorKind | 'other';
  readonly actorId: string;
  readonly actorName: string | null;
  readonly requestId: string | null;
  /** The server's own id of the request (EventMetadata.serverRequestId); null for events written before it and not caused by a request. */
  readonly serverRequestId: string | null;
  readonly clientInfo: string | null;
  /** The content item (or asset) the event is about, when it names one. */
  readonly itemId: string | null;
  readonly summary: Record<string, SummaryValue>;
}

/**
 * The feed of the service itself, under a name no workspace id can be (they are UUIDs): the
 * event types an operator must see that belong to no workspace (GET /admin/audit).
 */
export const SERVICE_FEED = 'service';
const SERVICE_FEED_TYPES = new Set(['EventLogAlertRaised']);

/** The workspace an event belongs to: its metadata's, or for admin actions on a workspace (metadata without one) its data's. */
function workspaceOf(type: string, metadataWorkspace: string | null, data: unknown): string | null {
  if (metadataWorkspace !== null) return metadataWorkspace;
  if (SERVICE_FEED_TYPES.has(type)) return SERVICE_FEED;
  const fromData = (data as { workspaceId?: unknown } | null)?.workspaceId;
  return typeof fromData === 'string' ? fromData : null;
}

function itemOf(data: unknown): string | null {
  const source = (data ?? {}) as { itemId?: unknown; assetId?: unknown; contentId?: unknown };
  const item = source.itemId ?? source.contentId ?? source.assetId;
  return typeof item === 'string' ? item : null;
}

/** The fields the feed filters and pages on, as text columns: they compare as the JSON strings did. */
const INDEXED_FIELDS = ['workspaceId', 'seq', 'actorKind', 'actorId', 'type', 'stream', 'itemId', 'at'] as const;

/** Every event of every workspace; of the events of no workspace (service, apps) only the SERVICE_FEED_TYPES, in the service's feed. */
export const auditEntriesProjector: Projector = {
  name: 'audit_entries',
  // 2: the indexed fields became typed columns (version 1 indexed their JSON values, whose sorts cost the rebuild twice as much).
  // 3: actorKind became a typed column with an index of its own (the feed's actorKind filter read every entry of the workspace);
  //    entries carry the server's request id.
  version: 3,
  collections: [
    {
      name: AUDIT_ENTRIES,
      columns: INDEXED_FIELDS.map((path) => ({ path, type: 'text' })),
      indexes: [
        { fields: ['workspaceId', 'seq'] },
        { fields: ['workspaceId', 'actorKind', 'seq'] },
        { fields: ['workspaceId', 'actorId', 'seq'] },
        { fields: ['workspaceId', 'type', 'seq'] },
        { fields: ['workspaceId', 'stream', 'seq'] },
        { fields: ['workspaceId', 'itemId', 'seq'] },
        { fields: ['workspaceId', 'at'] },
      ],
    },
  ],
  eventTypes: 'all',

  async project(recorded) {
    const workspaceId = workspaceOf(recorded.type, recorded.metadata.workspaceId, recorded.data);
    if (workspaceId === null) return [];
    const document: AuditEntryDocument = {
      id: recorded.id,
      workspaceId,
      seq: sortablePosition(recorded.position),
      stream: recorded.stream,
      revision: recorded.revision,
      type: recorded.type,
      at: recorded.metadata.timestamp,
      actor: recorded.metadata.actor,
      ...attributionOf(recorded.metadata),
      requestId: recorded.metadata.correlationId ?? null,
      serverRequestId: recorded.metadata.serverRequestId ?? null,
      clientInfo: recorded.metadata.clientInfo ?? null,
      itemId: itemOf(recorded.data),
      // An item's change made by a content release names it (the release id is in the event's metadata).
      summary: { ...auditSummary(recorded.data), ...(recorded.metadata.releaseId === undefined ? {} : { releaseId: recorded.metadata.releaseId }) },
    };
    return [{ kind: 'upsert', collection: AUDIT_ENTRIES, document }];
  },
};
