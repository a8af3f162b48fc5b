import { comparePositions, type Position, positionFromString, positionToString, type RecordedEvent } from '../infra/eventstore/port';
import type { Document, ReadStore } from '../infra/readstore/port';

/**
 * Events a read model could not apply, set aside so that the read model (and every other)
 * goes on with the events after them. Written by the projection daemon together with the
 * read model's checkpoint past the event; listed, skipped or rebuilt through /admin.
 */
export const PROJECTION_QUARANTINE = 'projection_quarantine';

/** An error message kept at most this long (a store's message names the limit it hit, never the value). */
const MAX_ERROR_CHARS = 500;

export interface QuarantinedEvent extends Document {
  readonly projection: string;
  readonly eventId: string;
  readonly position: string;
  readonly stream: string;
  readonly eventType: string;
  readonly workspaceId: string | null;
  readonly error: string;
  readonly quarantinedAt: string;
  /** Null while the read model lacks the event; how that ended otherwise. */
  readonly resolution: QuarantineResolution | null;
}

export interface QuarantineResolution {
  /** skipped: an operator accepted the read model without it; rebuilt: a rebuild of the read model applied it. */
  readonly outcome: 'skipped' | 'rebuilt';
  readonly at: string;
}

export const quarantineId = (projection: string, event: RecordedEvent): string => `${projection}@${positionToString(event.position)}`;

export function quarantined(projection: string, event: RecordedEvent, error: unknown, at: Date): QuarantinedEvent {
  const message = error instanceof Error ? error.message : String(error);
  return {
    id: quarantineId(projection, event),
    projection,
    eventId: event.id,
    position: positionToString(event.position),
    stream: event.stream,
    eventType: event.type,
    workspaceId: event.metadata.workspaceId,
    error: message.length > MAX_ERROR_CHARS ? `${message.slice(0, MAX_ERROR_CHARS)}…` : message,
    quarantinedAt: at.toISOString(),
    resolution: null,
  };
}

/**
 * SQLSTATE classes of a statement refused for what it holds: data exception (22), integrity
 * constraint violation (23), program limit exceeded (54: an index entry or a row too large),
 * raised by a trigger or function (P0). The same event is refused again on every try.
 */
const CONTENT_SQLSTATE = /^(22|23|54|P0)/;
/** MongoDB's codes for the same: bad value, duplicate key, document or index key too large. */
const CONTENT_MONGODB_CODES: ReadonlySet<number> = new Set([2, 11000, 10334, 17280]);

/**
 * Whether projecting or applying an event failed because of the event (a store refusing what
 * it holds, or a projector throwing on it), not because a store is away or busy: only such a
 * failure is set aside, since retrying it can never succeed; any other is retried as it was.
 */
export function refusedForItsContent(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return CONTENT_SQLSTATE.test(code);
  if (typeof code === 'number') return CONTENT_MONGODB_CODES.has(code);
  return error instanceof TypeError || error instanceof RangeError || (error instanceof Error && error.name === 'ZodError');
}

/** The open entries, of the named read models or of all. */
export function openQuarantine(readStore: ReadStore, projections?: readonly string[]): Promise<QuarantinedEvent[]> {
  const open = { type: 'condition', field: 'resolution', operator: 'e', value: null } as const;
  const filter = projections ? { type: 'and' as const, conditions: [open, { type: 'condition' as const, field: 'projection', operator: 'in' as const, value: [...projections] }] } : open;
  return readStore.list<QuarantinedEvent>(PROJECTION_QUARANTINE, { filter, sort: [{ field: 'id', direction: 'asc' }] });
}

/** After a rebuild of `projections` replayed the log through `through`, their entries up to there are applied. */
export async function resolveRebuilt(readStore: ReadStore, projections: readonly string[], through: Position, at: Date): Promise<void> {
  const applied = (await openQuarantine(readStore, projections)).filter((entry) => comparePositions(positionFromString(entry.position), through) <= 0);
  const resolution: QuarantineResolution = { outcome: 'rebuilt', at: at.toISOString() };
  await readStore.apply(applied.map((entry) => ({ kind: 'upsert', collection: PROJECTION_QUARANTINE, document: { ...entry, resolution } })));
}

/** Open entries per read model. */
export function quarantineCounts(entries: readonly QuarantinedEvent[]): { projection: string; events: number }[] {
  const counts = new Map<string, number>();
  for (const entry of entries) counts.set(entry.projection, (counts.get(entry.projection) ?? 0) + 1);
  return [...counts].map(([projection, events]) => ({ projection, events }));
}
