import type { ActorKind, RecordedEvent } from '../../infra/eventstore/port';
import type { Document } from '../../infra/readstore/port';
import { attributionOf } from '../../src/domain/audit/actor';
import { sortablePosition } from '../../src/domain/audit/log-position';
import { auditSummary, type SummaryValue } from '../../src/domain/audit/summary';
import type { Projector } from '../projector';

export const AUDIT_ENTRIES = 'audit_entries';

/** What one event adds to the feed beside what its append shares with the append's other events. */
export interface AuditEventEntry {
  readonly id: string;
  /** The log position as 40 sortable digits: the feed's order and cursor. */
  readonly seq: string;
  readonly revision: number;
  readonly type: string;
  readonly summary: Record<string, SummaryValue>;
}

/** What every event of one row shares: who, when, where, why. */
interface SharedFields {
  readonly workspaceId: string;
  readonly stream: string;
  readonly at: string;
  readonly actor: string;
  readonly actorKind: ActorKind | 'other';
  readonly actorId: string;
  readonly actorName: string | null;
  readonly requestId: string | null;
  /** The server's own id of the request (EventMetadata.serverRequestId); null for events written before it and not caused by a request. */
  readonly serverRequestId: string | null;
  readonly clientInfo: string | null;
  /** The content item (or asset) the events are about, when they name one. */
  readonly itemId: string | null;
}
const SHARED_FIELDS = ['workspaceId', 'stream', 'at', 'actor', 'actorKind', 'actorId', 'actorName', 'requestId', 'serverRequestId', 'clientInfo', 'itemId'] as const;

/**
 * The events of one append (one command's events on one stream) as the audit feed shows them,
 * in one row: where they are in the log, who caused them and a summary of each that never holds
 * a secret (src/domain/audit/summary.ts). A save and publish is one row of two entries.
 * The row's events are consecutive in the log and share every field of SharedFields; an event
 * that would differ in one starts a row of its own (keyed by its id). `seq` is the last entry's
 * position, so rows sort as their entries do; the types are `type` (the first entry's) and
 * `secondType` (the other type, null when all entries have one): the feed's type filter reads
 * both columns, and a row holds events of two types at most.
 */
export interface AuditRowDocument extends Document, SharedFields {
  readonly seq: string;
  readonly type: string;
  readonly secondType: string | null;
  readonly entries: readonly AuditEventEntry[];
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

/**
 * The key of the row of the append that wrote `event`: its stream and the commit of its log
 * position. On PostgreSQL and PGlite the commit is the transaction id, and one transaction
 * appends to a stream once (postgres-append.ts), so the key names one append. An engine that
 * gives each event a commit of its own (EventStoreDB may) gets a row per event.
 */
function appendKey(event: RecordedEvent): string {
  return `${event.position.commit}:${event.stream}`;
}

/** Whether `entry` (with `shared`) continues `row`: the next event of its stream, the same shared fields, at most two types. */
function continues(row: AuditRowDocument, shared: SharedFields, entry: AuditEventEntry): boolean {
  if (row.entries.at(-1)!.revision !== entry.revision - 1) return false;
  if (SHARED_FIELDS.some((field) => row[field] !== shared[field])) return false;
  return entry.type === row.type || row.secondType === null || entry.type === row.secondType;
}

/** The fields the feed filters and pages on, as text columns: they compare as the JSON strings did. */
const INDEXED_FIELDS = ['workspaceId', 'seq', 'actorKind', 'actorId', 'type', 'secondType', 'stream', 'itemId', 'at'] as const;

/** Every event of every workspace; of the events of no workspace (service, apps) only the SERVICE_FEED_TYPES, in the service's feed. */
export const auditEntriesProjector: Projector = {
  name: 'audit_entries',
  // 2: the indexed fields became typed columns (version 1 indexed their JSON values, whose sorts cost the rebuild twice as much).
  // 3: actorKind became a typed column with an index of its own (the feed's actorKind filter read every entry of the workspace);
  //    entries carry the server's request id.
  // 4: one row per append instead of one per event (a save and publish wrote two rows and 16 index entries).
  version: 4,
  collections: [
    {
      name: AUDIT_ENTRIES,
      columns: INDEXED_FIELDS.map((path) => ({ path, type: 'text' })),
      indexes: [
        { fields: ['workspaceId', 'seq'] },
        { fields: ['workspaceId', 'actorKind', 'seq'] },
        { fields: ['workspaceId', 'actorId', 'seq'] },
        { fields: ['workspaceId', 'type', 'seq'] },
        { fields: ['workspaceId', 'secondType', 'seq'] },
        { fields: ['workspaceId', 'stream', 'seq'] },
        { fields: ['workspaceId', 'itemId', 'seq'] },
        { fields: ['workspaceId', 'at'] },
      ],
    },
  ],
  eventTypes: 'all',

  // The row an event may continue, when an earlier batch wrote its append's first events.
  prefetch: (event) => [{ collection: AUDIT_ENTRIES, id: appendKey(event) }],

  async project(recorded, view) {
    const workspaceId = workspaceOf(recorded.type, recorded.metadata.workspaceId, recorded.data);
    if (workspaceId === null) return [];
    const shared: SharedFields = {
      workspaceId,
      stream: recorded.stream,
      at: recorded.metadata.timestamp,
      actor: recorded.metadata.actor,
      ...attributionOf(recorded.metadata),
      requestId: recorded.metadata.correlationId ?? null,
      serverRequestId: recorded.metadata.serverRequestId ?? null,
      clientInfo: recorded.metadata.clientInfo ?? null,
      itemId: itemOf(recorded.data),
    };
    const entry: AuditEventEntry = {
      id: recorded.id,
      seq: sortablePosition(recorded.position),
      revision: recorded.revision,
      type: recorded.type,
      // An item's change made by a content release names it (the release id is in the event's metadata).
      summary: { ...auditSummary(recorded.data), ...(recorded.metadata.releaseId === undefined ? {} : { releaseId: recorded.metadata.releaseId }) },
    };
    const key = appendKey(recorded);
    const row = await view.get<AuditRowDocument>(AUDIT_ENTRIES, key);
    // Seen again (a replay): the row already holds it.
    if (row?.entries.some((held) => held.id === entry.id)) return [];
    if (row && continues(row, shared, entry)) {
      const secondType = row.secondType ?? (entry.type === row.type ? null : entry.type);
      const document: AuditRowDocument = { ...row, seq: entry.seq, secondType, entries: [...row.entries, entry] };
      return [{ kind: 'upsert', collection: AUDIT_ENTRIES, document }];
    }
    // A row of its own; under the event's id when its append's row exists and it cannot continue it (that row then never grows again).
    const document: AuditRowDocument = { id: row ? entry.id : key, ...shared, seq: entry.seq, type: entry.type, secondType: null, entries: [entry] };
    return [{ kind: 'upsert', collection: AUDIT_ENTRIES, document }];
  },
};
