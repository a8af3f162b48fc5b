import { z } from 'zod';

const fieldValues = z.record(z.string(), z.unknown());
/** field key → locale code → value */
const translations = z.record(z.string(), z.record(z.string(), z.unknown()));

export const contentBody = z.object({ fields: fieldValues, translations });
export type ContentBody = z.infer<typeof contentBody>;

const itemRef = { workspaceId: z.string(), itemId: z.string(), contentType: z.string() };

/**
 * Items of personal-data content types: the event's values (`fields` and `translations`, or
 * `ciphertexts`) are stored sealed under the item's own data key, with the clear members
 * empty. The log is read through an unsealing view (infra/eventstore/unsealing.ts) that puts
 * the values back and drops `sealed`; an event that still carries `sealed` after it is an
 * erased item's, whose values no one can read any more.
 */
const sealed = { sealed: z.string().optional() };

export const contentDraftSaved = z.object({
  type: z.literal('ContentDraftSaved'),
  data: z.object({ ...itemRef, created: z.boolean(), ...contentBody.shape, ...sealed }),
});

/** Carries the published content itself, so read models and webhooks need no other event. */
export const contentPublished = z.object({
  type: z.literal('ContentPublished'),
  data: z.object({ ...itemRef, firstPublish: z.boolean(), ...contentBody.shape, ...sealed }),
});

export const contentUnpublished = z.object({ type: z.literal('ContentUnpublished'), data: z.object(itemRef) });
export const contentDraftDeleted = z.object({ type: z.literal('ContentDraftDeleted'), data: z.object(itemRef) });
/** The whole item: draft, published version and encrypted values. */
export const contentDeleted = z.object({ type: z.literal('ContentDeleted'), data: z.object(itemRef) });

/** Only ciphertext under the workspace's data key enters the log. */
export const contentEncryptedFieldsSet = z.object({
  type: z.literal('ContentEncryptedFieldsSet'),
  data: z.object({ ...itemRef, ciphertexts: z.record(z.string(), z.string()), ...sealed }),
});

/**
 * The item's values were erased: its data key is shredded, so every sealed value of it in the
 * log is unreadable. Who and when are the event's metadata; `reason` is the operator's.
 */
export const contentErased = z.object({
  type: z.literal('ContentErased'),
  data: z.object({ ...itemRef, reason: z.string() }),
});

/**
 * An earlier state made the draft again (a restore, or an operator's bulk undo). Carries the
 * content itself, like ContentDraftSaved, which read models treat it as; publishing stays a
 * separate step. The actor is in the event's metadata.
 */
export const contentRestored = z.object({
  type: z.literal('ContentRestored'),
  data: z.object({
    ...itemRef,
    /** The version (1-based stream revision) whose state was restored. */
    fromVersion: z.number().int().positive(),
    /** Which state of that version: the draft (preview paths) or the published content. */
    stage: z.enum(['draft', 'published']),
    reason: z.string().nullable(),
    ...contentBody.shape,
  }),
});

export const contentEvent = z.discriminatedUnion('type', [
  contentDraftSaved,
  contentRestored,
  contentPublished,
  contentUnpublished,
  contentDraftDeleted,
  contentDeleted,
  contentEncryptedFieldsSet,
  contentErased,
]);
export type ContentEvent = z.infer<typeof contentEvent>;

/** The content events whose values are sealed for personal-data types. */
export const SEALABLE_CONTENT_EVENTS: ReadonlySet<string> = new Set(['ContentDraftSaved', 'ContentPublished', 'ContentEncryptedFieldsSet']);

export const contentStream = (workspaceId: string, itemId: string) => `content-${workspaceId}-${itemId}`;
