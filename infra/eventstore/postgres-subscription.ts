import type { SqlClient } from '../sql/client';
import { ThreadSlices } from '../thread-slices';
import { CHANNEL } from './postgres-append';
import type { Position, RecordedEvent, SubscribeOptions, Subscription } from './port';
import { START } from './port';

/**
 * What the subscriptions of one store share: one LISTEN for all of them, and their reads of the
 * log's tail. A service runs several subscriptions (the projection daemon and each process
 * manager) that are usually at the same position, and a NOTIFY wakes them all: they then ask for
 * the same page, and one query answers them all instead of one each.
 *
 * A read may only be shared with a subscription that woke before it started, or the waker's
 * events could be missing from it. Wake-ups are numbered: every NOTIFY and every poll timer that
 * fires starts a new one, each read remembers the number current when it started, and a
 * subscription joins a read in flight only if that read started at or after its own wake-up.
 */
/** A page of the log's tail; `cut`: it stopped at its byte budget, so more events may follow at once. */
export interface TailPage {
  readonly events: RecordedEvent[];
  readonly cut: boolean;
}

export class SharedTail {
  private wakeUps = 0;
  private readonly subscribers = new Set<() => void>();
  private listening: Promise<() => Promise<void>> | null = null;
  private readonly inFlight = new Map<string, { readonly wakeUp: number; readonly page: Promise<TailPage> }>();

  constructor(
    private readonly sql: SqlClient,
    private readonly readPage: (after: Position, maxCount: number) => Promise<TailPage>,
  ) {}

  get current(): number {
    return this.wakeUps;
  }

  /** A poll timer fired: a wake-up of its own, so the read it leads to is a fresh one. */
  timerFired(): number {
    return ++this.wakeUps;
  }

  /** Calls `onNotify` on every NOTIFY of the log (and after a lost LISTEN connection is back) until the returned function is called. */
  async listen(onNotify: () => void): Promise<() => Promise<void>> {
    this.subscribers.add(onNotify);
    this.listening ??= this.sql.listen(CHANNEL, () => this.notified()).catch((error: unknown) => {
      this.listening = null;
      throw error;
    });
    try {
      await this.listening;
    } catch (error) {
      this.subscribers.delete(onNotify);
      throw error;
    }
    return async () => {
      this.subscribers.delete(onNotify);
      if (this.subscribers.size > 0 || !this.listening) return;
      const unlisten = this.listening;
      this.listening = null;
      await (await unlisten)();
    };
  }

  /** The page after `after`, from a read in flight that started at or after `wokeUp`, else from a new one. */
  read(after: Position, maxCount: number, wokeUp: number): Promise<TailPage> {
    const key = `${after.commit}:${after.prepare}:${maxCount}`;
    const shared = this.inFlight.get(key);
    if (shared && shared.wakeUp >= wokeUp) return shared.page;
    const entry = { wakeUp: this.wakeUps, page: this.readPage(after, maxCount) };
    this.inFlight.set(key, entry);
    const forget = () => {
      if (this.inFlight.get(key) === entry) this.inFlight.delete(key);
    };
    entry.page.then(forget, forget);
    return entry.page;
  }

  private notified(): void {
    this.wakeUps++;
    for (const subscriber of this.subscribers) subscriber();
  }
}

/**
 * Reads the log in batches from the last delivered position until it is caught up, then waits
 * for a NOTIFY or the poll timer. The timer matters: a NOTIFY can arrive while an older
 * transaction still holds the visible horizon back, and nothing else would announce its commit.
 * A failed read is retried from the same position; only a failing handler ends the subscription.
 */
export class PollingSubscription implements Subscription {
  readonly done: Promise<void>;
  private stopped = false;
  /** A NOTIFY arrived while no one was waiting for it. */
  private notified = false;
  private wake: (() => void) | undefined;
  /** The wake-up the next read must not predate. */
  private wokeUp: number;

  constructor(
    private readonly tail: SharedTail,
    private readonly options: SubscribeOptions,
    private readonly pollIntervalMs: number,
    private readonly batchSize: number,
  ) {
    this.wokeUp = tail.current;
    this.done = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.done.catch(() => undefined);
  }

  private async run(): Promise<void> {
    // NOTIFY only shortens the wait; without it the poll timer still finds every event.
    const unlisten = await this.tail.listen(() => this.notify()).catch(() => async () => undefined);
    try {
      let after = this.options.after ?? START;
      // Caught up is reported once at first, then again only after new deliveries.
      let unreported = true;
      let retryDelayMs = this.pollIntervalMs;
      while (!this.stopped) {
        let page: TailPage;
        try {
          page = await this.tail.read(after, this.batchSize, this.wokeUp);
          retryDelayMs = this.pollIntervalMs;
        } catch {
          await this.idle(retryDelayMs);
          retryDelayMs = Math.min(retryDelayMs * 2, 5000);
          continue;
        }
        // Subscribers check and project events without waiting for much: a page of large events is taken in slices.
        const slices = new ThreadSlices();
        for (const event of page.events) {
          if (this.stopped) return;
          await slices.next();
          await this.options.onEvent(event);
          after = event.position;
          unreported = true;
        }
        // A page cut by its byte budget is not the end of the log: read on at once.
        if (page.events.length < this.batchSize && !page.cut) {
          // A subscriber still busy with what it was given (a projection batch being written) is not read for again until it is done: the events appended meanwhile come in one page, not in a read per NOTIFY.
          if (unreported) await this.options.onCaughtUp?.(after);
          unreported = false;
          await this.idle(this.pollIntervalMs);
        }
      }
    } finally {
      await unlisten();
    }
  }

  private notify(): void {
    if (this.wake) this.wake();
    else this.notified = true;
  }

  /** Waits for a NOTIFY, `stop` or `ms`, whichever comes first. */
  private idle(ms: number): Promise<void> {
    if (this.stopped || this.notified) {
      this.notified = false;
      this.wokeUp = this.tail.current;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const finish = (wokeUp: number) => {
        clearTimeout(timer);
        this.wake = undefined;
        this.wokeUp = wokeUp;
        resolve();
      };
      const timer = setTimeout(() => finish(this.tail.timerFired()), ms);
      this.wake = () => finish(this.tail.current);
    });
  }
}
