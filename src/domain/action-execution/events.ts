import { z } from 'zod';

/** The status codes of the spec's action execution record. */
export const ACTION_STATUS = { Running: 0, Succeeded: 1, Failed: -1 } as const;
export type ActionStatus = keyof typeof ACTION_STATUS;

/** An execution record lives this long; afterwards it is gone and the action can run again. */
export const EXECUTION_RECORD_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

const operationRef = { workspaceId: z.string(), contentId: z.string(), actionId: z.string(), operationId: z.string() };

/**
 * A Running record whose call was never answered is taken for interrupted (the process stopped
 * between the record and the call's answer) this long after the call's deadline: instances'
 * clocks may differ by that much.
 */
export const INTERRUPTED_CALL_GRACE_MS = 60_000;

/**
 * A callback-mode execution began: the record exists, Running, before the external service is called.
 * `callDeadline`: when the call's answer is due at the latest (absent on events written before
 * interrupted calls were recognised: such a record stays Running until a callback or its expiry).
 */
export const actionStarted = z.object({
  type: z.literal('ActionStarted'),
  data: z.object({ ...operationRef, contentType: z.string(), at: z.string(), callDeadline: z.string().optional() }),
});

/** The external service took the call (2xx): from here the record waits for its callbacks. */
export const actionCallAccepted = z.object({
  type: z.literal('ActionCallAccepted'),
  data: z.object({ ...operationRef, at: z.string() }),
});

/** A progress callback (progress below 100): only progress and message change. */
export const actionProgressed = z.object({
  type: z.literal('ActionProgressed'),
  data: z.object({ ...operationRef, progress: z.number().int(), message: z.string().nullable(), at: z.string() }),
});

/** The execution ended: by a completing callback, or Failed because the external service did not take the call or the call was interrupted. */
export const actionCompleted = z.object({
  type: z.literal('ActionCompleted'),
  data: z.object({
    ...operationRef,
    status: z.enum(['Succeeded', 'Failed']),
    result: z.string().nullable(),
    error: z.string().nullable(),
    message: z.string().nullable(),
    progress: z.number().int().nullable(),
    at: z.string(),
  }),
});

export const actionExecutionEvent = z.discriminatedUnion('type', [actionStarted, actionCallAccepted, actionProgressed, actionCompleted]);
export type ActionExecutionEvent = z.infer<typeof actionExecutionEvent>;
export type ActionStartedData = z.infer<typeof actionStarted>['data'];

/** One stream per content item and action: the one-Running rule is this stream's expected revision. */
export const actionExecutionStream = (workspaceId: string, contentId: string, actionId: string) => `action-${workspaceId}-${contentId}-${actionId}`;

export const isExpired = (startedAt: string, now: Date) => now.getTime() - Date.parse(startedAt) >= EXECUTION_RECORD_LIFETIME_MS;
