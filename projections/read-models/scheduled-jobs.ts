import { type JobScheduledData, type JobStatus, scheduledJobEvent } from '../../src/domain/scheduled-job/events';
import { CLAIM_TIMEOUT_MS } from '../../src/domain/scheduled-job/decider';
import type { Document } from '../../infra/readstore/port';
import type { Projector } from '../projector';

export const SCHEDULED_JOBS = 'scheduled_jobs';

/** One document per occurrence, id `${workspaceId}:${jobId}`. */
export interface ScheduledJobDocument extends Document, Omit<JobScheduledData, 'seriesIdempotencyKey'> {
  readonly status: JobStatus;
  readonly attempts: number;
  /**
   * Pending: when to fire (planned, or the retry time). Firing: when the claim counts as lost.
   * Null once the job has ended.
   */
  readonly dueAt: string | null;
  readonly lastAttemptAt: string | null;
  readonly lastStatusCode: number | null;
  readonly lastMessage: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** When it reached Done, DeadLetter or Cancelled; the cleanup removes it 30 days later. */
  readonly completedAt: string | null;
}

export const scheduledJobDocumentId = (workspaceId: string, jobId: string) => `${workspaceId}:${jobId}`;

export const scheduledJobsProjector: Projector = {
  name: 'scheduled_jobs',
  collections: [
    {
      name: SCHEDULED_JOBS,
      indexes: [
        { fields: ['workspaceId', 'plannedAt'] },
        { fields: ['workspaceId', 'status', 'plannedAt'] },
        { fields: ['status', 'dueAt'] },
        { fields: ['status', 'completedAt'] },
      ],
    },
  ],
  eventTypes: new Set(['JobScheduled', 'JobFired', 'JobSucceeded', 'JobFailed', 'JobDeadLettered', 'JobCancelled']),

  prefetch(recorded) {
    if (recorded.type === 'JobScheduled') return [];
    const { workspaceId, jobId } = recorded.data as { workspaceId: string; jobId: string };
    return [{ collection: SCHEDULED_JOBS, id: scheduledJobDocumentId(workspaceId, jobId) }];
  },

  async project(recorded, view) {
    const event = scheduledJobEvent.parse(recorded);
    const id = scheduledJobDocumentId(event.data.workspaceId, event.data.jobId);
    const at = recorded.metadata.timestamp;
    if (event.type === 'JobScheduled') {
      const { seriesIdempotencyKey: _series, ...scheduled } = event.data;
      const document: ScheduledJobDocument = {
        id,
        ...scheduled,
        status: 'Pending',
        attempts: 0,
        dueAt: scheduled.plannedAt,
        lastAttemptAt: null,
        lastStatusCode: null,
        lastMessage: null,
        createdAt: at,
        updatedAt: at,
        completedAt: null,
      };
      return [{ kind: 'upsert', collection: SCHEDULED_JOBS, document }];
    }
    const current = await view.get<ScheduledJobDocument>(SCHEDULED_JOBS, id);
    if (!current) return [];
    let change: Partial<ScheduledJobDocument>;
    switch (event.type) {
      case 'JobFired':
        change = { status: 'Firing', attempts: event.data.attempt, dueAt: new Date(Date.parse(event.data.at) + CLAIM_TIMEOUT_MS).toISOString() };
        break;
      case 'JobFailed':
        change = { status: 'Pending', dueAt: event.data.retryAt, ...outcome(event.data) };
        break;
      case 'JobSucceeded':
      case 'JobDeadLettered':
        change = { status: event.type === 'JobSucceeded' ? 'Done' : 'DeadLetter', dueAt: null, completedAt: at, ...outcome(event.data) };
        break;
      case 'JobCancelled':
        change = { status: 'Cancelled', dueAt: null, completedAt: at };
        break;
    }
    return [{ kind: 'upsert', collection: SCHEDULED_JOBS, document: { ...current, ...change, updatedAt: at } }];
  },
};

function outcome(data: { at: string; statusCode: number; message: string }): Partial<ScheduledJobDocument> {
  return { lastAttemptAt: data.at, lastStatusCode: data.statusCode, lastMessage: data.message };
}
