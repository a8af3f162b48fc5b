import { comparePositions, type EventStore, type Position, START } from '../infra/eventstore/port';
import type { ReadStore } from '../infra/readstore/port';
import { ProjectionBatch } from './batch';
import type { Projector } from './projector';

const PAGE_SIZE = 1000;
const REBUILD_SUFFIX = '__rebuild';

export interface RebuildProgress {
  readonly eventsProcessed: number;
  /** Where the replay stands and where it is heading, for a progress fraction. */
  readonly position: Position;
  readonly head: Position;
  readonly phase: 'replaying' | 'catching-up' | 'switching' | 'done';
}

/** Something serving live read models that must pause while rebuilt ones are switched in. */
export interface LiveProjections {
  stop(): Promise<void>;
  start(): Promise<void>;
}

export const rebuildName = (name: string) => `${name}${REBUILD_SUFFIX}`;

/**
 * Rebuilds the projectors' read models from the whole log into fresh collections while
 * the live ones keep serving, then pauses the live projections for the short catch-up and
 * swaps the fresh collections in (with their checkpoints), and resumes.
 */
export async function rebuildReadModels(
  events: EventStore,
  readStore: ReadStore,
  projectors: readonly Projector[],
  live: LiveProjections | null,
  onProgress: (progress: RebuildProgress) => void = () => undefined,
): Promise<void> {
  for (const projector of projectors) {
    await readStore.deleteCheckpoint(rebuildName(projector.name));
    for (const collection of projector.collections) {
      await readStore.dropCollection(rebuildName(collection.name));
      await readStore.ensureCollection(rebuildName(collection.name), collection.indexes);
    }
  }
  const replay = new Replay(events, readStore, projectors, onProgress);
  await replay.until(await events.headPosition(), 'replaying');

  await live?.stop();
  try {
    await replay.until(await events.headPosition(), 'catching-up');
    replay.report('switching');
    for (const projector of projectors) {
      await readStore.swapCollections(
        projector.collections.map((collection) => ({ from: rebuildName(collection.name), to: collection.name })),
        { from: rebuildName(projector.name), to: projector.name },
      );
    }
  } finally {
    await live?.start();
  }
  replay.report('done');
}

class Replay {
  private after: Position = START;
  private head: Position = START;
  private processed = 0;
  private readonly batch: ProjectionBatch;

  constructor(
    private readonly events: EventStore,
    private readonly readStore: ReadStore,
    private readonly projectors: readonly Projector[],
    private readonly onProgress: (progress: RebuildProgress) => void,
  ) {
    this.batch = new ProjectionBatch(readStore, rebuildName);
  }

  async until(head: Position, phase: RebuildProgress['phase']): Promise<void> {
    this.head = head;
    this.report(phase);
    while (comparePositions(this.after, head) < 0) {
      const page = (await this.events.readAll({ after: this.after, maxCount: PAGE_SIZE })).filter((event) => comparePositions(event.position, head) <= 0);
      if (page.length === 0) break;
      for (const event of page) this.batch.add(this.projectors, event);
      const end = page[page.length - 1]!.position;
      await this.readStore.apply(
        await this.batch.drain(),
        this.projectors.map((projector) => ({ name: rebuildName(projector.name), position: end })),
      );
      this.after = end;
      this.processed += page.length;
      this.report(phase);
    }
  }

  report(phase: RebuildProgress['phase']): void {
    this.onProgress({ eventsProcessed: this.processed, position: this.after, head: this.head, phase });
  }
}
