import type {
  Operations,
  SaveWebhookRequest,
  Success,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryPage,
  WebhookList,
  WebhookTestResult,
} from '../generated/api-types';
import type { Transport } from '../http/transport';
import { WORKSPACE_OPERATIONS } from '../operations/workspace-operations';

const routes = WORKSPACE_OPERATIONS.webhooks;

export type DeliveryLogQuery = Operations['listWebhookDeliveries']['query'];

/** Webhooks, their signed deliveries and the delivery log. Verify deliveries with verifyWebhookSignature. */
export class WebhooksApi {
  constructor(private readonly transport: Transport) {}

  list(): Promise<WebhookList> {
    return this.transport.json(routes.list);
  }

  get(id: string): Promise<Webhook> {
    return this.transport.json(routes.get, { path: { id } });
  }

  /** Without an id creates the webhook and its secret (returned); with one updates it. */
  save(webhook: SaveWebhookRequest): Promise<Webhook> {
    return this.transport.json(routes.save, { body: webhook });
  }

  /** Its delivery log stays readable. */
  delete(id: string): Promise<Success> {
    return this.transport.json(routes.delete, { path: { id } });
  }

  enable(id: string): Promise<Webhook> {
    return this.transport.json(routes.enable, { path: { id } });
  }

  disable(id: string): Promise<Webhook> {
    return this.transport.json(routes.disable, { path: { id } });
  }

  /** The previous secret stops signing at once. */
  rotateSecret(id: string): Promise<Webhook> {
    return this.transport.json(routes.rotateSecret, { path: { id } });
  }

  /** Sends a signed ping now and tells how the endpoint answered. */
  test(id: string): Promise<WebhookTestResult> {
    return this.transport.json(routes.test, { path: { id } });
  }

  /** Newest first. */
  listDeliveries(id: string, query: DeliveryLogQuery = {}): Promise<WebhookDeliveryPage> {
    return this.transport.json(routes.listDeliveries, { path: { id }, query });
  }

  /** One delivery with every attempt. */
  getDelivery(id: string, eventId: string): Promise<WebhookDeliveryDetail> {
    return this.transport.json(routes.getDelivery, { path: { id, eventId } });
  }

  /** Delivers again now, unless the entry is already waiting or in progress. */
  retryDelivery(id: string, eventId: string): Promise<WebhookDelivery> {
    return this.transport.json(routes.retryDelivery, { path: { id, eventId } });
  }
}
