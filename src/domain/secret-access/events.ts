import { z } from 'zod';

export const secretOperation = z.enum(['decrypt', 'check']);
export type SecretOperation = z.infer<typeof secretOperation>;

/**
 * What came of one attempt to read encrypted values: `invalidCode` and `replayedCode` are
 * decrypts refused for their one-time password, `mismatched` a check whose values differ,
 * `notFound` a decrypt with a good code of an item that does not exist.
 */
export const secretAccessOutcome = z.enum(['decrypted', 'matched', 'mismatched', 'invalidCode', 'replayedCode', 'notFound']);
export type SecretAccessOutcome = z.infer<typeof secretAccessOutcome>;

/** Outcomes that were a wrong guess: they count towards the attempt limits. */
export const FAILED_OUTCOMES: ReadonlySet<SecretAccessOutcome> = new Set(['mismatched', 'invalidCode', 'replayedCode']);
/** Outcomes that proved the caller right: they clear the attempt counters. */
export const SUCCESSFUL_OUTCOMES: ReadonlySet<SecretAccessOutcome> = new Set(['decrypted', 'matched']);

/**
 * One decrypt or check of an item's encrypted fields: the audit trail of who read which
 * secret when (the actor is in the metadata). Names the fields, never a value, a candidate
 * value or a one-time password.
 */
export const secretAccessAttempted = z.object({
  type: z.literal('SecretAccessAttempted'),
  data: z.object({
    workspaceId: z.string(),
    itemId: z.string(),
    contentType: z.string(),
    operation: secretOperation,
    fieldKeys: z.array(z.string()),
    outcome: secretAccessOutcome,
  }),
});
export type SecretAccessAttempt = z.infer<typeof secretAccessAttempted>['data'];

/** A one-time password accepted once: its stream (one per workspace, TOTP secret and time step) holds this event only. */
export const totpCodeUsed = z.object({
  type: z.literal('TotpCodeUsed'),
  data: z.object({ workspaceId: z.string(), secretTag: z.string(), step: z.number().int() }),
});

export const secretAccessEvent = z.discriminatedUnion('type', [secretAccessAttempted]);
export const totpCodeEvent = z.discriminatedUnion('type', [totpCodeUsed]);
export type TotpCodeEvent = z.infer<typeof totpCodeEvent>;

/** The reads of one item's encrypted values; appended to, never decided on. */
export const secretAccessStream = (workspaceId: string, itemId: string) => `secretaccess-${workspaceId}-${itemId}`;
export const totpCodeStream = (workspaceId: string, secretTag: string, step: number) => `totpcode-${workspaceId}-${secretTag}-${step}`;
