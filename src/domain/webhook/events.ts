import { z } from 'zod';

/** WebhookEventType of the spec. */
/** ReleaseFailed: a scheduled content release that held the item published nothing (docs/releases.md). */
export const WEBHOOK_EVENT_TYPES = { Published: 0, Unpublished: 1, Deleted: 2, PublishedCreated: 3, PublishedUpdated: 4, ReleaseFailed: 5 } as const;
export type WebhookEventTypeName = keyof typeof WEBHOOK_EVENT_TYPES;
export const webhookEventTypeCode = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3), z.literal(4), z.literal(5)]);
export type WebhookEventTypeCode = z.infer<typeof webhookEventTypeCode>;

/** errorEmailTo as a webhook's save takes it: addresses separated by commas. */
export const emailList = z
  .string()
  .max(2000)
  .refine(
    (value) => value.split(',').every((address) => address.trim() === '' || z.email().safeParse(address.trim()).success),
    'must be a comma-separated list of e-mail addresses',
  );

const webhookRef = { webhookId: z.string(), workspaceId: z.string() };

/**
 * A webhook's settings. The signing secret enters the log only sealed under the workspace's
 * data key (`sealedSecret`), never in clear.
 */
export const webhookSettings = z.object({
  endpoint: z.string(),
  sealedSecret: z.string(),
  /** content type key → event type codes */
  eventTypes: z.record(z.string(), z.array(webhookEventTypeCode)),
  useCustomPayload: z.boolean(),
  customPayload: z.record(z.string(), z.unknown()).nullable(),
  description: z.string(),
  errorEmailTo: z.string(),
  enabled: z.boolean(),
});
export type WebhookSettings = z.infer<typeof webhookSettings>;

export const webhookSaved = z.object({
  type: z.literal('WebhookSaved'),
  data: z.object({ ...webhookRef, created: z.boolean(), ...webhookSettings.shape }),
});
export const webhookSecretRotated = z.object({ type: z.literal('WebhookSecretRotated'), data: z.object({ ...webhookRef, sealedSecret: z.string() }) });
export const webhookEnabled = z.object({ type: z.literal('WebhookEnabled'), data: z.object(webhookRef) });
export const webhookDisabled = z.object({ type: z.literal('WebhookDisabled'), data: z.object(webhookRef) });
export const webhookDeleted = z.object({ type: z.literal('WebhookDeleted'), data: z.object(webhookRef) });
/** A delivery failed for good while none had before: the start of a failing streak, e-mailed once. */
export const webhookFailing = z.object({ type: z.literal('WebhookFailing'), data: z.object({ ...webhookRef, deliveryId: z.string() }) });
/** A delivery succeeded after a failing streak: the next failure starts a new streak. */
export const webhookRecovered = z.object({ type: z.literal('WebhookRecovered'), data: z.object({ ...webhookRef, deliveryId: z.string() }) });

export const webhookEvent = z.discriminatedUnion('type', [
  webhookSaved,
  webhookSecretRotated,
  webhookEnabled,
  webhookDisabled,
  webhookDeleted,
  webhookFailing,
  webhookRecovered,
]);
export type WebhookEvent = z.infer<typeof webhookEvent>;

export const webhookStream = (workspaceId: string, webhookId: string) => `webhook-${workspaceId}-${webhookId}`;
