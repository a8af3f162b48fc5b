import { schedule, type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import type { Clock } from '../../infra/clock';
import type { Document, ReadStore } from '../../infra/readstore/port';
import { SCHEDULED_JOBS } from '../read-models/scheduled-jobs';

export const RETENTION_DAYS = 30;
/** Every hour, at minute 17. */
const CLEANUP_CRON = '17 * * * *';
const BATCH = 1000;

/**
 * Removes jobs that ended (Done, Cancelled, DeadLetter) more than 30 days ago from the job
 * read model. Their events stay in the log; a rebuild of the read model brings them back
 * until the next run, which also runs at start.
 */
export class JobCleanup {
  private task: ScheduledTask | null = null;

  constructor(
    private readonly store: ReadStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.task = schedule(CLEANUP_CRON, () => void this.runLogged());
    void this.runLogged();
  }

  async stop(): Promise<void> {
    await this.task?.stop();
    this.task = null;
  }

  /** Returns how many jobs were removed. */
  async run(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - RETENTION_DAYS * 86_400_000).toISOString();
    let removed = 0;
    for (const status of ['Done', 'Cancelled', 'DeadLetter']) {
      for (;;) {
        const ended = await this.store.list<Document>(SCHEDULED_JOBS, {
          filter: {
            type: 'and',
            conditions: [
              { type: 'condition', field: 'status', operator: 'e', value: status },
              { type: 'condition', field: 'completedAt', operator: 'lt', value: cutoff },
            ],
          },
          limit: BATCH,
        });
        if (ended.length === 0) break;
        await this.store.apply(ended.map((job) => ({ kind: 'delete' as const, collection: SCHEDULED_JOBS, id: job.id })));
        removed += ended.length;
      }
    }
    return removed;
  }

  private async runLogged(): Promise<void> {
    try {
      const removed = await this.run();
      if (removed > 0) this.logger.info({ removed }, 'removed scheduled jobs that ended more than 30 days ago');
    } catch (error) {
      this.logger.error({ err: error }, 'scheduled job cleanup failed');
    }
  }
}
