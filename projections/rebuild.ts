import { comparePositions, type EventStore, LOG_PAGE_BYTES, type Position, type RecordedEvent, START } from '../infra/eventstore/port';
import { UnsealingEventStore } from '../infra/eventstore/unsealing';
import type { EventMacCheck } from '../infra/eventstore/event-mac-check';
import { MacCheckedEventLog } from '../infra/eventstore/mac-checked';
import type { Change, Checkpoint, ReadStore } from '../infra/readstore/port';
import { ProjectionBatch } from './batch';
import { ChainGuardThread } from './chain-guard';
import { deleteCheckpointEverywhere, resolvedCheckpointList } from './group-checkpoint';
import { checkpointName, type Projector, versionOfCheckpoint } from './projector';

/**
 * Events read, projected and written together. Bigger pages did not make a replay faster
 * (5,000 against 1,000: 37.7 s and 37.3 s for 300,004 events) but held more in memory (752 MB
 * against 593 MB peak), with three pages in flight (read, projected, written); inside the
 * service small ones also keep each synchronous step short for the requests served meanwhile.
 */
const PAGE_SIZE = 1000;
/** Applies of one batch in flight at once (statements on as many connections), unless RebuildOptions.writers says otherwise. */
const WRITERS = 3;
const REBUILD_SUFFIX = '__rebuild';

export interface RebuildProgress {
  readonly eventsProcessed: number;
  /** Where the replay stands and where it is heading, for a progress fraction. */
  readonly position: Position;
  readonly head: Position;
  /** `indexing`: the replayed collections get their indexes (minutes at millions of rows, with no events to count). */
  readonly phase: 'replaying' | 'indexing' | 'catching-up' | 'switching' | 'done';
}

/** Something serving live read models that must pause while rebuilt ones are switched in. */
export interface LiveProjections {
  /** Pauses nest: the live projections run again when every pause has ended. */
  pause(): Promise<void>;
  /** Never leaves them stopped: when the stores do not answer, they go on trying by themselves. */
  resume(): Promise<void>;
}

export interface RebuildOptions {
  /**
   * Builds even from a log whose hash chain is broken. Without it a rebuild recomputes the
   * chain of every event it reads and fails at the first break (BrokenChainError).
   */
  readonly skipChainCheck?: boolean;
  /**
   * Applies of one batch in flight at once (default WRITERS). One on an engine with one
   * connection (PGlite): there they run one after another anyway, and each queued apply is one
   * more that the live projections' statements, and the writes waiting for them, queue behind.
   */
  readonly writers?: number;
}

export const rebuildName = (name: string) => `${name}${REBUILD_SUFFIX}`;

/** The log as stored (what the hash chain covers) and the view the projectors read (sealed values opened). */
interface ReplaySource {
  readonly stored: EventStore;
  readonly open: (events: RecordedEvent[]) => Promise<RecordedEvent[]>;
}

function replaySource(events: EventStore): ReplaySource {
  if (events instanceof UnsealingEventStore) return { stored: events.stored, open: (page) => events.unseal(page) };
  return { stored: events, open: (page) => Promise.resolve(page) };
}

/** The MAC check of the log as the service reads it (MacCheckedEventLog), which the replay's chain check applies too. */
function macCheckOfLog(events: EventStore): EventMacCheck | null {
  const stored = events instanceof UnsealingEventStore ? events.stored : events;
  return stored instanceof MacCheckedEventLog ? stored.check : null;
}

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
  options: RebuildOptions = {},
): Promise<void> {
  // The fresh collections are bulk-loaded bare (the projectors read them by id only) and indexed
  // once loaded: building an index over the whole table beats maintaining it row by row.
  for (const projector of projectors) {
    await readStore.deleteCheckpoint(rebuildName(checkpointName(projector)));
    for (const collection of projector.collections) {
      await readStore.dropCollection(rebuildName(collection.name));
      await readStore.ensureCollection(rebuildName(collection.name), [], collection.columns);
    }
  }
  const guard = options.skipChainCheck ? null : new ChainGuardThread(macCheckOfLog(events));
  try {
    const replay = new Replay(replaySource(events), guard, readStore, projectors, onProgress, PAGE_SIZE, options.writers ?? WRITERS);
    await replay.until(await events.headPosition(), 'replaying');
    replay.report('indexing');
    for (const projector of projectors) {
      for (const collection of projector.collections) {
        await readStore.ensureCollection(rebuildName(collection.name), collection.indexes, collection.columns);
        // Statistics before it serves: without them its first plans are guesses, until (and, with autovacuum off, unless) autovacuum runs.
        await readStore.analyzeCollection(rebuildName(collection.name));
      }
    }
    // What was appended while the indexes were built is replayed before the pause: writers wait through the pause.
    await replay.until(await events.headPosition(), 'catching-up');

    try {
      // Inside the try: a pause counts from the call, so it is ended even when the stop fails.
      await live?.pause();
      await replay.until(await events.headPosition(), 'catching-up');
      replay.report('switching');
      const checkpoints = resolvedCheckpointList(await readStore.listCheckpoints());
      for (const projector of projectors) {
        // Another version's checkpoint goes first: a version that finds none backfills, one that found it would resume onto these collections.
        const current = checkpointName(projector);
        for (const { name } of checkpoints) if (name !== current && versionOfCheckpoint(projector, name) !== null) await deleteCheckpointEverywhere(readStore, name);
        await readStore.swapCollections(
          projector.collections.map((collection) => ({ from: rebuildName(collection.name), to: collection.name })),
          { from: rebuildName(current), to: current },
        );
      }
    } finally {
      await live?.resume();
    }
    for (const projector of projectors) for (const name of projector.retiredCollections ?? []) await readStore.dropCollection(name);
    replay.report('done');
  } finally {
    await guard?.close();
  }
}

