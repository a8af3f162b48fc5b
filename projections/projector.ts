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
  /**
   * Raised whenever the same events would give other collections: other documents, other
   * typed columns, another rule. The checkpoint is kept under a versioned name
   * (`checkpointName`), so a store built by another version holds none for this one and the
   * service rebuilds it blue/green like a new read model; 1 when absent.
   */
  readonly version?: number;
  /**
   * An earlier version that wrote the same documents into every collection this one keeps (this
   * one only stopped keeping its `retiredCollections`): a store built by it is taken over
   * without a rebuild, its checkpoint renamed to this version's and the retired collections
   * dropped (checkpoint-takeover.ts).
   */
  readonly continues?: number;
  readonly collections: readonly CollectionDefinition[];
  /** Collections an earlier version kept and this one does not: dropped once a rebuild of this version is switched in. */
  readonly retiredCollections?: readonly string[];
  /**
   * Projectors whose collections it reads while projecting (as they stand in the same batch).
   * It is live only with them: while one awaits its backfill, it waits and is backfilled with it.
   */
  readonly reads?: readonly string[];
  /** The event types it projects; `all` for a read model of the whole log (the audit feed). */
  readonly eventTypes: ReadonlySet<string> | 'all';
  /** The documents `project` will read for this event, so a batch can load them all in one query per collection. */
  prefetch?(event: RecordedEvent): readonly DocumentKey[];
  /**
   * Documents `project` will read that only the prefetched ones name (the open version an item
   * state points at), loaded in a second query per collection. `prefetched` answers undefined for
   * a document that was not prefetched.
   */
  prefetchFollowing?(event: RecordedEvent, prefetched: (collection: string, id: string) => Document | null | undefined): readonly DocumentKey[];
  project(event: RecordedEvent, view: ReadView): Promise<Change[]>;
}

/** The name its checkpoint is kept under: the bare name for version 1, the stores built before versions existed. */
export function checkpointName(projector: Pick<Projector, 'name' | 'version'>): string {
  const version = projector.version ?? 1;
  if (!Number.isInteger(version) || version < 1) throw new Error(`invalid version of ${projector.name}: ${version}`);
  return version === 1 ? projector.name : `${projector.name}@${version}`;
}

/** The version of this projector that wrote `checkpoint` (its own or another), null for another projector's checkpoint. */
export function versionOfCheckpoint(projector: Pick<Projector, 'name'>, checkpoint: string): number | null {
  if (checkpoint === projector.name) return 1;
  const suffix = checkpoint.startsWith(`${projector.name}@`) ? checkpoint.slice(projector.name.length + 1) : '';
  return /^\d+$/.test(suffix) ? Number(suffix) : null;
}

/** Whether the projector takes events of this type. */
export function handles(projector: Pick<Projector, 'eventTypes'>, eventType: string): boolean {
  return projector.eventTypes === 'all' || projector.eventTypes.has(eventType);
}

/**
 * The projectors named, with every projector they read (to a fixed point), in the order of
 * `all`: a reader needs its sources' state as of each event it projects, so it is replayed with
 * them, never alone against their finished collections. Every name when `names` is empty.
 */
export function withTheirSources<P extends Pick<Projector, 'name' | 'reads'>>(all: readonly P[], names: readonly string[]): P[] {
  if (names.length === 0) return [...all];
  const wanted = new Set(names);
  for (let grown = true; grown; ) {
    grown = false;
    for (const projector of all) {
      if (!wanted.has(projector.name)) continue;
      for (const source of projector.reads ?? []) {
        if (wanted.has(source)) continue;
        wanted.add(source);
        grown = true;
      }
    }
  }
  return all.filter((projector) => wanted.has(projector.name));
}
