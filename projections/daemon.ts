import type { Logger } from 'pino';
import { comparePositions, type EventStore, type Position, positionToString, type RecordedEvent, START, type Subscription } from '../infra/eventstore/port';
import type { Change, Checkpoint, ReadStore } from '../infra/readstore/port';
import { ProjectionBatch } from './batch';
import { continuedPosition, takeOverContinuedCheckpoints } from './checkpoint-takeover';
import { groupCheckpointName, groupMembers, isGroupCheckpoint, resolveCheckpoints } from './group-checkpoint';
import { checkpointName, handles, type Projector } from './projector';
import { PROJECTION_QUARANTINE, quarantined, refusedForItsContent } from './quarantine';

const MAX_BATCH_EVENTS = 500;
/** Under sustained load the subscription is never idle; this bounds how long a write waits to become visible. */
const MAX_BATCH_AGE_MS = 20;
const RESTART_DELAY_MS = 1000;

interface Waiter {
  readonly position: Position;
  readonly resolve: (reached: boolean) => void;
}

/**
 * Keeps the live read models up to date: one catch-up subscription on the global log
 * feeds every joined projector; each batch of changes is written together with one checkpoint
 * for all of them (./group-checkpoint.ts). Writers wait here until the read models reached
 * their events.
 *
 * A projector with no checkpoint in a store where others have one is a read model added to
 * a populated store: it does not join, since starting the shared subscription at the
 * beginning would hold every writer until it caught up. It waits for a backfill (a
 * blue/green replay into its own collections, `rebuildReadModels`) and joins when that
 * swaps it in with its checkpoint and restarts the daemon. A projector that reads such a read
 * model (`reads`) waits with it, and is backfilled with it; a backfilled projector's own
 * sources are replayed with it too (withTheirSources), since it reads them as they stood at each event.
 *
 * A batch that fails because of an event in it (a store refusing what it holds, a projector
 * throwing: refusedForItsContent) is projected again one event and one read model at a time
 * after the restart, and each event a read model cannot apply is quarantined (./quarantine.ts):
 * that read model's checkpoint moves past it, and every read model of every workspace goes on.
 */
export class ProjectionDaemon {
  private subscription: Subscription | null = null;
  private checkpoints = new Map<string, Position | null>();
  private joined: readonly Projector[] = [];
  /** The checkpoint row of the joined projectors together. */
  private group = groupCheckpointName([]);
  private processed: Position = START;
  /** Past it every joined projector is behind: each event goes to all of them. */
  private highestCheckpoint: Position = START;
  private batch: ProjectionBatch;
  private batchEnd: Position | null = null;
  private batchStartedAt = 0;
  private flushing: Promise<void> = Promise.resolve();
  /** The write of the last projected batch. */
  private writing: Promise<void> = Promise.resolve();
  private waiters: Waiter[] = [];
  /** Set by stop() (shutdown, or a caller that starts it again), never by a pause. */
  private stopped = true;
  /** Pauses in force: a rebuild's swap and a typed table's switch may overlap; it runs again when the last ends. */
  private pauses = 0;
  /** Starts and stops run one after another, so one never acts on the state another left half-made. */
  private lifecycle: Promise<void> = Promise.resolve();
  private restartTimer: NodeJS.Timeout | null = null;
  /** Set by a batch that failed because of an event in it: up to here, events are projected one by one. */
  private isolateThrough: Position | null = null;
  /**
   * The read models' collections were ensured since start(): the end of a pause does not ensure
   * them again (a swap brings its collections built), since writers wait for every statement of it.
   */
  private collectionsEnsured = false;

  constructor(
    private readonly events: EventStore,
    private readonly readStore: ReadStore,
    readonly projectors: readonly Projector[],
    private readonly logger: Logger,
    /** Told of each committed move of the live read models (`everything` after a start, which may follow a swap). */
    private readonly moved: (position: Position, changes: readonly Change[] | 'everything') => void = () => undefined,
  ) {
    this.batch = new ProjectionBatch(readStore, (collection) => collection);
  }

  /** The position up to which every live read model is written. */
  get position(): Position {
    return this.processed;
  }

  get running(): boolean {
    return this.subscription !== null;
  }

  /** True from start() to stop(), pauses included: this instance is the one writing the live read models. */
  get projectsHere(): boolean {
    return !this.stopped;
  }

  /** Projectors left out of live processing until a backfill swaps them in (see the class comment). */
  get awaitingBackfill(): readonly Projector[] {
    return this.projectors.filter((projector) => !this.joined.includes(projector));
  }

