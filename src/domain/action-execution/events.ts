import { z } from 'zod';

/** The status codes of the spec's action execution record. */
export const ACTION_STATUS = { Running: 0, Succeeded: 1, Failed: -1 } as const;
export type ActionStatus = keyof typeof ACTION_STATUS;

/** An execution record lives this long; afterwards it is gone and the action can run again. */
export const EXECUTION_RECORD_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

const operationRef = { workspaceId: z.string(), contentId: z.string(), actionId: z.string(), operationId: z.string() };

/** A callback-mode execution began: the record exists, Running, before the external service is called. */
export const actionStarted = z.object({
  type: z.literal('ActionStarted'),
  data: z.object({ ...operationRef, contentType: z.string(), at: z.string() }),
});

/** A progress callback (progress below 100): only progress and message change. */
export const actionProgressed = z.object({
  type: z.literal('ActionProgressed'),
  data: z.object({ ...operationRef, progress: z.number().int(), message: z.string().nullable(), at: z.string() }),
});

/** The execution ended: by a completing callback, or Failed because the external service did not take the call. */
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

export const actionExecutionEvent = z.discriminatedUnion('type', [actionStarted, actionProgressed, actionCompleted]);
export type ActionExecutionEvent = z.infer<typeof actionExecutionEvent>;
export type ActionStartedData = z.infer<typeof actionStarted>['data'];

/** One stream per content item and action: the one-Running rule is this stream's expected revision. */
export const actionExecutionStream = (workspaceId: string, contentId: string, actionId: string) => `action-${workspaceId}-${contentId}-${actionId}`;

export const isExpired = (startedAt: string, now: Date) => now.getTime() - Date.parse(startedAt) >= EXECUTION_RECORD_LIFETIME_MS;
