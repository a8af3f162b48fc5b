import { validateTemplate } from '../json-template';

/** The envelope fields a webhook's custom payload may use (see src/domain/json-template.ts). */
export const TEMPLATE_ROOTS = [
  'eventType',
  'eventTypeCode',
  'deliveryId',
  'webhookId',
  'workspaceId',
  'contentType',
  'contentId',
  'fields',
  'translations',
  'occurredAt',
] as const;

/** Throws a 400 naming the JSON path of the first bad placeholder. */
export function validateWebhookTemplate(template: Record<string, unknown>, field = 'customPayload'): void {
  validateTemplate(template, TEMPLATE_ROOTS, field);
}
