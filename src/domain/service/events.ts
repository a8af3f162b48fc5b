import { z } from 'zod';

/**
 * Marks the first start of an empty store. Appended with "no stream", so exactly one
 * instance bootstraps even when several start at once. The admin token is kept only as
 * a SHA-256 hash, and only when it was generated (a configured ADMIN_TOKEN is never stored).
 */
export const serviceBootstrapped = z.object({
  type: z.literal('ServiceBootstrapped'),
  data: z.object({
    adminTokenHash: z.string().nullable(),
    defaultWorkspaceId: z.string(),
  }),
});

export type ServiceEvent = z.infer<typeof serviceBootstrapped>;
export const SERVICE_STREAM = 'service-bootstrap';
