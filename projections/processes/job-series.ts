import type { ScheduledJobCommands } from '../../commands/scheduled-jobs';
import type { Clock } from '../../infra/clock';
import type { EventStore, RecordedEvent } from '../../infra/eventstore/port';
import { jobScheduled, scheduledJobStream } from '../../src/domain/scheduled-job/events';
import { nextOccurrence } from '../../src/domain/scheduled-job/recurrence';
import type { ProcessManager } from './process-runner';

/**
 * Continues recurring series: when an occurrence ends in Done or DeadLetter, schedules the
 * next one, anchored to the ended one's planned time and after now (missed occurrences are
 * skipped, not replayed), unless endAtUtc or maxOccurrences says the series is over.
 * Scheduling is idempotent (the next id is derived from the series), so handling an event
 * twice schedules nothing twice.
 */
export class JobSeries implements ProcessManager {
  readonly name = 'job_series';
  readonly eventTypes = new Set(['JobSucceeded', 'JobDeadLettered']);

  constructor(
    private readonly events: EventStore,
    private readonly jobs: ScheduledJobCommands,
    private readonly clock: Clock,
  ) {}

  async handle(recorded: RecordedEvent): Promise<void> {
    const { workspaceId, jobId } = recorded.data as { workspaceId: string; jobId: string };
    // The occurrence's own settings are the first event of its stream.
    const [first] = await this.events.readStream(scheduledJobStream(workspaceId, jobId), { maxCount: 1 });
    const scheduled = jobScheduled.parse(first).data;
    if (!scheduled.recurrence) return;
    if (scheduled.maxOccurrences !== null && scheduled.occurrenceNumber >= scheduled.maxOccurrences) return;
    const next = nextOccurrence(scheduled.recurrence, new Date(scheduled.plannedAt), this.clock.now());
    if (scheduled.endAtUtc !== null && next.getTime() > Date.parse(scheduled.endAtUtc)) return;
    await this.jobs.scheduleNext(scheduled, next, { workspaceId, actor: 'system', causationId: recorded.id });
  }
}
