import { z } from 'zod';

/** Where the service records what it found wrong with the event log itself: the service's own audit feed (GET /admin/audit). */
export const EVENT_LOG_ALERTS_STREAM = 'eventlog-alerts';

/** Lines an alert keeps, and characters per line: the findings are about the log, never content. */
export const MAX_ALERT_PROBLEMS = 20;
export const MAX_ALERT_PROBLEM_LENGTH = 200;

/**
 * `checkpointRefused`: the log did not extend the latest signed checkpoint, so none was signed.
 * `guardsMissing`: append-only triggers were dropped, disabled or changed, and this role could not put them back.
 * `guardsRestored`: they were, and the service put them back at its start.
 * `witnessDiffers`: a checkpoint witness already holds another checkpoint under the same id.
 * `eventForged`: an event's MAC does not verify (written past the service): it was quarantined, not projected.
 */
export const EVENT_LOG_ALERT_REASONS = ['checkpointRefused', 'guardsMissing', 'guardsRestored', 'witnessDiffers', 'eventForged'] as const;
export type EventLogAlertReason = (typeof EVENT_LOG_ALERT_REASONS)[number];

export const eventLogAlertRaised = z.object({
  type: z.literal('EventLogAlertRaised'),
  data: z.object({
    reason: z.enum(EVENT_LOG_ALERT_REASONS),
    /** The latest signed checkpoint when it was raised; null when none. */
    checkpoint: z.number().int().nullable(),
    problems: z.array(z.string().max(MAX_ALERT_PROBLEM_LENGTH)).max(MAX_ALERT_PROBLEMS),
  }),
});

export type EventLogAlert = z.infer<typeof eventLogAlertRaised>['data'];
