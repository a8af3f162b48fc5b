import type { Logger } from 'pino';
import type { LeaseStore } from '../../infra/lease/port';

/** What runs on one instance only. */
export interface LeaderWork {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** How often a standby tries to take the lease, and the holder confirms it still holds it. */
export const LEASE_CHECK_MS = 2000;

/**
 * Runs `work` only while this instance holds the lease `name`: a standby tries to take it
 * every LEASE_CHECK_MS, the holder confirms it as often and stops the work when it was lost.
 * A lost lease can overlap a new holder's start by up to one check; the process managers'
 * claims make that safe (at-least-once).
 */
export class Leadership {
  private leading = false;
  private running = false;
  private timer: NodeJS.Timeout | null = null;
  private check: Promise<void> = Promise.resolve();

  constructor(
    private readonly leases: LeaseStore,
    private readonly name: string,
    private readonly work: LeaderWork,
    private readonly logger: Logger,
    private readonly intervalMs = LEASE_CHECK_MS,
  ) {}

  get isLeading(): boolean {
    return this.leading;
  }

  async start(): Promise<void> {
    this.running = true;
    this.check = this.checkLease();
    await this.check;
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    await this.check;
    if (this.leading) {
      this.leading = false;
      await this.work.stop();
    }
    await this.leases.release(this.name).catch(() => undefined);
  }

  /** Work that failed to start is stopped and its lease given back, so this or another instance tries again. */
  private async startOrGiveBack(): Promise<void> {
    try {
      await this.work.start();
    } catch (error) {
      await this.work.stop().catch(() => undefined);
      await this.leases.release(this.name).catch(() => undefined);
      throw error;
    }
  }

  private async checkLease(): Promise<void> {
    try {
      if (this.leading && !(await this.leases.confirm(this.name))) {
        this.leading = false;
        this.logger.warn({ lease: this.name }, 'lease lost; stopping the work it guards');
        await this.work.stop();
      } else if (!this.leading && (await this.leases.tryAcquire(this.name))) {
        this.logger.info({ lease: this.name }, 'lease taken; starting the work it guards');
        await this.startOrGiveBack();
        this.leading = true;
      }
    } catch (error) {
      this.logger.error({ err: error, lease: this.name }, 'lease check failed; trying again');
    }
    if (this.running) {
      this.timer = setTimeout(() => {
        this.check = this.checkLease();
      }, this.intervalMs);
      this.timer.unref();
    }
  }
}
