import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import type { ScheduledJobCommands } from '../../commands/scheduled-jobs';
import type { Clock } from '../../infra/clock';
import type { OutboundMethod } from '../../infra/outbound/http';
import type { ReadStore } from '../../infra/readstore/port';
import type { Filter } from '../../infra/readstore/query';
import type { AttemptResult } from '../../src/domain/scheduled-job/decider';
import { DomainError } from '../../src/domain/errors';
import { SCHEDULED_JOBS, type ScheduledJobDocument } from '../read-models/scheduled-jobs';
import { type DueLook, DueWorkLoop } from './due-work-loop';
import type { CallbackSender } from './callback-sender';

/** What the scheduler needs sealed under a workspace's data key. */
export interface SchedulerSecrets {
  /** The workspace's scheduler signing secret, or null when it has none. */
  signingSecret(workspaceId: string): Promise<string | null>;
  open(workspaceId: string, sealed: string): Promise<string>;
}

const JOB_OUTCOME_LABELS = { JobSucceeded: 'done', JobFailed: 'retry', JobDeadLettered: 'dead_letter' } as const;

export interface JobSchedulerOptions {
  /** Callbacks in flight at once; default 256. */
  readonly maxInFlight?: number;
  /** Longest sleep: bounds how late a job scheduled by another instance is noticed; default 1 s. */
  readonly maxSleepMs?: number;
  /** Counts callbacks by outcome: done, retry, dead_letter. */
  readonly outcomes?: Pick<Counter<'outcome'>, 'inc'>;
}

/**
 * Fires due jobs. It sleeps until the earliest due time in the job read model (or a new job
 * wakes it), claims each due occurrence with a JobFired event (the expected revision lets one
 * instance win), sends the callback and records the outcome. The claim is what keeps two
 * instances from firing one occurrence; a claim whose instance stopped before recording is
 * taken over after CLAIM_TIMEOUT_MS (at-least-once: receivers get Svc-Idempotency-Key).
 */
export class JobScheduler extends DueWorkLoop<ScheduledJobDocument> {
  constructor(
    private readonly store: ReadStore,
    private readonly jobs: ScheduledJobCommands,
    private readonly callbacks: CallbackSender,
    private readonly secrets: SchedulerSecrets,
    private readonly clock: Clock,
    logger: Logger,
    private readonly options: JobSchedulerOptions = {},
  ) {
    super(logger, options.maxInFlight ?? 512, options.maxSleepMs ?? 1000);
  }

  /** Pending jobs that are due, and Firing jobs whose claim is past its timeout. */
  protected async findDue(limit: number): Promise<DueLook<ScheduledJobDocument>> {
    const now = this.clock.now().toISOString();
    const due = (status: string): Filter => ({
      type: 'and',
      conditions: [
        { type: 'condition', field: 'status', operator: 'e', value: status },
        { type: 'condition', field: 'dueAt', operator: 'lte', value: now },
      ],
    });
    const [pending, lost] = await Promise.all(
      ['Pending', 'Firing'].map((status) => this.store.list<ScheduledJobDocument>(SCHEDULED_JOBS, { filter: due(status), sort: [{ field: 'dueAt', direction: 'asc' }], limit })),
    );
    return { items: [...pending!, ...lost!], full: pending!.length === limit };
  }

  /** Milliseconds until the earliest Pending job is due, at most maxSleepMs. */
  protected override async untilNextDue(): Promise<number> {
    const items = await this.store.list<ScheduledJobDocument>(SCHEDULED_JOBS, {
      filter: { type: 'condition', field: 'status', operator: 'e', value: 'Pending' },
      sort: [{ field: 'dueAt', direction: 'asc' }],
      limit: 1,
    });
    const next = items[0]?.dueAt;
    if (!next) return this.maxSleepMs;
    return Math.max(0, Math.min(Date.parse(next) - this.clock.now().getTime(), this.maxSleepMs));
  }

  /** Claims the occurrence, sends the callback and records the outcome. */
  protected async work(job: ScheduledJobDocument): Promise<void> {
    const ref = { workspaceId: job.workspaceId, jobId: job.jobId };
    const attempt = job.status === 'Firing' ? job.attempts : job.attempts + 1;
    if (!(await this.jobs.fire(ref, attempt, this.clock.now()))) return;
    const { success, result } = await this.send(job);
    let outcome: string | undefined;
    try {
      outcome = await this.jobs.recordAttempt(ref, attempt, this.clock.now(), success, result);
    } catch (error) {
      // The claim outlived its timeout: the job was cancelled, or the attempt taken over and recorded elsewhere.
      if (error instanceof DomainError && error.kind === 'conflict') return;
      throw error;
    }
    if (outcome && outcome in JOB_OUTCOME_LABELS) this.options.outcomes?.inc({ outcome: JOB_OUTCOME_LABELS[outcome as keyof typeof JOB_OUTCOME_LABELS] });
    if (outcome === 'JobDeadLettered') {
      this.logger.error({ jobId: job.jobId, workspaceId: job.workspaceId, attempts: attempt, statusCode: result.statusCode }, 'scheduled job dead-lettered');
    }
  }

  private async send(job: ScheduledJobDocument): Promise<{ success: boolean; result: AttemptResult }> {
    const method = job.method as OutboundMethod;
    const body = method === 'GET' || method === 'HEAD' ? '' : payloadText(job);
    const custom = job.sealedHeaders ? (JSON.parse(await this.secrets.open(job.workspaceId, job.sealedHeaders)) as Record<string, string>) : {};
    const headers: Record<string, string> = { ...custom, 'Svc-Idempotency-Key': job.idempotencyKey };
    if (job.correlationId) headers['Svc-Correlation-Id'] = job.correlationId;
    const { success, ...result } = await this.callbacks.send({ url: job.callbackUrl, method, body, headers, secret: await this.secrets.signingSecret(job.workspaceId) });
    return { success, result };
  }
}

/** The payload as the client sent it; for jobs scheduled before that was kept, the stored value. */
function payloadText(job: ScheduledJobDocument): string {
  if (job.payloadJson !== undefined) return job.payloadJson;
  return job.payload === undefined ? '' : JSON.stringify(job.payload);
}
