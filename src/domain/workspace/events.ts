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

/**
 * The key that signs image URLs is derived from the workspace's data key and this generation
 * (1 until the first rotation): the event holds no secret, not even as ciphertext. The key of
 * the generation before is still accepted until `previousKeyValidUntil`.
 */
export const imageSigningKeyRotated = z.object({
  type: z.literal('ImageSigningKeyRotated'),
  data: z.object({ workspaceId: z.string(), generation: z.number().int().min(2), previousKeyValidUntil: z.string() }),
});

export const workspaceEvent = z.discriminatedUnion('type', [workspaceCreated, totpSecretSet, schedulerSigningSecretSet, imageSigningKeyRotated]);
export type WorkspaceEvent = z.infer<typeof workspaceEvent>;
/** The generation of a workspace's image signing key before any rotation. */
export const FIRST_IMAGE_SIGNING_GENERATION = 1;

export type WorkspaceCreatedData = z.infer<typeof workspaceCreated>['data'];

export const workspaceStream = (workspaceId: string) => `workspace-${workspaceId}`;
