import type { ReadStore } from '../infra/readstore/port';
import type { Filter } from '../infra/readstore/query';
import { SCHEDULED_JOBS, scheduledJobDocumentId, type ScheduledJobDocument } from '../projections/read-models/scheduled-jobs';
import type { JobStatus } from '../src/domain/scheduled-job/events';
import { notFound } from '../src/domain/errors';

export interface JobListQuery {
  readonly page: number;
  readonly pageSize: number;
  readonly status?: JobStatus;
  /** Inclusive bounds on the occurrence's planned fire time, ISO 8601 UTC. */
  readonly from?: string;
  readonly to?: string;
}

export class ScheduledJobQueries {
  constructor(private readonly store: ReadStore) {}

  async get(workspaceId: string, jobId: string): Promise<ReturnType<typeof toJobView>> {
    const document = await this.store.get<ScheduledJobDocument>(SCHEDULED_JOBS, scheduledJobDocumentId(workspaceId, jobId));
    if (!document) throw notFound(`scheduled job ${jobId} does not exist`);
    return toJobView(document);
  }

  /**
   * Ordered by planned fire time, earliest first. `hasMore` instead of a total: counting every
   * pending job of a busy workspace on each page would cost more than the page.
   */
  async list(workspaceId: string, query: JobListQuery) {
    const conditions: Filter[] = [{ type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId }];
    if (query.status !== undefined) conditions.push({ type: 'condition', field: 'status', operator: 'e', value: query.status });
    if (query.from !== undefined) conditions.push({ type: 'condition', field: 'plannedAt', operator: 'gte', value: query.from });
    if (query.to !== undefined) conditions.push({ type: 'condition', field: 'plannedAt', operator: 'lte', value: query.to });
    const items = await this.store.list<ScheduledJobDocument>(SCHEDULED_JOBS, {
      filter: { type: 'and', conditions },
      sort: [{ field: 'plannedAt', direction: 'asc' }],
      offset: (query.page - 1) * query.pageSize,
      limit: query.pageSize + 1,
    });
    return { items: items.slice(0, query.pageSize).map(toJobView), page: query.page, pageSize: query.pageSize, hasMore: items.length > query.pageSize };
  }
}

const HIDDEN = '(hidden)';

/** The job as the API shows it (docs/scheduler.md). */
export function toJobView(document: ScheduledJobDocument) {
  const recurrence = document.recurrence;
  return {
    id: document.jobId,
    name: document.name,
    status: document.status,
    seriesId: document.seriesId,
    occurrenceNumber: document.occurrenceNumber,
    fireAtUtc: document.plannedAt,
    nextAttemptAtUtc: document.status === 'Pending' ? document.dueAt : null,
    callbackUrl: document.callbackUrl,
    method: document.method,
    // Header values are never shown again: they often carry tokens.
    headers: Object.fromEntries(document.headerNames.map((name) => [name, HIDDEN])),
    payload: document.payloadJson !== undefined ? (JSON.parse(document.payloadJson) as unknown) : (document.payload ?? null),
    maxRetries: document.maxRetries,
    idempotencyKey: document.idempotencyKey,
    correlationId: document.correlationId,
    recurrenceSeconds: recurrence?.kind === 'interval' ? recurrence.seconds : null,
    scheduleTimes: recurrence?.kind === 'calendar' ? recurrence.times : null,
    scheduleDaysOfWeek: recurrence?.kind === 'calendar' ? recurrence.daysOfWeek : null,
    endAtUtc: document.endAtUtc,
    maxOccurrences: document.maxOccurrences,
    attempts: document.attempts,
    lastAttemptAtUtc: document.lastAttemptAt,
    lastStatusCode: document.lastStatusCode,
    lastMessage: document.lastMessage,
    createdAtUtc: document.createdAt,
    updatedAtUtc: document.updatedAt,
    completedAtUtc: document.completedAt,
  };
}
