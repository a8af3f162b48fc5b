import { z } from 'zod';

/**
 * The NDJSON format of a workspace export: a header line, one line per event in global
 * order, and a summary line, so that an export is written in one pass and a cut-off file
 * is recognised (it has no summary).
 */
export const EXPORT_FORMAT = 'cms-workspace-export';
/** Version 2 carries no key: the keys go to a key file of their own (key-file.ts), so that an event export cannot undo an erasure. */
export const EXPORT_VERSION = 2;

export const exportHeader = z
  .object({
    kind: z.literal('header'),
    format: z.literal(EXPORT_FORMAT, { error: `must be "${EXPORT_FORMAT}"` }),
    version: z.union([z.literal(1), z.literal(EXPORT_VERSION)], { error: `must be 1 or ${EXPORT_VERSION}, the versions this CLI reads` }),
    workspaceId: z.string().min(1),
    exportedAt: z.iso.datetime({ offset: true }),
    /** Version 1 only: the workspace's data key exactly as stored, wrapped by the master key (ENCRYPTION_KEY). Null when it has none. */
    wrappedDataKey: z.string().min(1).nullable().optional(),
  })
  .refine((header) => (header.version === 1) === (header.wrappedDataKey !== undefined), {
    path: ['wrappedDataKey'],
    error: 'is part of a version 1 header, and of no other',
  });

const eventMetadata = z.object({
  workspaceId: z.string().nullable(),
  actor: z.string(),
  actorKind: z.enum(['apiKey', 'app', 'admin', 'system', 'sharedAccessKey']).optional(),
  actorId: z.string().optional(),
  actorName: z.string().nullable().optional(),
  clientInfo: z.string().optional(),
  correlationId: z.string(),
  serverRequestId: z.string().optional(),
  causationId: z.string().optional(),
  releaseId: z.string().optional(),
  timestamp: z.iso.datetime({ offset: true }),
});

export const exportedEvent = z.object({
  kind: z.literal('event'),
  stream: z.string().min(1),
  revision: z.number().int().min(0),
  id: z.guid(),
  type: z.string().min(1),
  data: z.custom<unknown>((data) => data !== undefined, 'is required'),
  metadata: eventMetadata,
  /** The event's link in its stream's hash chain (hex SHA-256); absent in exports written before the chain. */
  hash: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits').optional(),
});

export const exportSummary = z.object({
  kind: z.literal('summary'),
  events: z.number().int().min(0),
  /** HMAC-SHA-256 with EXPORT_SIGNING_KEY over the whole file (export-signature.ts); absent when none was configured. */
  signature: z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits').optional(),
});

export const exportLine = z.discriminatedUnion('kind', [exportHeader, exportedEvent, exportSummary], {
  error: 'must be an object whose kind is header, event or summary',
});

export type ExportHeader = z.infer<typeof exportHeader>;
export type ExportedEvent = z.infer<typeof exportedEvent>;
export type ExportSummary = z.infer<typeof exportSummary>;
export type ExportLine = z.infer<typeof exportLine>;
