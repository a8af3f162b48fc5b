import { z } from 'zod';

/** AuditAccess reads the workspace's audit feed (GET /audit); it grants no content reads. */
export const WORKSPACE_POLICIES = ['ReadAccess', 'WriteAccess', 'AuditAccess'] as const;
export const workspacePolicy = z.enum(WORKSPACE_POLICIES);
export type WorkspacePolicy = z.infer<typeof workspacePolicy>;

/** The key itself never enters the log: only the SHA-256 of its secret part. */
export const apiKeyIssued = z.object({
  type: z.literal('ApiKeyIssued'),
  data: z.object({
    keyId: z.string(),
    workspaceId: z.string(),
    name: z.string().nullable(),
    policies: z.array(workspacePolicy).min(1),
    secretHash: z.string(),
  }),
});

export const apiKeyRevoked = z.object({
  type: z.literal('ApiKeyRevoked'),
  data: z.object({ keyId: z.string(), workspaceId: z.string() }),
});

export const apiKeyEvent = z.discriminatedUnion('type', [apiKeyIssued, apiKeyRevoked]);
export type ApiKeyEvent = z.infer<typeof apiKeyEvent>;
export type ApiKeyIssuedData = z.infer<typeof apiKeyIssued>['data'];

export const apiKeyStream = (keyId: string) => `apikey-${keyId}`;
