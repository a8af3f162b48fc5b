import { sealItemValues } from '../../commands/content-sealing';
import type { WebhookDeliveryCommands } from '../../commands/webhook-deliveries';
import type { ItemSealer } from '../../infra/crypto/item-sealer';
import type { Clock } from '../../infra/clock';
import type { RecordedEvent } from '../../infra/eventstore/port';
import type { WebhookQueries } from '../../queries/webhooks';
import { contentEvent } from '../../src/domain/content/events';
import { releaseFailed } from '../../src/domain/release/events';
import { WEBHOOK_EVENT_TYPES } from '../../src/domain/webhook/events';
import { derivedId } from '../../src/domain/derived-id';
import { DomainError } from '../../src/domain/errors';
import { renderTemplate } from '../../src/domain/json-template';
import { webhookEventTypesOf } from '../../src/domain/webhook/triggers';
import type { WebhookDocument } from '../read-models/webhooks';
import type { ProcessManager } from './process-runner';
import type { DeliveryToSend } from './webhook-dispatcher';
import type { WebhookDeliveryQueuedData } from '../../src/domain/webhook-delivery/events';
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
  readonly eventTypes = new Set(['ContentPublished', 'ContentUnpublished', 'ContentDeleted', 'ContentErased', 'ReleaseFailed']);

  constructor(
    private readonly webhooks: WebhookQueries,
    private readonly deliveries: WebhookDeliveryCommands,
    private readonly clock: Clock,
    /** Hands over an entry whose first attempt this instance claimed while queuing it. */
    private readonly onClaimed: (delivery: DeliveryToSend) => void,
    /** Seals the values of deliveries about items of personal-data content types. */
    private readonly personalData: { readonly sealer: ItemSealer; readonly isPersonal: (workspaceId: string, contentType: string) => Promise<boolean> },
  ) {}

  /** False when no webhook takes the event: its runner need not save its checkpoint for it at once. */
  async handle(recorded: RecordedEvent): Promise<boolean> {
    if (recorded.type === 'ReleaseFailed') return this.releaseFailed(recorded);
    const event = contentEvent.parse(recorded);
    // Still sealed after the unsealing read: the item was erased since, and there is nothing to send.
    if ('sealed' in event.data && event.data.sealed !== undefined) return false;
    const kinds = webhookEventTypesOf(event);
    const { workspaceId, contentType, itemId } = event.data;
    const occurredAt = recorded.metadata.timestamp;
    const targets = (await this.webhooks.documents(workspaceId)).filter((webhook) => webhook.enabled && webhook.createdAt <= occurredAt);
    const content = 'fields' in event.data ? { fields: event.data.fields, translations: event.data.translations } : { fields: {}, translations: {} };
    const sealValues = 'fields' in event.data && targets.length > 0 && (await this.personalData.isPersonal(workspaceId, contentType));
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
          ...(recorded.metadata.releaseId === undefined ? {} : { releaseId: recorded.metadata.releaseId }),
        };
        const customPayload = customPayloadOf(webhook, webhookEnvelope(delivery));
        const queuedDelivery = { ...delivery, customPayload };
        const context = { workspaceId, actor: 'system', causationId: recorded.id };
        // The queuing instance claims the first attempt and sends it at once, without waiting for a look
        // for due entries; each goes out as soon as it lands, while the rest are still being queued.
        queued.push(
          this.stored({ ...queuedDelivery, sourceEventId: recorded.id }, sealValues)
            .then((stored) => (stored === null ? false : this.deliveries.queue(stored, context, this.clock.now())))
            .then((claimed) => {
              if (claimed) this.onClaimed(queuedDelivery);
            }),
        );
      }
    }
    await Promise.all(queued);
    return queued.length > 0;
  }

  /** A failed scheduled release: one delivery per item to each webhook listing the item's type with ReleaseFailed (5); no values. */
  private async releaseFailed(recorded: RecordedEvent): Promise<boolean> {
    const { workspaceId, releaseId, items } = releaseFailed.parse(recorded).data;
    const occurredAt = recorded.metadata.timestamp;
    const targets = (await this.webhooks.documents(workspaceId)).filter((webhook) => webhook.enabled && webhook.createdAt <= occurredAt);
    const kind = WEBHOOK_EVENT_TYPES.ReleaseFailed;
    const context = { workspaceId, actor: 'system', causationId: recorded.id };
    const queued: Promise<void>[] = [];
    for (const { itemId, contentType } of items) {
      for (const webhook of targets.filter((candidate) => ownValue(candidate.eventTypes, contentType)?.includes(kind))) {
        const delivery = { deliveryId: derivedId(recorded.id, webhook.webhookId, `${kind}:${itemId}`), webhookId: webhook.webhookId, workspaceId, eventType: kind, contentType, contentId: itemId, fields: {}, translations: {}, occurredAt, releaseId };
        const queuedDelivery = { ...delivery, customPayload: customPayloadOf(webhook, webhookEnvelope(delivery)) };
        queued.push(
          this.deliveries.queue({ ...queuedDelivery, sourceEventId: recorded.id }, context, this.clock.now()).then((claimed) => {
            if (claimed) this.onClaimed(queuedDelivery);
          }),
        );
      }
    }
    await Promise.all(queued);
    return queued.length > 0;
  }

  /**
   * The delivery as its event holds it: sealed for personal-data items, so the queue's copies
   * hold no clear values. Null when the item was erased in the meantime: nothing is queued.
   */
  private async stored(delivery: WebhookDeliveryQueuedData, seal: boolean): Promise<WebhookDeliveryQueuedData | null> {
    if (!seal) return delivery;
    const ref = { workspaceId: delivery.workspaceId, itemId: delivery.contentId };
    try {
      return (await sealItemValues(this.personalData.sealer, { type: 'WebhookDeliveryQueued', data: delivery }, ref)).data as WebhookDeliveryQueuedData;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'gone') return null;
      throw error;
    }
  }
}

function customPayloadOf(webhook: WebhookDocument, envelope: Record<string, unknown>): Record<string, unknown> | null {
  if (!webhook.useCustomPayload || !webhook.customPayload) return null;
  return renderTemplate(webhook.customPayload, envelope) as Record<string, unknown>;
}
