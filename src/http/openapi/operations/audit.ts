import { z } from 'zod';
import { auditQuery } from '../../routes/audit';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { dateTime } from '../shared-schemas';
import { TAGS } from '../tags';
import { BUSY_WORKSPACE } from './contents';

const TAG = TAGS.audit.name;

const auditEntry = named(
  'AuditEntry',
  z.object({
    eventId: z.string(),
    position: z.string().describe('the log position, commit/prepare: pass it as `after` to continue after this entry'),
    stream: z.string(),
    revision: z.number().int().describe('0-based, within the stream'),
    type: z.string().describe('the event type, e.g. ContentPublished, SecretAccessAttempted'),
    at: dateTime,
    actor: z.string().describe('key:<keyId>, app:<appId>, admin or system, as stored'),
    actorKind: z.enum(['apiKey', 'app', 'admin', 'system', 'sharedAccessKey', 'other']),
    actorId: z.string().describe("the key or app id, the admin token's name, or system"),
    actorName: z.string().nullable().describe("the key's, app's or admin's name when the event was written (for older events: the key's or app's name now)"),
    requestId: z.string().nullable().describe('the X-Request-Id of the request that caused it'),
    serverRequestId: z.string().nullable().describe("the server's own id of that request (X-Server-Request-Id, never chosen by a client); null for events written before it was recorded or not caused by a request"),
    clientInfo: z.string().nullable(),
    itemId: z.string().nullable().describe('the content item or asset the event is about'),
    summary: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.union([z.string(), z.number()]))]))
      .describe('allow-listed members of the event data (ids, names, field keys, outcomes); never values, secrets, hashes or URLs'),
  }),
);
const auditPage = named(
  'AuditPage',
  z.object({
    items: z.array(auditEntry),
    next: z.string().nullable().describe('the position after which the next page starts; keep it to poll for newer entries'),
    hasMore: z.boolean().describe('true when entries after this page already match'),
  }),
);

const PARAMETERS = {
  actorKind: 'only events caused by this kind of actor',
  actorId: "only events of this key or app id, or admin token's name",
  type: 'comma-separated event types',
  stream: 'only events of this stream',
  itemId: 'only events about this content item or asset',
  from: 'events at or after this time',
  to: 'events before this time',
  after: 'a position from an earlier page: entries after it',
  limit: 'entries per page (JSON only; NDJSON streams every entry)',
};

const NDJSON_RESPONSE = {
  mediaType: 'application/x-ndjson',
  schema: { type: 'string', description: 'with Accept: application/x-ndjson, every matching entry after `after`, one AuditEntry per line, streamed' },
};

export const auditOperations: DocumentedOperation[] = [
  {
    method: 'get',
    path: '/audit',
    operationId: 'getAuditFeed',
    tag: TAG,
    summary: "The key's workspace's audit feed",
    description: 'Every event of the workspace in log order. JSON answers a page; `Accept: application/x-ndjson` streams the whole filtered feed.',
    access: 'AuditAccess',
    query: auditQuery,
    parameters: PARAMETERS,
    responses: { 200: { description: 'a page, or the NDJSON stream', schema: auditPage, raw: NDJSON_RESPONSE } },
    errors: { 503: BUSY_WORKSPACE },
  },
  {
    method: 'get',
    path: '/admin/workspaces/{workspaceId}/audit',
    operationId: 'getWorkspaceAuditFeed',
    tag: TAG,
    summary: "A workspace's audit feed, for the admin",
    description: 'The same feed as GET /audit for any workspace.',
    access: 'Admin',
    query: auditQuery,
    parameters: PARAMETERS,
    responses: { 200: { description: 'a page, or the NDJSON stream', schema: auditPage, raw: NDJSON_RESPONSE } },
    errors: { 404: 'the workspace does not exist' },
  },
  {
    method: 'get',
    path: '/admin/audit',
    operationId: 'getServiceAuditFeed',
    tag: TAG,
    summary: "The service's own audit feed, for the admin",
    description:
      'Events of no workspace that an operator must see: `EventLogAlertRaised`, what the service found wrong with the event log itself ' +
      '(a checkpoint it refused to sign because the log no longer extends the latest one, append-only triggers dropped or put back, ' +
      'a witness holding another checkpoint under the same id, an event whose MAC fails: written past the service, quarantined). The summary shows `reason`, `checkpoint` and `problems`. Same filters and paging as GET /audit.',
    access: 'Admin',
    query: auditQuery,
    parameters: PARAMETERS,
    responses: { 200: { description: 'a page, or the NDJSON stream', schema: auditPage, raw: NDJSON_RESPONSE } },
  },
];