interface Page {
  readonly events: RecordedEvent[];
  /** Settles when the page's hash chain is checked (at once without a check); rejects at a break. */
  readonly checked: Promise<void>;
}

/**
 * Replays the log into the rebuild collections as a pipeline of three stages that overlap: the
 * next page of the log is read (and its hash chain checked) while the current one is projected,
 * and a projected batch is written (with its checkpoints) while the next one is projected.
 * Writes stay in log order, one at a time; the batch carries the documents of the write in
 * flight (see ProjectionBatch).
 */
class Replay {
  private after: Position = START;
  private head: Position = START;
  private processed = 0;
  private readonly batch: ProjectionBatch;

  constructor(
    private readonly source: ReplaySource,
    private readonly guard: ChainGuardThread | null,
    private readonly readStore: ReadStore,
    private readonly projectors: readonly Projector[],
    private readonly onProgress: (progress: RebuildProgress) => void,
    private readonly pageSize: number,
    private readonly writers: number,
  ) {
    this.batch = new ProjectionBatch(readStore, rebuildName, true);
  }

  async until(head: Position, phase: RebuildProgress['phase']): Promise<void> {
    this.head = head;
    this.report(phase);
    const none: Page = { events: [], checked: Promise.resolve() };
    let reading = comparePositions(this.after, head) < 0 ? this.read(this.after, head) : Promise.resolve(none);
    let writing: Promise<void> = Promise.resolve();
    try {
      for (let page = await reading; page.events.length > 0; page = await reading) {
        const { events, checked } = page;
        const end = events[events.length - 1]!.position;
        reading = comparePositions(end, head) < 0 ? this.read(end, head) : Promise.resolve(none);
        for (const event of events) this.batch.add(this.projectors, event);
        const changes = await this.batch.drain();
        await writing;
        // A page is written once its chain is checked, so the checkpoints never pass a break.
        writing = checked.then(() => this.write(changes, end, events.length, phase));
        void writing.catch(() => undefined);
      }
    } finally {
      await writing.catch(() => undefined);
      await reading.catch(() => undefined);
    }
    await writing;
  }

  /** The page after `after`, up to `head`, sent to the chain check; a failure is seen when the page is awaited. */
  private read(after: Position, head: Position): Promise<Page> {
    const page = this.source.stored
      .readAll({ after, maxCount: this.pageSize, maxBytes: LOG_PAGE_BYTES })
      .then(async (stored) => {
        const wanted = stored.filter((event) => comparePositions(event.position, head) <= 0);
        const checked = this.guard?.check(wanted) ?? Promise.resolve();
        void checked.catch(() => undefined);
        return { events: await this.source.open(wanted), checked };
      });
    void page.catch(() => undefined);
    return page;
  }

  /**
   * Writes a batch as up to `writers` applies at once, each holding whole projectors (their
   * changes with their checkpoints): projectors own disjoint collections, and a replay that
   * stops half-way starts afresh, so the projectors of a batch need not commit together.
   */
  private async write(changes: Change[], end: Position, events: number, phase: RebuildProgress['phase']): Promise<void> {
    const writers = Array.from({ length: Math.min(this.writers, this.projectors.length) }, () => ({ changes: [] as Change[], checkpoints: [] as Checkpoint[] }));
    const byCollection = new Map<string, Change[]>();
    for (const change of changes) {
      const list = byCollection.get(change.collection);
      if (list) list.push(change);
      else byCollection.set(change.collection, [change]);
    }
    const groups = this.projectors
      .map((projector) => ({
        changes: projector.collections.flatMap((collection) => byCollection.get(rebuildName(collection.name)) ?? []),
        checkpoint: { name: rebuildName(checkpointName(projector)), position: end },
      }))
      .sort((a, b) => b.changes.length - a.changes.length);
    for (const group of groups) {
      const lightest = writers.reduce((least, writer) => (writer.changes.length < least.changes.length ? writer : least));
      lightest.changes.push(...group.changes);
      lightest.checkpoints.push(group.checkpoint);
    }
    await Promise.all(writers.map((writer) => this.readStore.apply(writer.changes, writer.checkpoints)));
    this.after = end;
    this.processed += events;
    this.report(phase);
  }

  report(phase: RebuildProgress['phase']): void {
    this.onProgress({ eventsProcessed: this.processed, position: this.after, head: this.head, phase });
  }
}
