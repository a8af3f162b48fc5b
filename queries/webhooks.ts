import type { WorkspaceCipher } from '../infra/crypto/envelope';
import type { ReadStore } from '../infra/readstore/port';
import type { Filter } from '../infra/readstore/query';
import {
  deliveryDocumentId,
  WEBHOOK_DELIVERIES,
  type WebhookDeliveryDocument,
} from '../projections/read-models/webhook-deliveries';
import { WEBHOOKS, webhookDocumentId, type WebhookDocument } from '../projections/read-models/webhooks';
import { notFound } from '../src/domain/errors';

/** WebhookModel of the spec. */
export interface WebhookView {
  readonly id: string;
  readonly endpoint: string;
  readonly secret: string;
  readonly eventTypes: Record<string, number[]>;
  readonly useCustomPayload: boolean;
  readonly customPayload: Record<string, unknown> | null;
  readonly description: string;
  readonly errorEmailTo: string;
  readonly enabled: boolean;
}

export interface DeliveryLogQuery {
  readonly page: number;
  readonly pageSize: number;
  readonly status?: number;
  readonly eventType?: number;
  readonly contentType?: string;
  /** Inclusive bounds on dateInsert, ISO 8601 UTC. */
  readonly from?: string;
  readonly to?: string;
}

export class WebhookQueries {
  constructor(
    private readonly store: ReadStore,
    private readonly cipher: WorkspaceCipher,
  ) {}

  async list(workspaceId: string): Promise<WebhookView[]> {
    return Promise.all((await this.documents(workspaceId)).map((document) => this.view(document)));
  }

  async get(workspaceId: string, webhookId: string): Promise<WebhookView> {
    return this.view(await this.document(workspaceId, webhookId));
  }

  /** 404 when the webhook does not exist in the workspace. */
  async document(workspaceId: string, webhookId: string): Promise<WebhookDocument> {
    const document = await this.store.get<WebhookDocument>(WEBHOOKS, webhookDocumentId(workspaceId, webhookId));
    if (!document) throw notFound(`webhook ${webhookId} does not exist`);
    return document;
  }

  /** The workspace's webhooks, oldest first. */
  async documents(workspaceId: string): Promise<WebhookDocument[]> {
    return this.store.list<WebhookDocument>(WEBHOOKS, {
      filter: { type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId },
      sort: [{ field: 'createdAt', direction: 'asc' }],
    });
  }

  count(workspaceId: string): Promise<number> {
    return this.store.count(WEBHOOKS, { filter: { type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId } });
  }

  signingSecret(document: WebhookDocument): Promise<string> {
    return this.cipher.decrypt(document.workspaceId, document.sealedSecret);
  }

  /**
   * Newest first. Deliveries of a deleted webhook stay readable here; a webhook that never
   * existed in the workspace (another workspace's, or none) is a 404 like on every webhook route.
   */
  async deliveries(workspaceId: string, webhookId: string, query: DeliveryLogQuery) {
    const ofWebhook: Filter[] = [
      { type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId },
      { type: 'condition', field: 'webhookId', operator: 'e', value: webhookId },
    ];
    if (!(await this.hasDeliveryLog(workspaceId, webhookId, ofWebhook))) throw notFound(`webhook ${webhookId} does not exist`);
    const conditions = [...ofWebhook];
    if (query.status !== undefined) conditions.push({ type: 'condition', field: 'processStatus', operator: 'e', value: query.status });
    if (query.eventType !== undefined) conditions.push({ type: 'condition', field: 'eventType', operator: 'e', value: query.eventType });
    if (query.contentType !== undefined) conditions.push({ type: 'condition', field: 'contentType', operator: 'e', value: query.contentType });
    if (query.from !== undefined) conditions.push({ type: 'condition', field: 'dateInsert', operator: 'gte', value: query.from });
    if (query.to !== undefined) conditions.push({ type: 'condition', field: 'dateInsert', operator: 'lte', value: query.to });
    const { items, total } = await this.store.find<WebhookDeliveryDocument>(WEBHOOK_DELIVERIES, {
      filter: { type: 'and', conditions },
      sort: [{ field: 'dateInsert', direction: 'desc' }],
      offset: (query.page - 1) * query.pageSize,
      limit: query.pageSize,
    });
    return { items: items.map(toLogEntry), page: query.page, pageSize: query.pageSize, total };
  }

  /** The webhook exists, or it was deleted and its log was kept (at least one entry). */
  private async hasDeliveryLog(workspaceId: string, webhookId: string, ofWebhook: Filter[]): Promise<boolean> {
    if (await this.store.get<WebhookDocument>(WEBHOOKS, webhookDocumentId(workspaceId, webhookId))) return true;
    const entries = await this.store.list<WebhookDeliveryDocument>(WEBHOOK_DELIVERIES, { filter: { type: 'and', conditions: ofWebhook }, limit: 1 });
    return entries.length > 0;
  }

  async delivery(workspaceId: string, webhookId: string, deliveryId: string): Promise<WebhookDeliveryDocument> {
    const document = await this.store.get<WebhookDeliveryDocument>(WEBHOOK_DELIVERIES, deliveryDocumentId(workspaceId, deliveryId));
    if (!document || document.webhookId !== webhookId) throw notFound(`delivery ${deliveryId} does not exist`);
    return document;
  }

  private async view(document: WebhookDocument): Promise<WebhookView> {
    return {
      id: document.webhookId,
      endpoint: document.endpoint,
      secret: await this.signingSecret(document),
      eventTypes: document.eventTypes,
      useCustomPayload: document.useCustomPayload,
      customPayload: document.customPayload,
      description: document.description,
      errorEmailTo: document.errorEmailTo,
      enabled: document.enabled,
    };
  }
}

/** WebhookEventLogModel of the spec. */
export function toLogEntry(document: WebhookDeliveryDocument) {
  return {
    id: document.deliveryId,
    webhookId: document.webhookId,
    dateInsert: document.dateInsert,
    lastUpdate: document.lastUpdate,
    eventType: document.eventType,
    contentId: document.contentId,
    contentType: document.contentType,
    fields: document.fields,
    translations: document.translations,
    customPayload: document.customPayload,
    processStatus: document.processStatus,
    responseStatusCode: document.responseStatusCode,
    isResponseSuccessStatusCode: document.isResponseSuccessStatusCode,
    responseMessage: document.responseMessage,
  };
}
