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

