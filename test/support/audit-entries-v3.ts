import type { RecordedEvent } from '../../infra/eventstore/port';
import type { Document, IndexDefinition } from '../../infra/readstore/port';
import { attributionOf } from '../../src/domain/audit/actor';
import { positionFromSortable, sortablePosition } from '../../src/domain/audit/log-position';
import { auditSummary } from '../../src/domain/audit/summary';
import { positionToString } from '../../infra/eventstore/port';
import type { AuditEntry } from '../../queries/audit-feed';

/**
 * Version 3 of the audit feed's read model, frozen as the release before one row per append
 * shipped it: one document per event. Tests build a store as that version left it, and compare
 * the feed of today's rows with the one its documents answered.
 */
export const VERSION_3_COLUMNS = ['workspaceId', 'seq', 'actorKind', 'actorId', 'type', 'stream', 'itemId', 'at'].map((path) => ({ path, type: 'text' as const }));
export const VERSION_3_INDEXES: IndexDefinition[] = [
  { fields: ['workspaceId', 'seq'] },
  { fields: ['workspaceId', 'actorKind', 'seq'] },
  { fields: ['workspaceId', 'actorId', 'seq'] },
  { fields: ['workspaceId', 'type', 'seq'] },
  { fields: ['workspaceId', 'stream', 'seq'] },
  { fields: ['workspaceId', 'itemId', 'seq'] },
  { fields: ['workspaceId', 'at'] },
];

/** A document of version 3: an entry's fields (with `id` and `seq` for its event id and position) and the workspace. */
export interface Version3Document extends Document, Omit<AuditEntry, 'eventId' | 'position'> {
  readonly workspaceId: string;
  readonly seq: string;
}

/** The document version 3 wrote for `event`, null for an event of no feed. */
export function version3Document(event: RecordedEvent): Version3Document | null {
  const fromData = (event.data as { workspaceId?: unknown } | null)?.workspaceId;
  const workspaceId = event.metadata.workspaceId ?? (event.type === 'EventLogAlertRaised' ? 'service' : typeof fromData === 'string' ? fromData : null);
  if (workspaceId === null) return null;
  const source = (event.data ?? {}) as { itemId?: unknown; assetId?: unknown; contentId?: unknown };
  const item = source.itemId ?? source.contentId ?? source.assetId;
  return {
    id: event.id,
    workspaceId,
    seq: sortablePosition(event.position),
    stream: event.stream,
    revision: event.revision,
    type: event.type,
    at: event.metadata.timestamp,
    actor: event.metadata.actor,
    ...attributionOf(event.metadata),
    requestId: event.metadata.correlationId ?? null,
    serverRequestId: event.metadata.serverRequestId ?? null,
    clientInfo: event.metadata.clientInfo ?? null,
    itemId: typeof item === 'string' ? item : null,
    summary: { ...auditSummary(event.data), ...(event.metadata.releaseId === undefined ? {} : { releaseId: event.metadata.releaseId }) },
  };
}

/** The entry version 3's feed answered for a document. */
function version3Entry(document: Version3Document): AuditEntry {
  const { id, seq, workspaceId: _workspace, ...fields } = document;
  return {
    eventId: id,
    position: positionToString(positionFromSortable(seq)!),
    stream: fields.stream,
    revision: fields.revision,
    type: fields.type,
    at: fields.at,
    actor: fields.actor,
    actorKind: fields.actorKind,
    actorId: fields.actorId,
    actorName: fields.actorName,
    requestId: fields.requestId,
    serverRequestId: fields.serverRequestId,
    clientInfo: fields.clientInfo,
    itemId: fields.itemId,
    summary: fields.summary,
  };
}

/** As version 3's feed filtered its documents: every condition on the entry's own fields. */
export interface Version3Filter {
  readonly actorKind?: string;
  readonly actorId?: string;
  readonly types?: readonly string[];
  readonly stream?: string;
  readonly itemId?: string;
}

/** The entries version 3 answered for a workspace and filter, in log order. */
export function version3Feed(documents: readonly Version3Document[], workspaceId: string, filter: Version3Filter = {}): AuditEntry[] {
  return documents
    .filter((document) => document.workspaceId === workspaceId)
    .filter((entry) =>
      (filter.actorKind === undefined || entry.actorKind === filter.actorKind) &&
      (filter.actorId === undefined || entry.actorId === filter.actorId) &&
      (filter.types === undefined || filter.types.includes(entry.type)) &&
      (filter.stream === undefined || entry.stream === filter.stream) &&
      (filter.itemId === undefined || entry.itemId === filter.itemId),
    )
    .sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0))
    .map(version3Entry);
}
