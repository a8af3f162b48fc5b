import { webhookEvent, type WebhookSettings } from '../../src/domain/webhook/events';
import type { Document } from '../../infra/readstore/port';
import type { Projector } from '../projector';

export const WEBHOOKS = 'webhooks';

/** One document per live webhook, id `${workspaceId}:${webhookId}`; the secret stays sealed. */
export interface WebhookDocument extends Document, WebhookSettings {
  readonly workspaceId: string;
  readonly webhookId: string;
  /** The last delivery failed for good and no delivery has succeeded since. */
  readonly failing: boolean;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const webhookDocumentId = (workspaceId: string, webhookId: string) => `${workspaceId}:${webhookId}`;

export const webhooksProjector: Projector = {
  name: 'webhooks',
  collections: [{ name: WEBHOOKS, indexes: [{ fields: ['workspaceId', 'createdAt'] }] }],
  eventTypes: new Set(['WebhookSaved', 'WebhookSecretRotated', 'WebhookEnabled', 'WebhookDisabled', 'WebhookDeleted', 'WebhookFailing', 'WebhookRecovered']),

  prefetch(recorded) {
    const { workspaceId, webhookId } = recorded.data as { workspaceId: string; webhookId: string };
    return [{ collection: WEBHOOKS, id: webhookDocumentId(workspaceId, webhookId) }];
  },

  async project(recorded, view) {
    const event = webhookEvent.parse(recorded);
    const { workspaceId, webhookId } = event.data;
    const id = webhookDocumentId(workspaceId, webhookId);
    const at = recorded.metadata.timestamp;
    if (event.type === 'WebhookDeleted') return [{ kind: 'delete', collection: WEBHOOKS, id }];
    const current = await view.get<WebhookDocument>(WEBHOOKS, id);
    if (event.type === 'WebhookSaved') {
      const { created: _created, ...settings } = event.data;
      const document: WebhookDocument = { id, ...settings, failing: current?.failing ?? false, createdAt: current?.createdAt ?? at, updatedAt: at };
      return [{ kind: 'upsert', collection: WEBHOOKS, document }];
    }
    if (!current) return [];
    const change: Partial<WebhookDocument> =
      event.type === 'WebhookSecretRotated'
        ? { sealedSecret: event.data.sealedSecret }
        : event.type === 'WebhookEnabled' || event.type === 'WebhookDisabled'
          ? { enabled: event.type === 'WebhookEnabled' }
          : { failing: event.type === 'WebhookFailing' };
    return [{ kind: 'upsert', collection: WEBHOOKS, document: { ...current, ...change, updatedAt: at } }];
  },
};