  /** Runs until stop(); while a pause is in force it starts when the last one ends. */
  start(): Promise<void> {
    this.stopped = false;
    this.collectionsEnsured = false;
    return this.transition(() => this.open());
  }

  /** Stops after the batch in progress is written; read models stay at a checkpoint. A pause's end does not start it again. */
  stop(): Promise<void> {
    this.stopped = true;
    return this.transition(() => this.halt());
  }

  /** LiveProjections: stops until every pause has ended (a rebuild's swap, a typed table's switch). */
  pause(): Promise<void> {
    this.pauses += 1;
    return this.transition(() => this.halt());
  }

  /**
   * Ends a pause; the last one starts the read models again unless stop() was called. The end of
   * a pause must not leave them stopped: when the stores do not answer then (the embedded engine
   * starting again, the database away), the start is retried as after a failure.
   */
  async resume(): Promise<void> {
    if (this.pauses === 0) throw new Error('resume() without a pause');
    this.pauses -= 1;
    try {
      await this.transition(() => this.open());
    } catch (error) {
      this.logger.error({ err: error }, `projections could not resume; retrying in ${RESTART_DELAY_MS} ms`);
      this.scheduleRestart();
    }
  }

  private transition(work: () => Promise<void>): Promise<void> {
    const done = this.lifecycle.then(work);
    this.lifecycle = done.catch(() => undefined);
    return done;
  }

  private async open(): Promise<void> {
    if (this.stopped || this.subscription) return;
    // Read even while a pause defers the start, so that awaitingBackfill answers for the store as it is now.
    await this.join();
    if (this.pauses > 0) return;
    if (!this.collectionsEnsured) await this.ensureCollections();
    const start = lowestCheckpoint(this.joined.map((projector) => this.checkpoints.get(projector.name) ?? null));
    this.processed = start;
    this.highestCheckpoint = highestCheckpoint(this.joined.map((projector) => this.checkpoints.get(projector.name) ?? null));
    // Writes waiting for what a rebuild's swap (or the store before a restart) already covers are answered now.
    this.releaseWaiters();
    this.moved(start, 'everything');
    this.batch = new ProjectionBatch(this.readStore, (collection) => collection);
    this.batchEnd = null;
    this.flushing = Promise.resolve();
    this.writing = Promise.resolve();
    const subscription = this.events.subscribeToAll({
      after: start,
      onEvent: (event) => this.onEvent(event),
      // Answered once the batch is projected and its write has started, after the write before it: the next read gathers the next batch meanwhile.
      onCaughtUp: () => {
        this.flushing = this.flushing.then(() => this.flush()).catch((error: unknown) => this.fail(subscription, error));
        return this.flushing;
      },
    });
    this.subscription = subscription;
    subscription.done.catch((error: unknown) => this.fail(subscription, error));
  }

  private async ensureCollections(): Promise<void> {
    await this.readStore.ensureCollection(PROJECTION_QUARANTINE, []);
    for (const projector of this.projectors) {
      for (const collection of projector.collections) {
        // One awaiting its backfill gets an empty collection if it has none; one built by another
        // version keeps serving its collections as they are until the backfill swaps in the new ones.
        if (this.joined.includes(projector)) await this.readStore.ensureCollection(collection.name, collection.indexes, collection.columns);
        else await this.readStore.ensureCollection(collection.name, []);
      }
    }
    this.collectionsEnsured = true;
  }

  /**
   * Which projectors process live events, from the checkpoints in the store (see the class
   * comment). A group of other members (the last run's, before a backfill joined or a version
   * changed) is written out into its members' own checkpoints and removed.
   */
  private async join(): Promise<void> {
    await takeOverContinuedCheckpoints(this.readStore, this.projectors);
    const stored = await this.readStore.listCheckpoints();
    const positions = this.joinFrom(stored);
    const formerGroups = stored.filter(({ name }) => isGroupCheckpoint(name) && name !== this.group);
    if (formerGroups.length === 0) return;
    // A member this version does not run (a projector removed, another version's) is left behind with the group.
    const current = new Set(this.projectors.map(checkpointName));
    const members = new Set(formerGroups.flatMap(({ name }) => groupMembers(name)).filter((name) => current.has(name)));
    await this.readStore.apply([], [...members].map((name) => ({ name, position: positions.get(name)! })));
    for (const { name } of formerGroups) await this.readStore.deleteCheckpoint(name);
  }

