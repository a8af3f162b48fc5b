import type { Logger } from 'pino';
import type { ScheduledJobCommands } from '../../commands/scheduled-jobs';
import type { Clock } from '../../infra/clock';
import type { OutboundMethod } from '../../infra/outbound/http';
import type { ReadStore } from '../../infra/readstore/port';
import type { Filter } from '../../infra/readstore/query';
import type { AttemptResult } from '../../src/domain/scheduled-job/decider';
import { SCHEDULED_JOBS, type ScheduledJobDocument } from '../read-models/scheduled-jobs';
import type { CallbackSender } from './callback-sender';


/** What the scheduler needs sealed under a workspace's data key. */
export interface SchedulerSecrets {
  /** The workspace's scheduler signing secret, or null when it has none. */
  signingSecret(workspaceId: string): Promise<string | null>;
  open(workspaceId: string, sealed: string): Promise<string>;
}

export interface JobSchedulerOptions {
  /** Callbacks in flight at once; default 256. */
  readonly maxInFlight?: number;
  /** Longest sleep: bounds how late a job scheduled by another instance is noticed; default 1 s. */
  readonly maxSleepMs?: number;
}

/**
 * Fires due jobs. It sleeps until the earliest due time in the job read model (or a new job
 * wakes it), claims each due occurrence with a JobFired event (the expected revision lets one
 * instance win), sends the callback and records the outcome. The claim is what keeps two
 * instances from firing one occurrence; a claim whose instance stopped before recording is
 * taken over after CLAIM_TIMEOUT_MS (at-least-once: receivers get Svc-Idempotency-Key).
 */
export class JobScheduler {
  private readonly inFlight = new Set<string>();
  /** Jobs finished while a look for due jobs ran: its answer may predate their outcome. */
  private readonly settledDuringLook = new Set<string>();
  private running = false;
  private loop: Promise<void> = Promise.resolve();
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private readonly maxInFlight: number;
  private readonly maxSleepMs: number;

  constructor(
    private readonly store: ReadStore,
    private readonly jobs: ScheduledJobCommands,
    private readonly callbacks: CallbackSender,
    private readonly secrets: SchedulerSecrets,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: JobSchedulerOptions = {},
  ) {
    this.maxInFlight = options.maxInFlight ?? 512;
    this.maxSleepMs = options.maxSleepMs ?? 1000;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      let sleepMs = this.maxSleepMs;
      try {
        if (await this.fireDue()) continue;
        sleepMs = await this.untilNextDue();
      } catch (error) {
        this.logger.error({ err: error }, 'scheduler could not read due jobs');
      }
      await this.sleep(sleepMs);
    }
    while (this.inFlight.size > 0) await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /** Starts the due jobs there is room for; true when more may be due now. */
  private async fireDue(): Promise<boolean> {
    const room = this.maxInFlight - this.inFlight.size;
    if (room < this.maxInFlight / 2) return false;
    const now = this.clock.now().toISOString();
    const limit = room + this.inFlight.size;
    this.settledDuringLook.clear();
    // Pending jobs that are due, and Firing jobs whose claim is past its timeout.
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
    const candidates = [...pending!, ...lost!];
    const fresh = candidates.filter((job) => !this.inFlight.has(job.id) && !this.settledDuringLook.has(job.id)).slice(0, room);
    for (const job of fresh) {
      this.inFlight.add(job.id);
      void this.fire(job)
        .catch((error: unknown) => this.logger.error({ err: error, jobId: job.jobId }, 'scheduled job could not be fired or recorded'))
        .finally(() => {
          this.inFlight.delete(job.id);
          this.settledDuringLook.add(job.id);
          if (this.inFlight.size === Math.floor(this.maxInFlight / 2)) this.wake();
        });
    }
    return fresh.length > 0 && pending!.length === limit;
  }

  /** Milliseconds until the earliest Pending job is due, at most maxSleepMs. */
  private async untilNextDue(): Promise<number> {
    const items = await this.store.list<ScheduledJobDocument>(SCHEDULED_JOBS, {
      filter: { type: 'condition', field: 'status', operator: 'e', value: 'Pending' },
      sort: [{ field: 'dueAt', direction: 'asc' }],
      limit: 1,
    });
    const next = items[0]?.dueAt;
    if (!next) return this.maxSleepMs;
    return Math.max(0, Math.min(Date.parse(next) - this.clock.now().getTime(), this.maxSleepMs));
  }

  private async fire(job: ScheduledJobDocument): Promise<void> {
    const ref = { workspaceId: job.workspaceId, jobId: job.jobId };
    const attempt = job.status === 'Firing' ? job.attempts : job.attempts + 1;
    if (!(await this.jobs.fire(ref, attempt, this.clock.now()))) return;
    const { success, result } = await this.send(job);
    const outcome = await this.jobs.recordAttempt(ref, attempt, this.clock.now(), success, result);
    if (outcome === 'JobDeadLettered') {
      this.logger.error({ jobId: job.jobId, workspaceId: job.workspaceId, attempts: attempt, statusCode: result.statusCode }, 'scheduled job dead-lettered');
    }
  }

  private async send(job: ScheduledJobDocument): Promise<{ success: boolean; result: AttemptResult }> {
    const method = job.method as OutboundMethod;
    const body = method === 'GET' || method === 'HEAD' || job.payload === undefined ? '' : JSON.stringify(job.payload);
    const custom = job.sealedHeaders ? (JSON.parse(await this.secrets.open(job.workspaceId, job.sealedHeaders)) as Record<string, string>) : {};
    const headers: Record<string, string> = { ...custom, 'Svc-Idempotency-Key': job.idempotencyKey };
    if (job.correlationId) headers['Svc-Correlation-Id'] = job.correlationId;
    const { success, ...result } = await this.callbacks.send({ url: job.callbackUrl, method, body, headers, secret: await this.secrets.signingSecret(job.workspaceId) });
    return { success, result };
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
