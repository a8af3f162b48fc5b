import { schedule, type ScheduledTask } from 'node-cron';

/**
 * Runs a sweep at start and then on a cron schedule, never two at once (a turn that finds the
 * last one still running is skipped); a failed sweep is reported and tried again at the next turn.
 */
export class PeriodicSweep {
  private task: ScheduledTask | null = null;
  private sweeping: Promise<void> = Promise.resolve();
  private inProgress = false;

  constructor(
    private readonly cron: string,
    private readonly sweep: () => Promise<void>,
    private readonly onFailure: (error: unknown) => void,
  ) {}

  start(): void {
    this.task = schedule(this.cron, () => this.sweepOnce());
    this.sweepOnce();
  }

  async stop(): Promise<void> {
    await this.task?.stop();
    this.task = null;
    await this.sweeping;
  }

  private sweepOnce(): void {
    if (this.inProgress) return;
    this.inProgress = true;
    this.sweeping = this.sweep()
      .catch(this.onFailure)
      .finally(() => {
        this.inProgress = false;
      });
  }
}
