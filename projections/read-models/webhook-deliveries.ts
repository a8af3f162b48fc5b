import { DELIVERY_CLAIM_TIMEOUT_MS } from '../../src/domain/webhook-delivery/decider';
import { webhookDeliveryEvent } from '../../src/domain/webhook-delivery/events';
import type { WebhookEventTypeCode } from '../../src/domain/webhook/events';
import type { Document } from '../../infra/readstore/port';
import type { Projector } from '../projector';

export const WEBHOOK_DELIVERIES = 'webhook_deliveries';

/** WebhookProcessStatus of the spec. */
export const PROCESS_STATUS = { Error: -1, Waiting: 0, Processing: 1, Sent: 2 } as const;

export interface DeliveryAttempt {
  readonly attempt: number;
  readonly at: string;
  readonly statusCode: number;
  readonly message: string;
  readonly durationMs: number;
}

/** The delivery log entry (WebhookEventLogModel) and what the dispatcher needs; id `${workspaceId}:${deliveryId}`. */
export interface WebhookDeliveryDocument extends Document {
  readonly workspaceId: string;
  readonly deliveryId: string;
  readonly webhookId: string;
  readonly dateInsert: string;
  readonly lastUpdate: string;
  readonly eventType: WebhookEventTypeCode;
  readonly contentId: string;
  readonly contentType: string;
  readonly fields: Record<string, unknown>;
  readonly translations: Record<string, Record<string, unknown>>;
  readonly customPayload: Record<string, unknown> | null;
  /** A personal-data item's delivery: its values stay sealed here too, opened only when sent (the members above are empty). */
  readonly sealed?: string;
  readonly occurredAt: string;
  readonly processStatus: (typeof PROCESS_STATUS)[keyof typeof PROCESS_STATUS];
  readonly responseStatusCode: number;
  readonly isResponseSuccessStatusCode: boolean;
  readonly responseMessage: string;
  /** When a Waiting entry is due. */
  readonly nextAttemptAt: string | null;
  readonly attempts: DeliveryAttempt[];
}

export const deliveryDocumentId = (workspaceId: string, deliveryId: string) => `${workspaceId}:${deliveryId}`;

export const webhookDeliveriesProjector: Projector = {
  name: 'webhook_deliveries',
  collections: [
    {
      name: WEBHOOK_DELIVERIES,
      indexes: [{ fields: ['workspaceId', 'webhookId', 'dateInsert'] }, { fields: ['processStatus', 'nextAttemptAt'] }],
    },
  ],
  eventTypes: new Set(['WebhookDeliveryQueued', 'WebhookDeliveryStarted', 'WebhookDeliveryAttempted', 'WebhookDeliveryRetryRequested']),

  prefetch(recorded) {
    if (recorded.type === 'WebhookDeliveryQueued') return [];
    const { workspaceId, deliveryId } = recorded.data as { workspaceId: string; deliveryId: string };
    return [{ collection: WEBHOOK_DELIVERIES, id: deliveryDocumentId(workspaceId, deliveryId) }];
  },

  async project(recorded, view) {
    const event = webhookDeliveryEvent.parse(recorded);
    const id = deliveryDocumentId(event.data.workspaceId, event.data.deliveryId);
    const at = recorded.metadata.timestamp;
    if (event.type === 'WebhookDeliveryQueued') {
      const { sourceEventId: _source, ...queued } = event.data;
      const document: WebhookDeliveryDocument = {
        id,
        ...queued,
        dateInsert: at,
        lastUpdate: at,
        processStatus: PROCESS_STATUS.Waiting,
        responseStatusCode: 0,
        isResponseSuccessStatusCode: false,
        responseMessage: '',
        nextAttemptAt: at,
        attempts: [],
      };
      return [{ kind: 'upsert', collection: WEBHOOK_DELIVERIES, document }];
    }
    const current = await view.get<WebhookDeliveryDocument>(WEBHOOK_DELIVERIES, id);
    if (!current) return [];
    if (event.type === 'WebhookDeliveryStarted') {
      // While Processing, nextAttemptAt is when the claim counts as lost.
      const lostAt = new Date(Date.parse(event.data.at) + DELIVERY_CLAIM_TIMEOUT_MS).toISOString();
      return [{ kind: 'upsert', collection: WEBHOOK_DELIVERIES, document: { ...current, processStatus: PROCESS_STATUS.Processing, nextAttemptAt: lostAt, lastUpdate: at } }];
    }
    if (event.type === 'WebhookDeliveryRetryRequested') {
      const document = { ...current, processStatus: PROCESS_STATUS.Waiting, nextAttemptAt: event.data.at, lastUpdate: at };
      return [{ kind: 'upsert', collection: WEBHOOK_DELIVERIES, document }];
    }
    const { attempt, statusCode, success, message, durationMs, nextAttemptAt } = event.data;
    if (current.attempts.some((known) => known.attempt === attempt)) return [];
    const document: WebhookDeliveryDocument = {
      ...current,
      processStatus: success ? PROCESS_STATUS.Sent : nextAttemptAt === null ? PROCESS_STATUS.Error : PROCESS_STATUS.Waiting,
      responseStatusCode: statusCode,
      isResponseSuccessStatusCode: success,
      responseMessage: message,
      nextAttemptAt: success ? null : nextAttemptAt,
      lastUpdate: at,
      attempts: [...current.attempts, { attempt, at: event.data.at, statusCode, message, durationMs }],
    };
    return [{ kind: 'upsert', collection: WEBHOOK_DELIVERIES, document }];
  },
};
