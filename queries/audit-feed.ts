import { type Position, positionToString } from '../infra/eventstore/port';
import type { ReadStore } from '../infra/readstore/port';
import type { Filter } from '../infra/readstore/query';
import { AUDIT_ENTRIES, type AuditEntryDocument } from '../projections/read-models/audit-entries';
import { positionFromSortable, sortablePosition } from '../src/domain/audit/log-position';
import type { Attribution } from '../src/domain/audit/actor';
import type { ActorNames } from './actor-names';

export interface AuditFilter {
  readonly actorKind?: AuditEntryDocument['actorKind'];
  readonly actorId?: string;
  readonly types?: readonly string[];
  readonly stream?: string;
  readonly itemId?: string;
  /** ISO times: `from` inclusive, `to` exclusive. */
  readonly from?: string;
  readonly to?: string;
}

/** One entry of the feed, as answered: the document without its storage keys, with its log position. */
export interface AuditEntry extends Attribution {
  readonly eventId: string;
  /** The log position, `commit/prepare`: the cursor to continue after this entry. */
  readonly position: string;
  readonly stream: string;
  readonly revision: number;
  readonly type: string;
  readonly at: string;
  readonly actor: string;
  readonly requestId: string | null;
  readonly serverRequestId: string | null;
  readonly clientInfo: string | null;
  readonly itemId: string | null;
  readonly summary: AuditEntryDocument['summary'];
}

export interface AuditPage {
  readonly items: AuditEntry[];
  /**
   * Where the next page starts: the last entry's position (the given cursor when the page is
   * empty; null when there was neither). A client at the end keeps it to poll for newer entries.
   */
  readonly next: string | null;
  /** True when entries after this page already match. */
  readonly hasMore: boolean;
}

/**
 * The workspace's audit feed from its read model, in log order. Paged by log position: a
 * page holds entries strictly after the cursor, and as the read model only ever gains entries
 * after its last one, following `next` neither skips nor repeats one while others write.
 */
export class AuditFeedQueries {
  constructor(
    private readonly store: ReadStore,
    private readonly actorNames: ActorNames,
  ) {}

  async page(workspaceId: string, filter: AuditFilter, after: Position | null, limit: number): Promise<AuditPage> {
    const documents = await this.entries(workspaceId, filter, after, limit + 1);
    const items = await this.actorNames.fillIn(documents.slice(0, limit).map(toEntry));
    const last = items.at(-1)?.position ?? (after ? positionToString(after) : null);
    return { items, next: last, hasMore: documents.length > limit };
  }

  /**
   * Position conditions implied by the filter's time range (see CLOCK_SLACK_MS); none without one.
   */
  private async positionBounds(workspaceId: string, filter: AuditFilter): Promise<Filter[]> {
    const firstFrom = async (at: string) => {
      const [first] = await this.store.list<AuditEntryDocument>(AUDIT_ENTRIES, {
        filter: { type: 'and', conditions: [{ type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId }, { type: 'condition', field: 'at', operator: 'gte', value: at }] },
        sort: [{ field: 'at', direction: 'asc' }],
        limit: 1,
      });
      return first?.seq ?? null;
    };
    const [lower, upper] = await Promise.all([
      filter.from ? firstFrom(shiftedTime(filter.from, -CLOCK_SLACK_MS)) : null,
      filter.to ? firstFrom(shiftedTime(filter.to, CLOCK_SLACK_MS)) : null,
    ]);
    return [
      ...(lower ? [{ type: 'condition', field: 'seq', operator: 'gte', value: lower } as const] : []),
      ...(upper ? [{ type: 'condition', field: 'seq', operator: 'lt', value: upper } as const] : []),
    ];
  }

  /**
   * The first `count` matching entries in log order: one query, several event types as an `in`
   * list, so a request costs one read whatever number of types it names.
   */
  private async entries(workspaceId: string, filter: AuditFilter, after: Position | null, count: number): Promise<AuditEntryDocument[]> {
    const bounds = await this.positionBounds(workspaceId, filter);
    return this.store.list<AuditEntryDocument>(AUDIT_ENTRIES, {
      filter: { type: 'and', conditions: [conditions(workspaceId, filter, after), ...bounds] },
      sort: [{ field: 'seq', direction: 'asc' }],
      sortIsUnique: true,
      limit: count,
    });
  }
}

/**
 * Log positions that enclose a time range, so that its page is read from the position index
 * near the range rather than from the start of the log: times follow positions, up to
 * CLOCK_SLACK_MS (an event's time is taken a little before its append commits, on clocks of
 * several instances). Entries at or after `from` lie after the first entry stamped
 * CLOCK_SLACK_MS before it; entries before `to` lie before the first stamped CLOCK_SLACK_MS
 * after it. The time conditions themselves still apply.
 */
const CLOCK_SLACK_MS = 5 * 60_000;

function shiftedTime(at: string, slackMs: number): string {
  return new Date(Date.parse(at) + slackMs).toISOString();
}

function conditions(workspaceId: string, filter: AuditFilter, after: Position | null): Filter {
  const all: Filter[] = [{ type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId }];
  if (after) all.push({ type: 'condition', field: 'seq', operator: 'gt', value: sortablePosition(after) });
  if (filter.actorKind) all.push({ type: 'condition', field: 'actorKind', operator: 'e', value: filter.actorKind });
  if (filter.actorId) all.push({ type: 'condition', field: 'actorId', operator: 'e', value: filter.actorId });
  if (filter.types?.length === 1) all.push({ type: 'condition', field: 'type', operator: 'e', value: filter.types[0]! });
  else if (filter.types) all.push({ type: 'condition', field: 'type', operator: 'in', value: [...new Set(filter.types)] });
  if (filter.stream) all.push({ type: 'condition', field: 'stream', operator: 'e', value: filter.stream });
  if (filter.itemId) all.push({ type: 'condition', field: 'itemId', operator: 'e', value: filter.itemId });
  if (filter.from) all.push({ type: 'condition', field: 'at', operator: 'gte', value: filter.from });
  if (filter.to) all.push({ type: 'condition', field: 'at', operator: 'lt', value: filter.to });
  return { type: 'and', conditions: all };
}

function toEntry(document: AuditEntryDocument): AuditEntry {
  return {
    eventId: document.id,
    position: positionToString(positionFromSortable(document.seq)!),
    stream: document.stream,
    revision: document.revision,
    type: document.type,
    at: document.at,
    actor: document.actor,
    actorKind: document.actorKind,
    actorId: document.actorId,
    actorName: document.actorName,
    requestId: document.requestId,
    serverRequestId: document.serverRequestId,
    clientInfo: document.clientInfo,
    itemId: document.itemId,
    summary: document.summary,
  };
}
