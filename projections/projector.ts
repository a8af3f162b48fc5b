import type { RecordedEvent } from '../infra/eventstore/port';
import type { Change, ColumnDefinition, Document, IndexDefinition } from '../infra/readstore/port';

export interface DocumentKey {
  readonly collection: string;
  readonly id: string;
}

export interface CollectionDefinition {
  readonly name: string;
  readonly indexes: readonly IndexDefinition[];
  /** Typed columns, fixed when the collection is created (a rebuild creates it afresh). */
  readonly columns?: readonly ColumnDefinition[];
}

/** What a projector may read while it projects: documents as they stand including the batch's pending changes. */
export interface ReadView {
  get<T extends Document>(collection: string, id: string): Promise<T | null>;
}

/**
 * A read model's projector: a function from one event to changes of its own collections.
 * It must be idempotent: seeing an event twice leaves the read model as seeing it once.
 * Collection names are logical; the runner decides where they are stored (live or rebuild).
 */
export interface Projector {
  readonly name: string;
  readonly collections: readonly CollectionDefinition[];
  /**
   * Projectors whose collections it reads while projecting (as they stand in the same batch).
   * It is live only with them: while one awaits its backfill, it waits and is backfilled with it.
   */
  readonly reads?: readonly string[];
  /** The event types it projects; `all` for a read model of the whole log (the audit feed). */
  readonly eventTypes: ReadonlySet<string> | 'all';
  /** The documents `project` will read for this event, so a batch can load them all in one query per collection. */
  prefetch?(event: RecordedEvent): readonly DocumentKey[];
  project(event: RecordedEvent, view: ReadView): Promise<Change[]>;
}

/** Whether the projector takes events of this type. */
export function handles(projector: Pick<Projector, 'eventTypes'>, eventType: string): boolean {
  return projector.eventTypes === 'all' || projector.eventTypes.has(eventType);
}
