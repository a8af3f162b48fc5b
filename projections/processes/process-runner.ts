import type { Logger } from 'pino';
import { comparePositions, type EventStore, type Position, type RecordedEvent, type Subscription } from '../../infra/eventstore/port';
import type { ReadStore } from '../../infra/readstore/port';

/** A process manager: turns events into side effects, each recorded through commands. */
export interface ProcessManager {
  readonly name: string;
  readonly eventTypes: ReadonlySet<string>;
  /** Must be safe to run twice for one event (at-least-once). Resolves false when the event called for nothing. */
  handle(event: RecordedEvent): Promise<void | boolean>;
}

export interface ProcessRunnerOptions {
  /** Events handled at once; default 256. */
  readonly maxInFlight?: number;
  /** How often the checkpoint is saved while events are handled; default 200 ms. */
  readonly checkpointEveryMs?: number;
  /** How often it is saved when it only passed events of other types; default 10 s. */
  readonly passingCheckpointEveryMs?: number;
  /** First wait after a failed handler, doubled up to 30 s; default 1 s. */
  readonly retryDelayMs?: number;
  /**
   * After it has caught up with new events, how long the runner waits before it reads the log
   * again; default 50 ms. Its effects may come that much later under a stream of writes, and it
   * reads the log once per pause instead of once per append.
   */
  readonly readPauseMs?: number;
}

/** Events taken but not yet behind the checkpoint, at most. */
const MAX_UNSETTLED = 10_000;

interface Task {
  readonly position: Position;
  /** Handled with an effect (not passed over, not found to call for nothing). */
  acted: boolean;
  done: boolean;
}

/**
 * Runs one process manager on its own subscription. Events are handled concurrently (up to
 * maxInFlight) and the checkpoint (`process:<name>` beside the read-model checkpoints) only
 * moves past an event once it and every event before it are handled, so a restart repeats
 * at most the events in flight: at-least-once, which the managers' idempotent commands
 * absorb. A failing handler is retried with backoff, never skipped. A manager without a
 * checkpoint starts at the head of the log: a new process does not replay old side effects.
 * Progress over events that called for nothing (others' types, or content events no webhook
 * listens to) is saved every passingCheckpointEveryMs, not every tick: every content write
 * moved each runner's row, three of the read store's rows per write at a slow pace, and a
 * restart reads those seconds of events again without acting on them.
 */
export class ProcessRunner {
  private subscription: Subscription | null = null;
  private readonly tasks: Task[] = [];
  private running = 0;
  private handled: Position | null = null;
  private saved: Position | null = null;
  /** The handled position passed an event handled with an effect since the last save. */
  private passedActed = false;
  private savedAt = 0;
  private slotFreed: (() => void) | null = null;
  private checkpointTimer: NodeJS.Timeout | null = null;
  private stopping = false;
  private readonly maxInFlight: number;
  private readonly checkpointEveryMs: number;
  private readonly passingCheckpointEveryMs: number;
  private readonly retryDelayMs: number;
  private readonly readPauseMs: number;
  private endPause: (() => void) | null = null;

  constructor(
    private readonly events: EventStore,
    private readonly readStore: ReadStore,
    private readonly manager: ProcessManager,
    private readonly logger: Logger,
    options: ProcessRunnerOptions = {},
  ) {
    this.maxInFlight = options.maxInFlight ?? 256;
    this.checkpointEveryMs = options.checkpointEveryMs ?? 200;
    this.passingCheckpointEveryMs = options.passingCheckpointEveryMs ?? 10_000;
    this.retryDelayMs = options.retryDelayMs ?? 1000;
    this.readPauseMs = options.readPauseMs ?? 50;
  }

  get checkpointName(): string {
    return `process:${this.manager.name}`;
  }

  async start(): Promise<void> {
    this.stopping = false;
    let after = await this.readStore.getCheckpoint(this.checkpointName);
    if (after === null) {
      after = await this.events.headPosition();
      await this.readStore.apply([], [{ name: this.checkpointName, position: after }]);
    }
    this.handled = this.saved = after;
    this.savedAt = Date.now();
    this.subscription = this.events.subscribeToAll({ after, onEvent: (event) => this.onEvent(event), onCaughtUp: () => this.pause() });
    this.subscription.done.catch((error: unknown) => this.logger.error({ err: error }, `process ${this.manager.name} stopped`));
    this.checkpointTimer = setInterval(() => void this.saveCheckpoint(), this.checkpointEveryMs);
  }

  /** Stops taking events, lets the ones in flight finish and saves the checkpoint. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.checkpointTimer) clearInterval(this.checkpointTimer);
    this.slotFreed?.();
    this.endPause?.();
    await this.subscription?.stop();
    while (this.running > 0) await new Promise<void>((resolve) => (this.slotFreed = resolve));
    await this.saveCheckpoint(true);
  }

  /** Holds the subscription's next read for readPauseMs, or until a stop. */
  private pause(): Promise<void> {
    if (this.readPauseMs <= 0 || this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.endPause?.(), this.readPauseMs);
      this.endPause = () => {
        clearTimeout(timer);
        this.endPause = null;
        resolve();
      };
    });
  }

  private async onEvent(event: RecordedEvent): Promise<void> {
    // Events pile up behind one that keeps failing; past a bound the subscription waits for it.
    while (this.tasks.length >= MAX_UNSETTLED && !this.stopping) await new Promise<void>((resolve) => (this.slotFreed = resolve));
    if (!this.manager.eventTypes.has(event.type)) {
      this.tasks.push({ position: event.position, acted: false, done: true });
      return this.settle();
    }
    while (this.running >= this.maxInFlight && !this.stopping) await new Promise<void>((resolve) => (this.slotFreed = resolve));
    // Not taken on a stop: the checkpoint stays before it, so the next start handles it.
    if (this.stopping) return;
    const task: Task = { position: event.position, acted: true, done: false };
    this.tasks.push(task);
    this.running++;
    void this.run(event, task);
  }

  private async run(event: RecordedEvent, task: Task): Promise<void> {
    for (let delay = this.retryDelayMs; !this.stopping; delay = Math.min(delay * 2, 30_000)) {
      try {
        task.acted = (await this.manager.handle(event)) !== false;
        // Only a handled event lets the checkpoint pass it; one abandoned on a stop is handled on the next start.
        task.done = true;
        break;
      } catch (error) {
        this.logger.error({ err: error, eventId: event.id, eventType: event.type }, `process ${this.manager.name} failed on an event; retrying in ${delay} ms`);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
    this.running--;
    this.settle();
  }

  /** Moves the handled position over the finished prefix and frees a slot. */
  private settle(): void {
    while (this.tasks.length > 0 && this.tasks[0]!.done) {
      const task = this.tasks.shift()!;
      this.handled = task.position;
      if (task.acted) this.passedActed = true;
    }
    const wake = this.slotFreed;
    this.slotFreed = null;
    wake?.();
  }

  private async saveCheckpoint(always = false): Promise<void> {
    const handled = this.handled;
    if (handled === null || (this.saved !== null && comparePositions(handled, this.saved) <= 0)) return;
    if (!always && !this.passedActed && Date.now() - this.savedAt < this.passingCheckpointEveryMs) return;
    const passedActed = this.passedActed;
    this.passedActed = false;
    try {
      await this.readStore.apply([], [{ name: this.checkpointName, position: handled }]);
      this.saved = handled;
      this.savedAt = Date.now();
    } catch (error) {
      this.passedActed ||= passedActed;
      this.logger.warn({ err: error }, `process ${this.manager.name}: checkpoint not saved; will retry`);
    }
  }
}
