/**
 * What the audit feed shows of an event's data: only members named here, and only when
 * they are short scalars or lists of them. Everything else stays in the log: content field
 * values, sealed values and ciphertexts, TOTP material, key and secret hashes, URLs (which
 * may carry tokens), payloads, prompts and error texts. An allow list, so that a member a
 * later event type adds is hidden until someone decides it is safe to show.
 */
const SHOWN_MEMBERS = [
  'itemId',
  'contentType',
  'contentTypeId',
  'contentId',
  'assetId',
  'keyId',
  'appId',
  'userId',
  'webhookId',
  'webhookIds',
  'deliveryId',
  'jobId',
  'seriesId',
  'threadId',
  'actionId',
  'name',
  'title',
  'code',
  'policies',
  'operation',
  'fieldKeys',
  'outcome',
  'status',
  'statusCode',
  'eventType',
  'attempt',
  'version',
  'created',
  'firstPublish',
  'enabled',
  'success',
  'originalFileName',
  'assetType',
  'expiresAt',
  'expirationDate',
  'planType',
  'reason',
  'range',
  'events',
  'through',
  'fileSha256',
  'signed',
  'keysExported',
  'keysImported',
  'checkpoint',
  'problems',
  'releaseId',
  'action',
  'pinned',
  'publishAt',
] as const;

const MAX_TEXT = 200;
/** The longest list a summary shows; a longer one is left out. */
export const MAX_SHOWN_LIST = 50;

export type SummaryValue = string | number | boolean | null | readonly (string | number)[];

const isShortScalar = (value: unknown): value is string | number | boolean | null =>
  value === null || typeof value === 'number' || typeof value === 'boolean' || (typeof value === 'string' && value.length <= MAX_TEXT);

/** The shown members of `data` that hold short scalars or short lists of short strings and numbers. */
export function auditSummary(data: unknown): Record<string, SummaryValue> {
  if (typeof data !== 'object' || data === null) return {};
  const source = data as Record<string, unknown>;
  const summary: Record<string, SummaryValue> = {};
  for (const member of SHOWN_MEMBERS) {
    const value = source[member];
    if (isShortScalar(value)) summary[member] = value;
    else if (Array.isArray(value) && value.length <= MAX_SHOWN_LIST && value.every((item) => (typeof item === 'string' || typeof item === 'number') && isShortScalar(item))) {
      summary[member] = value as (string | number)[];
    }
  }
  return summary;
}
