import { randomUUID } from 'node:crypto';
import type { WorkspaceCipher } from '../infra/crypto/envelope';
import { derivedId } from '../src/domain/derived-id';
import { type AttemptResult, scheduledJobDecider, type ScheduledJobCommand } from '../src/domain/scheduled-job/decider';
import { type JobRecurrence, type JobScheduledData, scheduledJobEvent, scheduledJobStream } from '../src/domain/scheduled-job/events';
import { DomainError } from '../src/domain/errors';
import type { CommandContext, CommandRunner, RunOptions } from './aggregate';

export const scheduledJobAggregate = { decider: scheduledJobDecider, parse: scheduledJobEvent.parse };

export interface ScheduleJobInput {
  readonly name: string | null;
  readonly callbackUrl: string;
  readonly method: string;
  /** Sealed before they enter the log. */
  readonly headers: Record<string, string>;
  /** The payload's JSON text, sent as it is. */
  readonly payloadJson: string;
  readonly maxRetries: number;
  /** Generated when absent. */
  readonly idempotencyKey: string | null;
  readonly correlationId: string | null;
  readonly recurrence: JobRecurrence | null;
  readonly endAtUtc: Date | null;
  readonly maxOccurrences: number | null;
  readonly firstFireAt: Date;
}

export interface JobRef {
  readonly workspaceId: string;
  readonly jobId: string;
}

export class ScheduledJobCommands {
  constructor(
    private readonly runner: CommandRunner,
    private readonly cipher: WorkspaceCipher,
    private readonly backoffUnitMs: number,
    /** Tells the dispatcher a job was scheduled, so an early one is not waited for. */
    private readonly onScheduled: () => void,
  ) {}

  /** Schedules the first occurrence of a job (or series); returns its id. */
  async schedule(workspaceId: string, input: ScheduleJobInput, context: CommandContext): Promise<string> {
    const jobId = randomUUID();
    const key = input.idempotencyKey ?? randomUUID();
    const { firstFireAt, endAtUtc, headers, ...rest } = input;
    const headerNames = Object.keys(headers);
    await this.create({
      ...rest,
      sealedHeaders: headerNames.length > 0 ? await this.cipher.encrypt(workspaceId, JSON.stringify(headers)) : null,
      headerNames,
      jobId,
      workspaceId,
      seriesId: jobId,
      occurrenceNumber: 1,
      idempotencyKey: key,
      seriesIdempotencyKey: key,
      endAtUtc: endAtUtc?.toISOString() ?? null,
      plannedAt: firstFireAt.toISOString(),
    }, context);
    return jobId;
  }

  /** Schedules the occurrence after `previous`; idempotent (its id is derived from the series and number). */
  async scheduleNext(previous: JobScheduledData, plannedAt: Date, context: CommandContext): Promise<void> {
    const occurrenceNumber = previous.occurrenceNumber + 1;
    await this.create({
      ...previous,
      jobId: derivedId(previous.seriesId, occurrenceNumber),
      occurrenceNumber,
      idempotencyKey: `${previous.seriesIdempotencyKey}:${occurrenceNumber}`,
      plannedAt: plannedAt.toISOString(),
    }, context);
  }

  /**
   * Claims the attempt; false when another instance claimed it first or the job is no longer
   * due. Winning the append is the claim, so it does not wait for the read models.
   */
  async fire(ref: JobRef, attempt: number, at: Date): Promise<boolean> {
    try {
      await this.run({ type: 'FireJob', data: { ...ref, attempt, at: at.toISOString() } }, { workspaceId: ref.workspaceId, actor: 'system' }, { waitForReadModels: false });
      return true;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'conflict') return false;
      throw error;
    }
  }

  /** Returns the recorded outcome's event type. */
  async recordAttempt(ref: JobRef, attempt: number, at: Date, success: boolean, result: AttemptResult): Promise<string | undefined> {
    const { events } = await this.run(
      { type: 'RecordJobAttempt', data: { ...ref, ...result, attempt, at: at.toISOString(), success, backoffUnitMs: this.backoffUnitMs } },
      { workspaceId: ref.workspaceId, actor: 'system' },
    );
    if (events.some((event) => event.type === 'JobFailed')) this.onScheduled();
    return events[0]?.type;
  }

  async cancel(ref: JobRef, at: Date, context: CommandContext): Promise<void> {
    await this.run({ type: 'CancelJob', data: { ...ref, at: at.toISOString() } }, context);
  }

  private async create(data: JobScheduledData, context: CommandContext): Promise<void> {
    await this.runner.create(scheduledJobAggregate, scheduledJobStream(data.workspaceId, data.jobId), { type: 'ScheduleJob', data }, context);
    this.onScheduled();
  }

  private run(command: ScheduledJobCommand, context: CommandContext, options?: RunOptions) {
    return this.runner.run(scheduledJobAggregate, scheduledJobStream(command.data.workspaceId, command.data.jobId), command, context, options);
  }
}
