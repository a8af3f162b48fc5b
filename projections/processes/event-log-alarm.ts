import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../../infra/clock';
import type { EventStore } from '../../infra/eventstore/port';
import {
  EVENT_LOG_ALERTS_STREAM,
  type EventLogAlert,
  type EventLogAlertReason,
  MAX_ALERT_PROBLEM_LENGTH,
  MAX_ALERT_PROBLEMS,
} from '../../src/domain/event-log/alerts';

/** What an alert leaves degraded until it is cleared: every reason but a guard already put back. */
const DEGRADING = new Set<EventLogAlertReason>(['checkpointRefused', 'guardsMissing', 'witnessDiffers', 'eventForged']);

/**
 * Raises what the service finds wrong with the event log itself: an error in the log, the
 * metric `eventlog_alerts_total{reason}`, an `EventLogAlertRaised` event in the service's audit
 * feed (once per distinct finding, not at every retry) and, until cleared, `/health/ready`
 * answering `degraded`. Appending the alert can fail like any append: that is logged, never thrown.
 */
export class EventLogAlarm {
  /** The findings of each raised reason, as last recorded. */
  private readonly raised = new Map<EventLogAlertReason, string>();

  constructor(
    private readonly events: EventStore,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly counted: (reason: EventLogAlertReason) => void,
  ) {}

  get degraded(): boolean {
    return [...this.raised.keys()].some((reason) => DEGRADING.has(reason));
  }

  async raise(alert: EventLogAlert): Promise<void> {
    const problems = alert.problems.slice(0, MAX_ALERT_PROBLEMS).map((problem) => (problem.length > MAX_ALERT_PROBLEM_LENGTH ? `${problem.slice(0, MAX_ALERT_PROBLEM_LENGTH - 1)}…` : problem));
    this.counted(alert.reason);
    const level = DEGRADING.has(alert.reason) ? 'error' : 'warn';
    this.logger[level]({ reason: alert.reason, checkpoint: alert.checkpoint, problems }, 'event log alert');
    const findings = JSON.stringify(problems);
    if (this.raised.get(alert.reason) === findings) return;
    this.raised.set(alert.reason, findings);
    try {
      await this.events.append(
        EVENT_LOG_ALERTS_STREAM,
        [
          {
            type: 'EventLogAlertRaised',
            data: { reason: alert.reason, checkpoint: alert.checkpoint, problems },
            metadata: {
              workspaceId: null,
              actor: 'system',
              actorKind: 'system',
              actorId: 'event-log',
              correlationId: randomUUID(),
              timestamp: this.clock.now().toISOString(),
            },
          },
        ],
        'any',
      );
    } catch (error) {
      this.logger.error({ err: error, reason: alert.reason }, 'the event log alert could not be appended to the log');
    }
  }

  clear(reason: EventLogAlertReason): void {
    if (this.raised.delete(reason)) this.logger.info({ reason }, 'event log alert cleared');
  }
}
