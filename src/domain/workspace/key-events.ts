import { z } from 'zod';

/**
 * Operator actions on a workspace's data key, in a stream of their own: the key itself never
 * enters the log, only who did what, when (metadata) and why.
 */
export const workspaceDataKeyShredded = z.object({
  type: z.literal('WorkspaceDataKeyShredded'),
  data: z.object({ workspaceId: z.string(), reason: z.string() }),
});

/** A new key after a shred: what was encrypted with the old one stays unreadable. */
export const workspaceDataKeyCreated = z.object({
  type: z.literal('WorkspaceDataKeyCreated'),
  data: z.object({ workspaceId: z.string(), reason: z.string() }),
});

export const workspaceKeyEvent = z.discriminatedUnion('type', [workspaceDataKeyShredded, workspaceDataKeyCreated]);
export type WorkspaceKeyEvent = z.infer<typeof workspaceKeyEvent>;

export const workspaceKeyStream = (workspaceId: string) => `workspacekey-${workspaceId}`;
