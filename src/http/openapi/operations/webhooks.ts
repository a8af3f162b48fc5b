import { z } from 'zod';
import { webhookEventTypeCode } from '../../../domain/webhook/events';
import { deliveryLogQuery, saveWebhookBody } from '../../routes/webhooks';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { dateTime, successSchema } from '../shared-schemas';
import { TAGS } from '../tags';

const TAG = TAGS.webhooks.name;
const NO_WEBHOOK = { 404: 'the webhook does not exist' };
const idParameter = { id: 'the webhook id' };
const deliveryParameters = { ...idParameter, eventId: 'the delivery (log entry) id' };

const eventType = named('WebhookEventType', webhookEventTypeCode);
const processStatus = named(
  'WebhookProcessStatus',
  z.union([z.literal(-1), z.literal(0), z.literal(1), z.literal(2)]).describe('-1 Error, 0 Waiting, 1 Processing, 2 Sent'),
);

const webhook = named(
  'Webhook',
  z.object({
    id: z.string(),
    endpoint: z.string(),
    secret: z.string().describe('signs every delivery: Svc-Signature t={unix seconds},s={hex HMAC-SHA256 of "{t}.{body}"}'),
    eventTypes: z.record(z.string(), z.array(eventType)).describe('content type key to the event types that fire: 0 Published, 1 Unpublished, 2 Deleted, 3 PublishedCreated, 4 PublishedUpdated'),
    useCustomPayload: z.boolean(),
    customPayload: z.record(z.string(), z.unknown()).nullable(),
    description: z.string(),
    errorEmailTo: z.string().describe('comma-separated e-mail addresses told about repeated failures'),
    enabled: z.boolean(),
  }),
);

const logEntryShape = {
  id: z.string(),
  webhookId: z.string(),
  dateInsert: dateTime,
  lastUpdate: dateTime,
  eventType,
  contentId: z.string(),
  contentType: z.string(),
  fields: z.record(z.string(), z.unknown()),
  translations: z.record(z.string(), z.record(z.string(), z.unknown())),
  customPayload: z.record(z.string(), z.unknown()).nullable(),
  processStatus,
  responseStatusCode: z.number().int(),
  isResponseSuccessStatusCode: z.boolean(),
  responseMessage: z.string(),
};
const logEntry = named('WebhookDelivery', z.object(logEntryShape));
const logEntryDetail = named(
  'WebhookDeliveryDetail',
  z.object({
    ...logEntryShape,
    attempts: z.array(
      z.object({ attempt: z.number().int(), at: dateTime, statusCode: z.number().int().describe('0: never reached the server'), message: z.string(), durationMs: z.number().int() }),
    ),
    nextAttemptAt: dateTime.nullable().describe('when a Waiting entry is due'),
  }),
);
const logPage = named(
  'WebhookDeliveryPage',
  z.object({ items: z.array(logEntry), page: z.number().int(), pageSize: z.number().int(), total: z.number().int() }),
);
const testResult = named(
  'WebhookTestResult',
  z.object({
    isSuccessStatusCode: z.boolean(),
    statusCode: z.number().int().describe('0 when the request never reached the server'),
    message: z.string().describe('the response body, at most 2000 characters, or the client-side error'),
    durationMs: z.number().int(),
  }),
);

const changed = (verb: string, summary: string): DocumentedOperation => ({
  method: 'post',
  path: `/webhooks/{id}/${verb}`,
  operationId: `${verb.replace(/-(\w)/g, (_match, letter: string) => letter.toUpperCase())}Webhook`,
  tag: TAG,
  summary,
  access: 'WriteAccess',
  parameters: idParameter,
  responses: { 200: { description: 'the updated webhook', schema: webhook } },
  errors: NO_WEBHOOK,
});

const SECRET_READ =
  'The answer holds signing secrets: each read is recorded first (WebhookSecretsRead in the audit feed: the reader and the webhook ids, never a secret).';
const UNRECORDED = { 503: 'the read could not be recorded in the audit trail (READ_AUDIT=required), so it was refused; Retry-After' };

