import { Router } from 'express';
import { z } from 'zod';
import type { ReadRecords } from '../../../commands/read-records';
import type { WebhookDeliveryCommands } from '../../../commands/webhook-deliveries';
import type { WebhookCommands } from '../../../commands/webhooks';
import type { Clock } from '../../../infra/clock';
import type { CallbackSender } from '../../../projections/processes/callback-sender';
import { toLogEntry, type WebhookQueries } from '../../../queries/webhooks';
import { emailList, webhookEventTypeCode } from '../../../src/domain/webhook/events';
import { type AccessGuard, commandContext, workspacePrincipal } from '../auth';
import { pathParam } from '../params';
import { badRequest } from '../problem';
import { parseInput } from '../validate';

export const MAX_DELIVERY_PAGE_SIZE = 100;

export const saveWebhookBody = z.strictObject({
  id: z.string().trim().max(100).nullish(),
  endpoint: z.string({ error: 'is required' }).trim().min(1, 'is required').max(2000),
  secret: z.string().max(200).nullish(),
  eventTypes: z.record(z.string(), z.array(webhookEventTypeCode, { error: 'must be an array of event types 0 to 5' })).nullish(),
  useCustomPayload: z.boolean().nullish(),
  customPayload: z.record(z.string(), z.unknown(), { error: 'must be a JSON object' }).nullish(),
  description: z.string().max(2000).nullish(),
  errorEmailTo: emailList.nullish(),
  enabled: z.boolean().nullish(),
});

const isoDate = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).transform((value) => new Date(value).toISOString());
const wholeNumber = (min: number, max: number) => z.coerce.number({ error: 'must be a number' }).int('must be a whole number').min(min).max(max);

export const deliveryLogQuery = z.strictObject({
  page: wholeNumber(1, Number.MAX_SAFE_INTEGER).default(1),
  pageSize: wholeNumber(1, MAX_DELIVERY_PAGE_SIZE).default(20),
  status: wholeNumber(-1, 2).optional(),
  eventType: wholeNumber(0, 4).optional(),
  contentType: z.string().min(1).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
});

export interface WebhookServices {
  readonly commands: WebhookCommands;
  readonly queries: WebhookQueries;
  readonly deliveries: WebhookDeliveryCommands;
  readonly sender: CallbackSender;
  /** Records who read webhook secrets, before they are answered. */
  readonly reads: ReadRecords;
  readonly clock: Clock;
  /** Tells the dispatcher that an entry waits (after a retry). */
  readonly wakeDispatcher: () => void;
}

export function webhooksRouter(access: AccessGuard, services: WebhookServices): Router {
  const { commands, queries } = services;
  const router = Router();

  // Both answer signing secrets: each read is recorded (WebhookSecretsRead) before the answer goes out.
  router.get('/webhooks', access('ReadAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const webhooks = await queries.list(workspaceId);
    await services.reads.webhookSecretsRead(workspaceId, webhooks.map((webhook) => webhook.id), commandContext(req, res));
    res.json(webhooks);
  });

  router.get('/webhooks/:id', access('ReadAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const webhook = await queries.get(workspaceId, pathParam(req, 'id'));
    await services.reads.webhookSecretsRead(workspaceId, [webhook.id], commandContext(req, res));
    res.json(webhook);
  });

  router.put('/webhooks', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const body = parseInput(saveWebhookBody, req.body);
    const id = await commands.save(
      workspaceId,
      {
        id: body.id ?? null,
        endpoint: body.endpoint,
        secret: body.secret ?? null,
        eventTypes: body.eventTypes ?? {},
        useCustomPayload: body.useCustomPayload ?? false,
        customPayload: body.customPayload ?? null,
        description: body.description ?? '',
        errorEmailTo: body.errorEmailTo ?? '',
        enabled: body.enabled ?? null,
      },
      commandContext(req, res),
    );
    res.json(await queries.get(workspaceId, id));
  });

  router.delete('/webhooks/:id', access('WriteAccess'), async (req, res) => {
    await commands.change('DeleteWebhook', workspacePrincipal(res).workspaceId, pathParam(req, 'id'), commandContext(req, res));
    res.json({ success: true });
  });

  for (const [path, type] of [['enable', 'EnableWebhook'], ['disable', 'DisableWebhook']] as const) {
    router.post(`/webhooks/:id/${path}`, access('WriteAccess'), async (req, res) => {
      const { workspaceId } = workspacePrincipal(res);
      await commands.change(type, workspaceId, pathParam(req, 'id'), commandContext(req, res));
      res.json(await queries.get(workspaceId, pathParam(req, 'id')));
    });
  }

  router.post('/webhooks/:id/rotate-secret', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    await commands.rotateSecret(workspaceId, pathParam(req, 'id'), commandContext(req, res));
    res.json(await queries.get(workspaceId, pathParam(req, 'id')));
  });

  router.post('/webhooks/:id/test', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const webhook = await queries.document(workspaceId, pathParam(req, 'id'));
    if (!webhook.endpoint) throw badRequest('the webhook has no endpoint', [{ field: 'endpoint', message: 'is not configured' }]);
    const body = JSON.stringify({ eventType: 'webhook.test', webhookId: webhook.webhookId, workspaceId, sentAt: services.clock.now().toISOString() });
    const outcome = await services.sender.send({ url: webhook.endpoint, body, headers: { 'Svc-Test': 'true' }, secret: await queries.signingSecret(webhook) });
    res.json({ isSuccessStatusCode: outcome.success, statusCode: outcome.statusCode, message: outcome.message, durationMs: outcome.durationMs });
  });

  // The log of a deleted webhook stays readable; an id unknown in this workspace is a 404.
  router.get('/webhooks/:id/events', access('ReadAccess'), async (req, res) => {
    const query = parseInput(deliveryLogQuery, req.query, 'query');
    res.json(await queries.deliveries(workspacePrincipal(res).workspaceId, pathParam(req, 'id'), query));
  });

  router.get('/webhooks/:id/events/:eventId', access('ReadAccess'), async (req, res) => {
    const entry = await queries.delivery(workspacePrincipal(res).workspaceId, pathParam(req, 'id'), pathParam(req, 'eventId'));
    res.json({ ...toLogEntry(entry), attempts: entry.attempts, nextAttemptAt: entry.nextAttemptAt });
  });

  router.post('/webhooks/:id/events/:eventId/retry', access('WriteAccess'), async (req, res) => {
    const { workspaceId } = workspacePrincipal(res);
    const [webhookId, deliveryId] = [pathParam(req, 'id'), pathParam(req, 'eventId')];
    await queries.delivery(workspaceId, webhookId, deliveryId);
    await services.deliveries.requestRetry({ workspaceId, webhookId, deliveryId }, services.clock.now(), commandContext(req, res));
    services.wakeDispatcher();
    const entry = await queries.delivery(workspaceId, webhookId, deliveryId);
    res.json(toLogEntry(entry));
  });

  return router;
}
