import { comparePositions, type EventStore, positionToString } from '../infra/eventstore/port';
import type { Clock } from '../infra/clock';
import type { ReadStore } from '../infra/readstore/port';
import { resolveCheckpoints } from './group-checkpoint';
import { lagFrom } from './lag';
import { checkpointName, type Projector, versionOfCheckpoint } from './projector';

export interface ProjectionStatus {
  readonly name: string;
  readonly collections: string[];
  /** The log position up to which the read model has applied events; null before its first. */
  readonly checkpoint: string | null;
  readonly atHead: boolean;
  /** Events after the checkpoint, counted up to LAG_COUNT_LIMIT. */
  readonly lagEvents: number;
  /** Age of the oldest event not yet applied; 0 at the head. */
  readonly lagSeconds: number;
  /** The version of the projector this service runs (projections/projector.ts). */
  readonly version: number;
  /** The version that built the collections the store holds; another than `version` until the backfill swaps this one in, null when none did. */
  readonly storedVersion: number | null;
}

/** Each read model's checkpoint against the head of the log, read from the stores (whether or not a service runs). */
export async function projectionStatuses(
  events: EventStore,
  readStore: ReadStore,
  projectors: readonly Projector[],
  clock: Clock,
): Promise<{ head: string; projections: ProjectionStatus[] }> {
  const head = await events.headPosition();
  const stored = await readStore.listCheckpoints();
  const lags = await lagFrom(events, stored, projectors, clock);
  const checkpoints = [...resolveCheckpoints(stored).keys()];
  return {
    head: positionToString(head),
    projections: projectors.map((projector, index) => {
      const { checkpoint, events: lagEvents, seconds } = lags[index]!;
      return {
        name: projector.name,
        collections: projector.collections.map((collection) => collection.name),
        checkpoint: checkpoint ? positionToString(checkpoint) : null,
        atHead: checkpoint !== null && comparePositions(checkpoint, head) >= 0,
        lagEvents,
        lagSeconds: Math.round(seconds * 10) / 10,
        version: projector.version ?? 1,
        storedVersion: storedVersion(projector, checkpoints),
      };
    }),
  };
}

/** Its own version when its checkpoint is there, else the highest version among its other versions' checkpoints, else null. */
function storedVersion(projector: Projector, checkpoints: readonly string[]): number | null {
  if (checkpoints.includes(checkpointName(projector))) return projector.version ?? 1;
  const versions = checkpoints.map((name) => versionOfCheckpoint(projector, name)).filter((version) => version !== null);
  return versions.length === 0 ? null : Math.max(...versions);
}