export const webhookOperations: DocumentedOperation[] = [
  {
    method: 'get',
    path: '/webhooks',
    operationId: 'listWebhooks',
    tag: TAG,
    summary: 'List webhooks',
    description: SECRET_READ,
    access: 'ReadAccess',
    responses: { 200: { description: 'oldest first', schema: named('WebhookList', z.array(webhook)) } },
    errors: UNRECORDED,
  },
  {
    method: 'get',
    path: '/webhooks/{id}',
    operationId: 'getWebhook',
    tag: TAG,
    summary: 'Get a webhook',
    description: SECRET_READ,
    access: 'ReadAccess',
    parameters: idParameter,
    responses: { 200: { description: 'the webhook', schema: webhook } },
    errors: { ...NO_WEBHOOK, ...UNRECORDED },
  },
  {
    method: 'put',
    path: '/webhooks',
    operationId: 'saveWebhook',
    tag: TAG,
    summary: 'Create (no id) or update a webhook',
    description: 'On create the id and a secret (wh_ + 32 characters) are generated unless a secret is given; on update an omitted or empty secret keeps the current one.',
    access: 'WriteAccess',
    body: {
      schema: named('SaveWebhookRequest', saveWebhookBody),
      example: {
        endpoint: 'https://hooks.example.com/cms',
        eventTypes: { Article: [0, 1, 2] },
        useCustomPayload: false,
        description: 'search index',
        errorEmailTo: 'ops@example.com',
        enabled: true,
      },
    },
    responses: { 200: { description: 'the persisted webhook, with its secret', schema: webhook } },
    errors: {
      400: 'missing body or endpoint, an endpoint that is not https, or an unknown content type in eventTypes',
      404: 'the webhook to update does not exist',
      409: 'a new webhook would pass the workspace quota (WEBHOOKS_PER_WORKSPACE, 50 by default); an update is never refused by it',
    },
  },
  {
    method: 'delete',
    path: '/webhooks/{id}',
    operationId: 'deleteWebhook',
    tag: TAG,
    summary: 'Delete a webhook; its delivery log is kept',
    access: 'WriteAccess',
    parameters: idParameter,
    responses: { 200: { description: 'deleted', schema: successSchema } },
    errors: NO_WEBHOOK,
  },
  changed('enable', 'Enable a webhook'),
  changed('disable', 'Disable a webhook: no deliveries are queued, its configuration stays'),
  changed('rotate-secret', 'Replace the secret; the previous one stops signing at once'),
  {
    method: 'post',
    path: '/webhooks/{id}/test',
    operationId: 'testWebhook',
    tag: TAG,
    summary: 'Send a signed test ping now (eventType webhook.test, header Svc-Test: true)',
    description: 'Times out after 10 seconds and writes no log entry.',
    access: 'WriteAccess',
    parameters: idParameter,
    responses: { 200: { description: 'how the endpoint answered', schema: testResult } },
    errors: { 400: 'the webhook has no endpoint', ...NO_WEBHOOK },
  },
  {
    method: 'get',
    path: '/webhooks/{id}/events',
    operationId: 'listWebhookDeliveries',
    tag: TAG,
    summary: 'The delivery log of a webhook, newest first',
    description: 'The log of a deleted webhook stays readable; an id that never named a webhook of this workspace is a 404.',
    access: 'ReadAccess',
    query: deliveryLogQuery,
    parameters: {
      ...idParameter,
      page: '1-based',
      pageSize: 'at most 100',
      status: '-1 Error, 0 Waiting, 1 Processing, 2 Sent',
      eventType: '0 Published, 1 Unpublished, 2 Deleted, 3 PublishedCreated, 4 PublishedUpdated',
      contentType: 'content type key',
      from: 'inclusive lower bound on dateInsert',
      to: 'inclusive upper bound on dateInsert',
    },
    responses: { 200: { description: 'a page of entries', schema: logPage } },
    errors: NO_WEBHOOK,
  },
  {
    method: 'get',
    path: '/webhooks/{id}/events/{eventId}',
    operationId: 'getWebhookDelivery',
    tag: TAG,
    summary: 'One delivery, with its attempts',
    access: 'ReadAccess',
    parameters: deliveryParameters,
    responses: { 200: { description: 'the entry', schema: logEntryDetail } },
    errors: { 404: 'the delivery does not exist for this webhook' },
  },
  {
    method: 'post',
    path: '/webhooks/{id}/events/{eventId}/retry',
    operationId: 'retryWebhookDelivery',
    tag: TAG,
    summary: 'Deliver again now (nothing happens while it is Waiting or Processing)',
    access: 'WriteAccess',
    parameters: deliveryParameters,
    responses: { 200: { description: 'the entry', schema: logEntry } },
    errors: { 404: 'the delivery does not exist for this webhook' },
  },
];
