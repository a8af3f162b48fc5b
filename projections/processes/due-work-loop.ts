import type { Logger } from 'pino';

/** A look for due work: the items found (oldest due first) and whether the look filled its limit. */
export interface DueLook<Item> {
  readonly items: readonly Item[];
  readonly full: boolean;
}

/**
 * The loop shared by the process managers that act on due entries of a read model (webhook
 * deliveries, scheduled jobs): look for due items, work on as many at once as there is room
 * for, sleep until the next one is due or something wakes the loop. An item is never worked
 * on twice at once here; one that finished while a look ran is not taken from that look's
 * answer, which may predate its outcome. Claims against other instances are the subclass's.
 */
export abstract class DueWorkLoop<Item extends { readonly id: string }> {
  private readonly inFlight = new Set<string>();
  private readonly settledDuringLook = new Set<string>();
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private wakeUp: (() => void) | null = null;
  private woken = false;

  protected constructor(
    protected readonly logger: Logger,
    private readonly maxInFlight: number,
    protected readonly maxSleepMs: number,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Looks for due items now. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Stops looking and waits for the work in flight. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  /** Due items, at most `limit`. */
  protected abstract findDue(limit: number): Promise<DueLook<Item>>;
  protected abstract work(item: Item): Promise<void>;
  /** Milliseconds to sleep when nothing more is due; by default maxSleepMs. */
  protected async untilNextDue(): Promise<number> {
    return this.maxSleepMs;
  }

  /** Runs work on an item as in flight; false when it is already in hand or the loop is stopped. */
  protected track(id: string, work: () => Promise<void>): boolean {
    if (!this.running || this.inFlight.has(id)) return false;
    this.inFlight.add(id);
    void work()
      .catch((error: unknown) => this.logger.error({ err: error, item: id }, 'due work failed; it is taken up again when due'))
      .finally(() => {
        this.inFlight.delete(id);
        this.settledDuringLook.add(id);
        if (this.inFlight.size === Math.floor(this.maxInFlight / 2)) this.wake();
      });
    return true;
  }

  /** A due time before the next regular look wakes the loop itself. */
  protected wakeIn(ms: number): void {
    if (ms < this.maxSleepMs) setTimeout(() => this.wake(), Math.max(ms, 0)).unref();
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      let sleepMs = this.maxSleepMs;
      try {
        if (await this.takeDue()) continue;
        sleepMs = await this.untilNextDue();
      } catch (error) {
        this.logger.error({ err: error }, 'could not look for due work');
      }
      await this.sleep(sleepMs);
    }
    while (this.inFlight.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /**
   * Starts the due items there is room for; true when more may be due now. With less than half
   * the room free it waits: finishing work wakes it when half is free again.
   */
  private async takeDue(): Promise<boolean> {
    const room = this.maxInFlight - this.inFlight.size;
    if (room < this.maxInFlight / 2) return false;
    this.settledDuringLook.clear();
    const look = await this.findDue(room + this.inFlight.size);
    const fresh = look.items.filter((item) => !this.inFlight.has(item.id) && !this.settledDuringLook.has(item.id)).slice(0, room);
    for (const item of fresh) this.track(item.id, () => this.work(item));
    return fresh.length > 0 && look.full;
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken || !this.running || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = null;
        done();
      };
    });
  }
}
