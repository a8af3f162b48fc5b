import { schedule, type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import type { Clock } from '../../infra/clock';
import type { Document, ReadStore } from '../../infra/readstore/port';
import type { Filter } from '../../infra/readstore/query';
import { EXECUTION_RECORD_LIFETIME_MS } from '../../src/domain/action-execution/events';
import { ACTION_EXECUTIONS } from '../read-models/action-executions';
import { SCHEDULED_JOBS } from '../read-models/scheduled-jobs';

/** Every hour, at minute 17. */
const CLEANUP_CRON = '17 * * * *';
const BATCH = 1000;
const TERMINAL_JOB_RETENTION_DAYS = 30;

/** Documents of one read model that are removed once they are older than a retention period. */
export interface RetentionRule {
  /** What is removed, for the log: "scheduled jobs that ended more than 30 days ago". */
  readonly description: string;
  readonly collection: string;
  readonly retentionMs: number;
  /** The filter that selects the documents past retention, given the cutoff time (ISO 8601). */
  readonly expiredBefore: (cutoff: string) => Filter;
}

/**
 * Removes read-model documents past their retention (terminal scheduled jobs after 30 days,
 * action execution records after 7). Their events stay in the log; a rebuild of the read
 * model brings them back until the next run, which also runs at start, and the queries
 * already hide what is past retention.
 */
export class RetentionCleanup {
  private task: ScheduledTask | null = null;

  constructor(
    private readonly rules: readonly RetentionRule[],
    private readonly store: ReadStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.task = schedule(CLEANUP_CRON, () => void this.run());
    void this.run();
  }

  async stop(): Promise<void> {
    await this.task?.stop();
    this.task = null;
  }

  /** Returns how many documents it removed. */
  private async apply(rule: RetentionRule): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - rule.retentionMs).toISOString();
    let removed = 0;
    for (;;) {
      const expired = await this.store.list<Document>(rule.collection, { filter: rule.expiredBefore(cutoff), limit: BATCH });
      if (expired.length === 0) return removed;
      await this.store.apply(expired.map((document) => ({ kind: 'delete' as const, collection: rule.collection, id: document.id })));
      removed += expired.length;
    }
  }

  private async run(): Promise<void> {
    for (const rule of this.rules) {
      try {
        const removed = await this.apply(rule);
        if (removed > 0) this.logger.info({ removed }, `removed ${rule.description}`);
      } catch (error) {
        this.logger.error({ err: error }, `removing ${rule.description} failed`);
      }
    }
  }
}

const DAY_MS = 86_400_000;

export const RETENTION_RULES: readonly RetentionRule[] = [
  {
    description: 'scheduled jobs that ended more than 30 days ago',
    collection: SCHEDULED_JOBS,
    retentionMs: TERMINAL_JOB_RETENTION_DAYS * DAY_MS,
    expiredBefore: (cutoff) => ({
      type: 'and',
      conditions: [
        { type: 'condition', field: 'status', operator: 'in', value: ['Done', 'Cancelled', 'DeadLetter'] },
        { type: 'condition', field: 'completedAt', operator: 'lt', value: cutoff },
      ],
    }),
  },
  {
    description: 'content action execution records older than 7 days',
    collection: ACTION_EXECUTIONS,
    retentionMs: EXECUTION_RECORD_LIFETIME_MS,
    expiredBefore: (cutoff) => ({ type: 'condition', field: 'startedAt', operator: 'lt', value: cutoff }),
  },
];