  /** Which projectors are live by the checkpoints `stored`, and where each stands. */
  private joinFrom(stored: readonly Checkpoint[]): Map<string, Position> {
    const positions = resolveCheckpoints(stored);
    // A follower of an instance that still runs the version a projector continues reads that version's read model as its own.
    this.checkpoints = new Map(this.projectors.map((projector) => [projector.name, continuedPosition(projector, positions)]));
    const backfilled = this.projectors.filter((projector) => this.checkpoints.get(projector.name) !== null);
    this.joined = joinable(backfilled.length === 0 ? this.projectors : backfilled);
    this.group = groupCheckpointName(this.joined.map(checkpointName));
    return positions;
  }

  /**
   * While another instance projects: takes where the live read models stand from the store (at
   * the start, and when moves may have been missed). Does nothing while this instance projects.
   */
  async followStore(): Promise<void> {
    if (this.subscription) return;
    const stored = await this.readStore.listCheckpoints();
    if (this.subscription) return;
    this.joinFrom(stored);
    this.observe(lowestCheckpoint(this.joined.map((projector) => this.checkpoints.get(projector.name) ?? null)));
  }

  /** Where the store says the live read models stand, from their group checkpoint; null when the store holds another group. */
  async storedPosition(): Promise<Position | null> {
    return this.readStore.getCheckpoint(this.group);
  }

  /** Another instance wrote the live read models up to `position`: writes waiting for it are answered. */
  observe(position: Position): void {
    if (this.subscription || comparePositions(position, this.processed) <= 0) return;
    this.processed = position;
    this.releaseWaiters();
  }

  private fail(subscription: Subscription, error: unknown): void {
    if (this.subscription !== subscription) return;
    // Waiters stay: the restart will reach their positions, or their own timeout answers them.
    this.subscription = null;
    this.logger.error({ err: error }, `projections stopped on an error; restarting in ${RESTART_DELAY_MS} ms`);
    void subscription.stop().catch(() => undefined);
    this.scheduleRestart();
  }

