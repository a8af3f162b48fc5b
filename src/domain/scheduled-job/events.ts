import { z } from 'zod';

export const JOB_STATUSES = ['Pending', 'Firing', 'Done', 'DeadLetter', 'Cancelled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

const jobRef = { jobId: z.string(), workspaceId: z.string() };

const recurrence = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('interval'), seconds: z.number().int() }),
  z.object({ kind: z.literal('calendar'), times: z.array(z.string()), daysOfWeek: z.array(z.number().int()).nullable() }),
]);

/** One occurrence of a job; a recurring series is one stream per occurrence, sharing seriesId. */
export const jobScheduled = z.object({
  type: z.literal('JobScheduled'),
  data: z.object({
    ...jobRef,
    seriesId: z.string(),
    occurrenceNumber: z.number().int().min(1),
    name: z.string().nullable(),
    callbackUrl: z.string(),
    method: z.string(),
    /** The custom headers, sealed under the workspace's data key (they often carry tokens); null when none. */
    sealedHeaders: z.string().nullable(),
    headerNames: z.array(z.string()),
    /** The payload's JSON text as the client sent it, sent byte for byte. */
    payloadJson: z.string().optional(),
    /** Events written before payloadJson: the parsed payload (its key order may not survive the stores). */
    payload: z.unknown().optional(),
    maxRetries: z.number().int().min(0),
    /** This occurrence's key: the series key for the first, `{series key}:{n}` for the n-th. */
    idempotencyKey: z.string(),
    seriesIdempotencyKey: z.string(),
    correlationId: z.string().nullable(),
    recurrence: recurrence.nullable(),
    endAtUtc: z.string().nullable(),
    maxOccurrences: z.number().int().nullable(),
    /** When this occurrence was planned to fire; recurrence is anchored to it. */
    plannedAt: z.string(),
  }),
});

/** The claim: this attempt is being sent. Only one instance's append wins. */
export const jobFired = z.object({ type: z.literal('JobFired'), data: z.object({ ...jobRef, attempt: z.number().int().min(1), at: z.string() }) });

const outcome = { attempt: z.number().int().min(1), at: z.string(), statusCode: z.number().int(), message: z.string(), durationMs: z.number().int() };

export const jobSucceeded = z.object({ type: z.literal('JobSucceeded'), data: z.object({ ...jobRef, ...outcome }) });
/** A failed attempt with retries left: the job is Pending again until `retryAt`. */
export const jobFailed = z.object({ type: z.literal('JobFailed'), data: z.object({ ...jobRef, ...outcome, retryAt: z.string() }) });
export const jobDeadLettered = z.object({ type: z.literal('JobDeadLettered'), data: z.object({ ...jobRef, ...outcome }) });
export const jobCancelled = z.object({ type: z.literal('JobCancelled'), data: z.object({ ...jobRef, at: z.string() }) });

export const scheduledJobEvent = z.discriminatedUnion('type', [jobScheduled, jobFired, jobSucceeded, jobFailed, jobDeadLettered, jobCancelled]);
export type ScheduledJobEvent = z.infer<typeof scheduledJobEvent>;
export type JobScheduledData = z.infer<typeof jobScheduled>['data'];
export type JobRecurrence = z.infer<typeof recurrence>;

export const scheduledJobStream = (workspaceId: string, jobId: string) => `job-${workspaceId}-${jobId}`;
