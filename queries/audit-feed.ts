import { type Position, positionToString } from '../infra/eventstore/port';
import type { ReadStore } from '../infra/readstore/port';
import type { Filter } from '../infra/readstore/query';
import { AUDIT_ENTRIES, type AuditEventEntry, type AuditRowDocument } from '../projections/read-models/audit-entries';
import { positionFromSortable, sortablePosition } from '../src/domain/audit/log-position';
import type { Attribution } from '../src/domain/audit/actor';
import type { ActorNames } from './actor-names';

export interface AuditFilter {
  readonly actorKind?: AuditRowDocument['actorKind'];
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
  readonly summary: AuditEventEntry['summary'];
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
    const entries = await this.entries(workspaceId, filter, after, limit + 1);
    const items = await this.actorNames.fillIn(entries.slice(0, limit));
    const last = items.at(-1)?.position ?? (after ? positionToString(after) : null);
    return { items, next: last, hasMore: entries.length > limit };
  }

  /**
   * Position conditions implied by the filter's time range (see CLOCK_SLACK_MS); none without one.
   */
  private async positionBounds(workspaceId: string, filter: AuditFilter): Promise<Filter[]> {
    const firstFrom = async (at: string) => {
      const [first] = await this.store.list<AuditRowDocument>(AUDIT_ENTRIES, {
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
   * The first `count` matching entries in log order, from the rows that hold them (a row holds an
   * append's events: rows sort by their last entry's position, and only the row the cursor points
   * into can hold no entry after it, hence one row more than entries wanted).
   */
  private async entries(workspaceId: string, filter: AuditFilter, after: Position | null, count: number): Promise<AuditEntry[]> {
    const bounds = await this.positionBounds(workspaceId, filter);
    const rows = await this.rows({ type: 'and', conditions: [conditions(workspaceId, filter, after), ...bounds] }, filter.types, count + 1);
    const types = filter.types ? new Set(filter.types) : null;
    const cursor = after ? sortablePosition(after) : null;
    const entries = rows.flatMap((row) =>
      row.entries.filter((entry) => (cursor === null || entry.seq > cursor) && (types === null || types.has(entry.type))).map((entry) => toEntry(row, entry)),
    );
    return entries.slice(0, count);
  }

  /**
   * The first `count` rows matching `filter` (and holding one of `types` when given) in log order.
   * A type is a row's first or its second: one query for each, each served by its index in log
   * order, merged (several types as an `in` list, so a request costs two reads whatever number of
   * types it names).
   */
  private async rows(filter: Filter, types: readonly string[] | undefined, count: number): Promise<AuditRowDocument[]> {
    const read = (typeFilter: Filter | null) =>
      this.store.list<AuditRowDocument>(AUDIT_ENTRIES, {
        filter: typeFilter ? { type: 'and', conditions: [filter, typeFilter] } : filter,
        sort: [{ field: 'seq', direction: 'asc' }],
        sortIsUnique: true,
        limit: count,
      });
    if (!types) return read(null);
    const [first, second] = await Promise.all([read(typeCondition('type', types)), read(typeCondition('secondType', types))]);
    const merged = new Map([...first, ...second].map((row) => [row.id, row]));
    return [...merged.values()].sort((a, b) => (a.seq < b.seq ? -1 : a.seq > b.seq ? 1 : 0)).slice(0, count);
  }
}

function typeCondition(field: 'type' | 'secondType', types: readonly string[]): Filter {
  return types.length === 1 ? { type: 'condition', field, operator: 'e', value: types[0]! } : { type: 'condition', field, operator: 'in', value: [...new Set(types)] };
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
  if (filter.stream) all.push({ type: 'condition', field: 'stream', operator: 'e', value: filter.stream });
  if (filter.itemId) all.push({ type: 'condition', field: 'itemId', operator: 'e', value: filter.itemId });
  if (filter.from) all.push({ type: 'condition', field: 'at', operator: 'gte', value: filter.from });
  if (filter.to) all.push({ type: 'condition', field: 'at', operator: 'lt', value: filter.to });
  return { type: 'and', conditions: all };
}

function toEntry(row: AuditRowDocument, entry: AuditEventEntry): AuditEntry {
  return {
    eventId: entry.id,
    position: positionToString(positionFromSortable(entry.seq)!),
    stream: row.stream,
    revision: entry.revision,
    type: entry.type,
    at: row.at,
    actor: row.actor,
    actorKind: row.actorKind,
    actorId: row.actorId,
    actorName: row.actorName,
    requestId: row.requestId,
    serverRequestId: row.serverRequestId,
    clientInfo: row.clientInfo,
    itemId: row.itemId,
    summary: entry.summary,
  };
}