  /** Retries until the stores answer again; the service keeps serving the read models meanwhile. */
  private scheduleRestart(): void {
    if (this.restartTimer) return;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.transition(() => this.open()).catch((error: unknown) => {
        this.logger.error({ err: error }, `projections failed to restart; retrying in ${RESTART_DELAY_MS} ms`);
        this.scheduleRestart();
      });
    }, RESTART_DELAY_MS);
  }

  private async halt(): Promise<void> {
    // Stopped while waiting to restart after a failure: what the failed run gathered is not
    // written (a write before it may have failed); the next start resumes from the checkpoints.
    const failed = this.restartTimer !== null;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    const subscription = this.subscription;
    this.subscription = null;
    if (subscription) await subscription.stop();
    if (failed) return;
    try {
      await this.flushing;
      await this.flush();
      await this.writing;
    } catch (error) {
      // Nothing of the batch was written, its checkpoint included (a fenced batch of a lost lease, a store away): the next start resumes from the checkpoints.
      this.logger.warn({ err: error }, 'projections stopped with their last batch unwritten');
    }
  }

  /**
   * Resolves true once every live read model has processed `position`, or false after
   * `timeoutMs` (the write is durable either way; only its visibility is late).
   */
  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    if (comparePositions(this.processed, position) >= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        position,
        resolve: (reached) => {
          clearTimeout(timer);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((other) => other !== waiter);
        resolve(false);
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  private async onEvent(event: RecordedEvent): Promise<void> {
    await this.flushing;
    // After a restart a projector whose checkpoint is ahead of the shared start skips what it has seen.
    const behind =
      comparePositions(event.position, this.highestCheckpoint) > 0
        ? this.joined
        : this.joined.filter((projector) => {
            const checkpoint = this.checkpoints.get(projector.name) ?? null;
            return checkpoint === null || comparePositions(event.position, checkpoint) > 0;
          });
    if (this.isolateThrough !== null) {
      if (comparePositions(event.position, this.isolateThrough) <= 0) return this.isolate(behind, event);
      this.isolateThrough = null;
    }
    // A full batch is written before the next transaction's first event, never inside one: the events
    // of one append (a release's items) become visible to readers together. A batch waiting for that
    // event is written when the subscription catches up.
    if (this.batchEnd !== null && event.position.commit !== this.batchEnd.commit && this.batchIsDue()) {
      this.flushing = this.flush();
      await this.flushing;
    }
    this.batch.add(behind, event);
    if (this.batchEnd === null) this.batchStartedAt = Date.now();
    this.batchEnd = event.position;
  }

  private batchIsDue(): boolean {
    return this.batch.size >= MAX_BATCH_EVENTS || Date.now() - this.batchStartedAt >= MAX_BATCH_AGE_MS;
  }

  /**
   * Projects the batch, then writes it once the previous batch is written, and returns without
   * waiting for this write: the next batch is gathered and projected while it runs (the batch
   * carries the documents of the write in flight, see ProjectionBatch). Writes stay in log order.
   */
  private async flush(): Promise<void> {
    const end = this.batchEnd;
    if (end === null) return;
    this.batchEnd = null;
    let changes: Change[];
    try {
      changes = await this.batch.drain();
    } catch (error) {
      this.isolateAfter(error, end);
      throw error;
    }
    // A checkpoint moves only for a projector that was behind `end`: one that is ahead skipped the batch.
    const advanced = this.joined.filter((projector) => {
      const checkpoint = this.checkpoints.get(projector.name) ?? null;
      return checkpoint === null || comparePositions(checkpoint, end) < 0;
    });
    await this.writing;
    const writing = this.write(changes, advanced, end);
    this.writing = writing;
    const subscription = this.subscription;
    writing.catch((error: unknown) => {
      this.isolateAfter(error, end);
      if (subscription) this.fail(subscription, error);
    });
  }

  /** After a batch ending at `end` failed because of an event in it, the restart projects its events one by one. */
  private isolateAfter(error: unknown, end: Position): void {
    if (!refusedForItsContent(error)) return;
    if (this.isolateThrough === null || comparePositions(end, this.isolateThrough) > 0) this.isolateThrough = end;
  }

  /**
   * Projects `event` for each read model alone and writes each with its own checkpoint; one that
   * is refused because of the event is quarantined with the checkpoint moved past it. A failure
   * of another kind (a store away) stops the run as any failure does, to be retried from here.
   */
  private async isolate(behind: readonly Projector[], event: RecordedEvent): Promise<void> {
    await this.writing;
    for (const projector of behind.filter((candidate) => handles(candidate, event.type))) {
      const checkpoint = [{ name: checkpointName(projector), position: event.position }];
      try {
        const batch = new ProjectionBatch(this.readStore, (collection) => collection);
        batch.add([projector], event);
        await this.readStore.apply(await batch.drain(), checkpoint);
      } catch (error) {
        if (!refusedForItsContent(error)) throw error;
        this.logger.error(
          { err: error, projection: projector.name, eventId: event.id, eventType: event.type, position: positionToString(event.position) },
          'a read model cannot apply an event: the event is quarantined for it and the read model goes on (GET /admin/projections/quarantine)',
        );
        await this.readStore.apply([{ kind: 'upsert', collection: PROJECTION_QUARANTINE, document: quarantined(projector.name, event, error, new Date()) }], checkpoint);
      }
      this.checkpoints.set(projector.name, event.position);
    }
    this.processed = event.position;
    this.releaseWaiters();
    this.moved(event.position, 'everything');
  }

  private async write(changes: Change[], advanced: readonly Projector[], end: Position): Promise<void> {
    // Projectors ahead of `end` (they skipped the batch) keep their own, further checkpoint.
    await this.readStore.apply(changes, [{ name: this.group, position: end }]);
    for (const projector of advanced) this.checkpoints.set(projector.name, end);
    this.processed = end;
    this.releaseWaiters();
    this.moved(end, changes);
  }

  private releaseWaiters(): void {
    const ready = this.waiters.filter((waiter) => comparePositions(this.processed, waiter.position) >= 0);
    this.waiters = this.waiters.filter((waiter) => !ready.includes(waiter));
    for (const waiter of ready) waiter.resolve(true);
  }
}

/** Where a shared subscription must start so that no projector misses an event. */
function lowestCheckpoint(checkpoints: readonly (Position | null)[]): Position {
  if (checkpoints.length === 0 || checkpoints.some((checkpoint) => checkpoint === null)) return START;
  return (checkpoints as Position[]).reduce((lowest, checkpoint) => (comparePositions(checkpoint, lowest) < 0 ? checkpoint : lowest));
}

function highestCheckpoint(checkpoints: readonly (Position | null)[]): Position {
  return checkpoints.reduce<Position>((highest, checkpoint) => (checkpoint !== null && comparePositions(checkpoint, highest) > 0 ? checkpoint : highest), START);
}

/** The projectors among `candidates` whose `reads` are all among them too (to a fixed point: a read may depend on a read). */
function joinable(candidates: readonly Projector[]): readonly Projector[] {
  let joined = candidates;
  for (;;) {
    const names = new Set(joined.map((projector) => projector.name));
    const next = joined.filter((projector) => (projector.reads ?? []).every((name) => names.has(name)));
    if (next.length === joined.length) return joined;
    joined = next;
  }
}
