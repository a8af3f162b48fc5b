import { z } from 'zod';
import { contentTypeDefinition } from './definition';
import { queryIndex } from './query-indexes';

/** Carries the whole definition, so the read model and history need no other event. */
export const contentTypeSaved = z.object({
  type: z.literal('ContentTypeSaved'),
  data: z.object({
    workspaceId: z.string(),
    contentTypeId: z.string(),
    created: z.boolean(),
    /** Action header values appear here as HIDDEN_HEADER_VALUE (events before sealing carry them in clear). */
    definition: contentTypeDefinition,
    /** Per action id, its headers as JSON sealed under the workspace's data key: they often carry credentials. */
    sealedActionHeaders: z.record(z.string(), z.string()).default({}),
  }),
});

export const contentTypeDeleted = z.object({
  type: z.literal('ContentTypeDeleted'),
  data: z.object({ workspaceId: z.string(), contentTypeId: z.string(), key: z.string() }),
});

/**
 * The whole list of the type's query indexes (declared, pinned and advised), replacing the one
 * before, and the indexes the advisor may not declare; a later ContentTypeSaved keeps both.
 * Written by an operator, or by the advisor (actor `system`, with its reason). Events before the
 * advisor carry neither `forbidden` nor `reason`, and indexes without `origin`: declared.
 */
export const contentTypeQueryIndexesDeclared = z.object({
  type: z.literal('ContentTypeQueryIndexesDeclared'),
  data: z.object({
    workspaceId: z.string(),
    contentTypeId: z.string(),
    key: z.string(),
    indexes: z.array(queryIndex),
    forbidden: z.array(queryIndex).default([]),
    /** Why the advisor declared or dropped an index: the shape it serves and its cost, or how long it went unused. */
    reason: z.string().optional(),
  }),
});

export const contentTypeEvent = z.discriminatedUnion('type', [contentTypeSaved, contentTypeDeleted, contentTypeQueryIndexesDeclared]);
/** The events that make and remove a type's definition, for read models of definitions only. */
export const contentTypeDefinitionEvent = z.discriminatedUnion('type', [contentTypeSaved, contentTypeDeleted]);
export type ContentTypeEvent = z.infer<typeof contentTypeEvent>;

/** One stream per key and workspace: key uniqueness comes from stream identity. */
export const contentTypeStream = (workspaceId: string, key: string) => `contenttype-${workspaceId}-${key}`;
