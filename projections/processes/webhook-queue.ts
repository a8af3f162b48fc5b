import type { WebhookDeliveryCommands } from '../../commands/webhook-deliveries';
import type { Clock } from '../../infra/clock';
import type { RecordedEvent } from '../../infra/eventstore/port';
import type { WebhookQueries } from '../../queries/webhooks';
import { contentEvent } from '../../src/domain/content/events';
import { derivedId } from '../../src/domain/derived-id';
import { renderTemplate } from '../../src/domain/json-template';
import { webhookEventTypesOf } from '../../src/domain/webhook/triggers';
import type { WebhookDocument } from '../read-models/webhooks';
import type { ProcessManager } from './process-runner';
import type { DeliveryToSend } from './webhook-dispatcher';
import { webhookEnvelope } from './webhook-envelope';
import { ownValue } from '../../src/domain/own-value';

/**
 * Turns content events into delivery entries: one per enabled webhook of the workspace that
 * lists the item's content type with the event's kind. The delivery id is derived from the
 * content event, the webhook and the kind, so handling an event twice queues nothing twice.
 * Webhooks created after the event are left out (they matter when the process catches up).
 */
export class WebhookQueue implements ProcessManager {
  readonly name = 'webhook_queue';
  readonly eventTypes = new Set(['ContentPublished', 'ContentUnpublished', 'ContentDeleted']);

  constructor(
    private readonly webhooks: WebhookQueries,
    private readonly deliveries: WebhookDeliveryCommands,
    private readonly clock: Clock,
    /** Hands over an entry whose first attempt this instance claimed while queuing it. */
    private readonly onClaimed: (delivery: DeliveryToSend) => void,
  ) {}

  async handle(recorded: RecordedEvent): Promise<void> {
    const event = contentEvent.parse(recorded);
    const kinds = webhookEventTypesOf(event);
    const { workspaceId, contentType, itemId } = event.data;
    const occurredAt = recorded.metadata.timestamp;
    const targets = (await this.webhooks.documents(workspaceId)).filter((webhook) => webhook.enabled && webhook.createdAt <= occurredAt);
    const content = 'fields' in event.data ? { fields: event.data.fields, translations: event.data.translations } : { fields: {}, translations: {} };
    const queued: Promise<void>[] = [];
    for (const webhook of targets) {
      for (const kind of kinds.filter((candidate) => ownValue(webhook.eventTypes, contentType)?.includes(candidate))) {
        const delivery = {
          deliveryId: derivedId(recorded.id, webhook.webhookId, kind),
          webhookId: webhook.webhookId,
          workspaceId,
          eventType: kind,
          contentType,
          contentId: itemId,
          ...content,
          occurredAt,
        };
        const customPayload = customPayloadOf(webhook, webhookEnvelope(delivery));
        const queuedDelivery = { ...delivery, customPayload };
        const context = { workspaceId, actor: 'system', causationId: recorded.id };
        // The queuing instance claims the first attempt and sends it at once, without waiting for a look
        // for due entries; each goes out as soon as it lands, while the rest are still being queued.
        queued.push(
          this.deliveries.queue({ ...delivery, customPayload, sourceEventId: recorded.id }, context, this.clock.now()).then((claimed) => {
            if (claimed) this.onClaimed(queuedDelivery);
          }),
        );
      }
    }
    await Promise.all(queued);
  }
}

function customPayloadOf(webhook: WebhookDocument, envelope: Record<string, unknown>): Record<string, unknown> | null {
  if (!webhook.useCustomPayload || !webhook.customPayload) return null;
  return renderTemplate(webhook.customPayload, envelope) as Record<string, unknown>;
}
