import { z } from 'zod';
import { webhookEventTypeCode } from '../webhook/events';

const deliveryRef = { deliveryId: z.string(), webhookId: z.string(), workspaceId: z.string() };

/**
 * What one webhook is to receive about one content event. The content travels with it, so a
 * delivery (and every retry of it) needs nothing else; `customPayload` is the rendered template.
 */
export const webhookDeliveryQueued = z.object({
  type: z.literal('WebhookDeliveryQueued'),
  data: z.object({
    ...deliveryRef,
    eventType: webhookEventTypeCode,
    contentType: z.string(),
    contentId: z.string(),
    fields: z.record(z.string(), z.unknown()),
    translations: z.record(z.string(), z.record(z.string(), z.unknown())),
    customPayload: z.record(z.string(), z.unknown()).nullable(),
    occurredAt: z.string(),
    /** The content event it reports. */
    sourceEventId: z.string(),
    /** The content release whose publish, revert or failure it reports; absent otherwise. */
    releaseId: z.string().optional(),
    /**
     * Deliveries of personal-data items: fields, translations and customPayload sealed under
     * the item's key (those members then empty). Opened when sent; unreadable once the item is erased.
     */
    sealed: z.string().optional(),
  }),
});

/** The claim on an attempt: the instance whose append wins sends it; shown as Processing. */
export const webhookDeliveryStarted = z.object({
  type: z.literal('WebhookDeliveryStarted'),
  data: z.object({ ...deliveryRef, attempt: z.number().int().min(1), at: z.string() }),
});

/** One attempt and its outcome; `nextAttemptAt` is null when no further attempt will be made. */
export const webhookDeliveryAttempted = z.object({
  type: z.literal('WebhookDeliveryAttempted'),
  data: z.object({
    ...deliveryRef,
    attempt: z.number().int().min(1),
    at: z.string(),
    statusCode: z.number().int(),
    success: z.boolean(),
    message: z.string(),
    durationMs: z.number().int(),
    nextAttemptAt: z.string().nullable(),
  }),
});

/** A retry asked for through the API: the entry waits again, with a fresh schedule. */
export const webhookDeliveryRetryRequested = z.object({
  type: z.literal('WebhookDeliveryRetryRequested'),
  data: z.object({ ...deliveryRef, at: z.string() }),
});

export const webhookDeliveryEvent = z.discriminatedUnion('type', [webhookDeliveryQueued, webhookDeliveryStarted, webhookDeliveryAttempted, webhookDeliveryRetryRequested]);
export type WebhookDeliveryEvent = z.infer<typeof webhookDeliveryEvent>;
export type WebhookDeliveryQueuedData = z.infer<typeof webhookDeliveryQueued>['data'];

export const webhookDeliveryStream = (workspaceId: string, deliveryId: string) => `webhookdelivery-${workspaceId}-${deliveryId}`;
