import { z } from 'zod';

export const workspaceCreated = z.object({
  type: z.literal('WorkspaceCreated'),
  data: z.object({
    workspaceId: z.string(),
    name: z.string(),
    ownerUserId: z.string().nullable(),
    planType: z.string().nullable(),
    planRecords: z.number().int().nullable(),
    activationDate: z.string(),
    expirationDate: z.string().nullable(),
  }),
});

/** Secrets enter events only as ciphertext under the workspace's data key. */
export const totpSecretSet = z.object({
  type: z.literal('TotpSecretSet'),
  data: z.object({ workspaceId: z.string(), encryptedSecret: z.string() }),
});

export const schedulerSigningSecretSet = z.object({
  type: z.literal('SchedulerSigningSecretSet'),
  data: z.object({ workspaceId: z.string(), encryptedSecret: z.string() }),
});

export const workspaceEvent = z.discriminatedUnion('type', [workspaceCreated, totpSecretSet, schedulerSigningSecretSet]);
export type WorkspaceEvent = z.infer<typeof workspaceEvent>;
export type WorkspaceCreatedData = z.infer<typeof workspaceCreated>['data'];

export const workspaceStream = (workspaceId: string) => `workspace-${workspaceId}`;
