import { type EventStore, type Position, START } from '../infra/eventstore/port';
import type { Checkpoint, ReadStore } from '../infra/readstore/port';
import type { Clock } from '../infra/clock';
import { resolveCheckpoints } from './group-checkpoint';
import { checkpointName, type Projector } from './projector';

/** Lag is counted up to this many events: enough to tell "a little behind" from "far behind" cheaply. */
export const LAG_COUNT_LIMIT = 1000;

export interface ProjectionLag {
  readonly projection: string;
  /** Where the read model stands; null before its first event. */
  readonly checkpoint: Position | null;
  /** Events after the checkpoint, up to LAG_COUNT_LIMIT. */
  readonly events: number;
  /** Age of the first event after the checkpoint; 0 at the head. */
  readonly seconds: number;
}

/** How far each read model is behind the log, read from its checkpoint; projectors at one checkpoint share one read. */
export async function projectionLag(events: EventStore, readStore: ReadStore, projectors: readonly Projector[], clock: Clock): Promise<ProjectionLag[]> {
  return lagFrom(events, await readStore.listCheckpoints(), projectors, clock);
}

/** The same, from checkpoints the caller has read (all of the store's). */
export async function lagFrom(events: EventStore, stored: readonly Checkpoint[], projectors: readonly Projector[], clock: Clock): Promise<ProjectionLag[]> {
  const checkpoints = resolveCheckpoints(stored);
  const behindBy = new Map<string, Promise<{ events: number; seconds: number }>>();
  const measure = async (after: Position) => {
    // Counted, not read: a thousand events near the body limit would be a gigabyte on every scrape.
    const [count, [oldest]] = await Promise.all([events.countAfter(after, LAG_COUNT_LIMIT), events.readAll({ after, maxCount: 1 })]);
    return { events: count, seconds: oldest ? Math.max(0, (clock.now().getTime() - Date.parse(oldest.metadata.timestamp)) / 1000) : 0 };
  };
  return Promise.all(
    projectors.map(async (projector) => {
      const checkpoint = checkpoints.get(checkpointName(projector)) ?? null;
      const after = checkpoint ?? START;
      const key = `${after.commit}:${after.prepare}`;
      if (!behindBy.has(key)) behindBy.set(key, measure(after));
      return { projection: projector.name, checkpoint, ...(await behindBy.get(key)!) };
    }),
  );
}
