import { Router } from 'express';
import { z } from 'zod';
import type { ScheduledJobCommands } from '../../../commands/scheduled-jobs';
import type { Clock } from '../../../infra/clock';
import { OUTBOUND_METHODS } from '../../../infra/outbound/http';
import type { ScheduledJobQueries } from '../../../queries/scheduled-jobs';
import { customHeaders, headerValue, outboundUrl } from '../../../src/domain/outbound-request';
import { JOB_STATUSES, type JobRecurrence } from '../../../src/domain/scheduled-job/events';
import { firstOccurrence } from '../../../src/domain/scheduled-job/recurrence';
import { type AccessGuard, commandContext, workspacePrincipal } from '../auth';
import { jsonMemberText } from '../json-member';
import { pathParam } from '../params';
import { rawBodyText } from '../raw-body';
import { badRequest } from '../problem';
import { parseInput } from '../validate';

export const MIN_RECURRENCE_SECONDS = 60;
export const MAX_JOB_PAGE_SIZE = 100;

const isoDate = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).transform((value) => new Date(value));

export const createJobBody = z
  .strictObject({
    name: z.string().max(200).nullish(),
    delaySeconds: z.number({ error: 'must be a number' }).min(0).max(10 * 365 * 86_400).nullish(),
    fireAtUtc: isoDate.nullish(),
    callbackUrl: outboundUrl(),
    method: z
      .string()
      .transform((value) => value.toUpperCase())
      .pipe(z.enum(OUTBOUND_METHODS, { error: `must be one of ${OUTBOUND_METHODS.join(', ')}` }))
      .nullish(),
    headers: customHeaders.nullish(),
    payload: z.unknown().optional(),
    maxRetries: z.number().int('must be a whole number').min(0).max(100).nullish(),
    // Sent as the Svc-Idempotency-Key and Svc-Correlation-Id headers.
    idempotencyKey: headerValue.min(1).max(200).nullish(),
    correlationId: headerValue.min(1).max(200).nullish(),
    recurrenceSeconds: z.number().int('must be a whole number').min(MIN_RECURRENCE_SECONDS, `must be at least ${MIN_RECURRENCE_SECONDS}`).nullish(),
    scheduleTimes: z.array(z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time as 'HH:mm'")).min(1).max(48).nullish(),
    scheduleDaysOfWeek: z.array(z.number().int().min(0).max(6, 'must be 0 (Sunday) to 6 (Saturday)')).min(1).max(7).nullish(),
    endAtUtc: isoDate.nullish(),
    maxOccurrences: z.number().int('must be a whole number').min(1).nullish(),
  })
  .superRefine((body, context) => {
    if (body.recurrenceSeconds != null && body.scheduleTimes != null) {
      context.addIssue({ code: 'custom', path: ['scheduleTimes'], message: 'use either recurrenceSeconds or scheduleTimes' });
    }
    if (body.scheduleDaysOfWeek != null && body.scheduleTimes == null) {
      context.addIssue({ code: 'custom', path: ['scheduleDaysOfWeek'], message: 'needs scheduleTimes' });
    }
  });

export const jobListQuery = z.strictObject({
  page: z.coerce.number({ error: 'must be a number' }).int().min(1).default(1),
  pageSize: z.coerce.number({ error: 'must be a number' }).int().min(1).max(MAX_JOB_PAGE_SIZE).default(20),
  status: z.enum(JOB_STATUSES, { error: `must be one of ${JOB_STATUSES.join(', ')}` }).optional(),
  from: isoDate.transform((date) => date.toISOString()).optional(),
  to: isoDate.transform((date) => date.toISOString()).optional(),
});

export interface SchedulerServices {
  readonly commands: ScheduledJobCommands;
  readonly queries: ScheduledJobQueries;
  readonly clock: Clock;
}

export function scheduledJobsRouter(access: AccessGuard, services: SchedulerServices): Router {
  const { commands, queries, clock } = services;
  const router = Router();

  router.post('/scheduled-jobs', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const body = parseInput(createJobBody, req.body);
    const now = clock.now();
    const recurrence: JobRecurrence | null =
      body.recurrenceSeconds != null
        ? { kind: 'interval', seconds: body.recurrenceSeconds }
        : body.scheduleTimes != null
          ? { kind: 'calendar', times: body.scheduleTimes, daysOfWeek: body.scheduleDaysOfWeek ?? null }
          : null;
    // fireAtUtc wins over delaySeconds; a calendar series starts at its next matching time from then on.
    const requested = body.fireAtUtc ?? (body.delaySeconds != null ? new Date(now.getTime() + body.delaySeconds * 1000) : null);
    const firstFireAt =
      recurrence?.kind === 'calendar' ? firstOccurrence(recurrence, requested ?? now) : (requested ?? now);
    if (body.endAtUtc && firstFireAt.getTime() > body.endAtUtc.getTime()) {
      throw badRequest('endAtUtc is before the first occurrence', [{ field: 'endAtUtc', message: 'is before the first occurrence' }]);
    }
    const jobId = await commands.schedule(
      workspaceId,
      {
        name: body.name ?? null,
        callbackUrl: body.callbackUrl,
        method: body.method ?? 'POST',
        headers: body.headers ?? {},
        // The bytes the client sent: the parsed value would lose their key order in the stores.
        payloadJson: jsonMemberText(rawBodyText(req) ?? '', 'payload') ?? JSON.stringify(body.payload ?? null),
        maxRetries: body.maxRetries ?? 5,
        idempotencyKey: body.idempotencyKey ?? null,
        correlationId: body.correlationId ?? null,
        recurrence,
        endAtUtc: body.endAtUtc ?? null,
        maxOccurrences: body.maxOccurrences ?? null,
        firstFireAt,
      },
      commandContext(req, res),
    );
    res.json(await queries.get(workspaceId, jobId));
  });

  router.get('/scheduled-jobs', access('ReadAccess'), async (req, res) => {
    res.json(await queries.list(workspacePrincipal(res).workspaceId, parseInput(jobListQuery, req.query, 'query')));
  });

  router.get('/scheduled-jobs/:id', access('ReadAccess'), async (req, res) => {
    res.json(await queries.get(workspacePrincipal(res).workspaceId, pathParam(req, 'id')));
  });

  router.delete('/scheduled-jobs/:id', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const jobId = pathParam(req, 'id');
    await commands.cancel({ workspaceId, jobId }, clock.now(), commandContext(req, res));
    res.json(await queries.get(workspaceId, jobId));
  });

  return router;
}
