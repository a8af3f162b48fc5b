import { z } from 'zod';

export const RELEASE_ACTIONS = ['publish', 'unpublish', 'delete'] as const;
export type ReleaseAction = (typeof RELEASE_ACTIONS)[number];

export const RELEASE_STATUSES = ['Open', 'Published', 'Failed', 'Cancelled', 'Reverted'] as const;
export type ReleaseStatus = (typeof RELEASE_STATUSES)[number];

const releaseRef = { workspaceId: z.string(), releaseId: z.string() };

export const releaseCreated = z.object({ type: z.literal('ReleaseCreated'), data: z.object({ ...releaseRef, name: z.string() }) });

/**
 * An intended change of one item (added, or replacing the item's earlier entry). `version` is the
 * item's version (events in its stream) when it was added; `pinned` publishes the draft as it was
 * at that version even if the item changed since, where an unpinned entry refuses a changed item.
 */
export const releaseItemSet = z.object({
  type: z.literal('ReleaseItemSet'),
  data: z.object({ ...releaseRef, itemId: z.string(), contentType: z.string(), action: z.enum(RELEASE_ACTIONS), version: z.number().int().nonnegative(), pinned: z.boolean() }),
});

export const releaseItemRemoved = z.object({ type: z.literal('ReleaseItemRemoved'), data: z.object({ ...releaseRef, itemId: z.string() }) });

/** When an Open release publishes itself (null: not scheduled); who scheduled it is the event's actor. */
export const releaseScheduled = z.object({ type: z.literal('ReleaseScheduled'), data: z.object({ ...releaseRef, publishAt: z.string().nullable() }) });

/** A scheduled publish found problems at its time: nothing was published. */
export const releaseFailed = z.object({
  type: z.literal('ReleaseFailed'),
  data: z.object({ ...releaseRef, problems: z.array(z.string()), items: z.array(z.object({ itemId: z.string(), contentType: z.string() })) }),
});

/** Appended in the same append as every item's events (they carry the release id in their metadata). */
export const releasePublished = z.object({ type: z.literal('ReleasePublished'), data: z.object({ ...releaseRef, items: z.number().int() }) });

export const releaseCancelled = z.object({ type: z.literal('ReleaseCancelled'), data: z.object(releaseRef) });

/** Each item's published state from before the release was put back, in the same append. */
export const releaseReverted = z.object({ type: z.literal('ReleaseReverted'), data: z.object({ ...releaseRef, reason: z.string() }) });

export const releaseEvent = z.discriminatedUnion('type', [releaseCreated, releaseItemSet, releaseItemRemoved, releaseScheduled, releasePublished, releaseFailed, releaseCancelled, releaseReverted]);
export type ReleaseEvent = z.infer<typeof releaseEvent>;
export type ReleaseItem = Omit<z.infer<typeof releaseItemSet>['data'], 'workspaceId' | 'releaseId'>;

export const RELEASE_EVENT_TYPES: ReadonlySet<string> = new Set(releaseEvent.options.map((option) => option.shape.type.value));

export const releaseStream = (workspaceId: string, releaseId: string) => `release-${workspaceId}-${releaseId}`;
