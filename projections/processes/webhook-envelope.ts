import { WEBHOOK_EVENT_TYPES, type WebhookEventTypeName } from '../../src/domain/webhook/events';
import type { WebhookDeliveryQueuedData } from '../../src/domain/webhook-delivery/events';

const EVENT_TYPE_NAMES = Object.fromEntries(Object.entries(WEBHOOK_EVENT_TYPES).map(([name, code]) => [code, name])) as Record<number, WebhookEventTypeName>;

/**
 * The default body of a delivery, and the values a custom payload template can use
 * (documented in docs/webhooks.md).
 */
export function webhookEnvelope(delivery: Omit<WebhookDeliveryQueuedData, 'customPayload' | 'sourceEventId'>) {
  return {
    eventType: EVENT_TYPE_NAMES[delivery.eventType]!,
    eventTypeCode: delivery.eventType,
    deliveryId: delivery.deliveryId,
    webhookId: delivery.webhookId,
    workspaceId: delivery.workspaceId,
    contentType: delivery.contentType,
    contentId: delivery.contentId,
    fields: delivery.fields,
    translations: delivery.translations,
    occurredAt: delivery.occurredAt,
    ...(delivery.releaseId === undefined ? {} : { releaseId: delivery.releaseId }),
  };
}
