import type { Position } from '../infra/eventstore/port';
import type { ReadStore } from '../infra/readstore/port';
import { deleteCheckpointEverywhere, resolveCheckpoints } from './group-checkpoint';
import { checkpointName, type Projector } from './projector';

/** The checkpoint name of the version `projector` continues (Projector.continues), null when it continues none. */
export function continuedCheckpointName(projector: Pick<Projector, 'name' | 'continues'>): string | null {
  return projector.continues === undefined ? null : checkpointName({ name: projector.name, version: projector.continues });
}

/** Where a projector stands among resolved checkpoints: its own, else the one of the version it continues (a store that version still projects). */
export function continuedPosition(projector: Pick<Projector, 'name' | 'version' | 'continues'>, positions: ReadonlyMap<string, Position>): Position | null {
  const earlier = continuedCheckpointName(projector);
  return positions.get(checkpointName(projector)) ?? (earlier === null ? null : (positions.get(earlier) ?? null));
}

/**
 * Takes over, for each projector that continues an earlier version, that version's checkpoint:
 * its retired collections dropped first (so no stop halfway leaves them behind), then its own
 * checkpoint written at the earlier one's position, then the earlier one removed everywhere. An
 * instance of the earlier version then finds no checkpoint of its own: it answers as for a read
 * model awaiting its backfill, and rebuilds it blue/green if it projects (a rollback).
 * Run by the instance that projects, before it reads where the read models stand.
 */
export async function takeOverContinuedCheckpoints(readStore: ReadStore, projectors: readonly Projector[]): Promise<void> {
  for (const projector of projectors) {
    const earlier = continuedCheckpointName(projector);
    if (earlier === null) continue;
    const positions = resolveCheckpoints(await readStore.listCheckpoints());
    const position = positions.get(earlier);
    if (!position) continue;
    if (!positions.has(checkpointName(projector))) {
      for (const name of projector.retiredCollections ?? []) await readStore.dropCollection(name);
      await readStore.apply([], [{ name: checkpointName(projector), position }]);
    }
    await deleteCheckpointEverywhere(readStore, earlier);
  }
}
