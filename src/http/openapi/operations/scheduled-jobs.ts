import { z } from 'zod';
import { JOB_STATUSES } from '../../../domain/scheduled-job/events';
import { createJobBody, jobListQuery } from '../../routes/scheduled-jobs';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { dateTime } from '../shared-schemas';
import { TAGS } from '../tags';

const TAG = TAGS.scheduler.name;
const NO_JOB = { 404: 'the job does not exist' };
const idParameter = { id: 'the job (occurrence) id' };

const scheduledJob = named(
  'ScheduledJob',
  z.object({
    id: z.string(),
    name: z.string().nullable(),
    status: z.enum(JOB_STATUSES),
    seriesId: z.string().describe('shared by every occurrence of a recurring job'),
    occurrenceNumber: z.number().int().describe('1, 2, ... per occurrence'),
    fireAtUtc: dateTime.describe('when this occurrence is planned'),
    nextAttemptAtUtc: dateTime.nullable().describe('Pending only: the planned time or the retry time'),
    callbackUrl: z.string(),
    method: z.string(),
    headers: z.record(z.string(), z.string()).describe('names only: every value shows as (hidden)'),
    payload: z.unknown().describe('sent byte for byte as the client wrote it'),
    maxRetries: z.number().int(),
    idempotencyKey: z.string().describe('sent as Svc-Idempotency-Key'),
    correlationId: z.string().nullable(),
    recurrenceSeconds: z.number().int().nullable(),
    scheduleTimes: z.array(z.string()).nullable(),
    scheduleDaysOfWeek: z.array(z.number().int()).nullable(),
    endAtUtc: dateTime.nullable(),
    maxOccurrences: z.number().int().nullable(),
    attempts: z.number().int(),
    lastAttemptAtUtc: dateTime.nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastMessage: z.string().nullable(),
    createdAtUtc: dateTime,
    updatedAtUtc: dateTime,
    completedAtUtc: dateTime.nullable().describe('when it reached Done, DeadLetter or Cancelled; removed 30 days later'),
  }),
);
const jobPage = named(
  'ScheduledJobPage',
  z.object({
    items: z.array(scheduledJob),
    page: z.number().int(),
    pageSize: z.number().int(),
    hasMore: z.boolean().describe('another page follows (no total: counting a busy workspace would cost more than the page)'),
  }),
);

export const scheduledJobOperations: DocumentedOperation[] = [
  {
    method: 'post',
    path: '/scheduled-jobs',
    operationId: 'scheduleJob',
    tag: TAG,
    summary: 'Schedule a deferred or recurring HTTP callback',
    description:
      'fireAtUtc wins over delaySeconds; neither fires at the next poll. Recurrence is either recurrenceSeconds (fixed cadence, at least 60) ' +
      "or scheduleTimes ('HH:mm', Europe/Rome wall-clock time) with optional scheduleDaysOfWeek (0 Sunday to 6 Saturday). See docs/scheduler.md.",
    access: 'WriteAccess',
    body: {
      schema: named('ScheduleJobRequest', createJobBody),
      example: {
        name: 'nightly reindex',
        callbackUrl: 'https://jobs.example.com/reindex',
        method: 'POST',
        headers: { Authorization: 'Bearer receiver-token' },
        payload: { scope: 'all' },
        maxRetries: 5,
        scheduleTimes: ['02:30'],
        scheduleDaysOfWeek: [1, 2, 3, 4, 5],
        correlationId: 'reindex-2024',
      },
    },
    responses: { 200: { description: 'the created job, Pending', schema: scheduledJob } },
  },
  {
    method: 'get',
    path: '/scheduled-jobs',
    operationId: 'listScheduledJobs',
    tag: TAG,
    summary: 'List jobs, earliest planned first',
    access: 'ReadAccess',
    query: jobListQuery,
    parameters: { page: '1-based', pageSize: 'at most 100', from: 'inclusive lower bound on fireAtUtc', to: 'inclusive upper bound on fireAtUtc' },
    responses: { 200: { description: 'a page of jobs', schema: jobPage } },
  },
  {
    method: 'get',
    path: '/scheduled-jobs/{id}',
    operationId: 'getScheduledJob',
    tag: TAG,
    summary: 'Get a job',
    access: 'ReadAccess',
    parameters: idParameter,
    responses: { 200: { description: 'the job', schema: scheduledJob } },
    errors: NO_JOB,
  },
  {
    method: 'delete',
    path: '/scheduled-jobs/{id}',
    operationId: 'cancelScheduledJob',
    tag: TAG,
    summary: 'Cancel a Pending job, or a Firing one whose claim was lost (older than 60 s)',
    access: 'WriteAccess',
    parameters: idParameter,
    responses: { 200: { description: 'the job, Cancelled', schema: scheduledJob } },
    errors: { ...NO_JOB, 409: 'the job is not Pending, nor Firing with a lost claim' },
  },
];
