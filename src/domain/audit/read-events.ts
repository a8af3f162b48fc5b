import { z } from 'zod';

/**
 * Reads worth an audit record that no aggregate decides on: appended to streams of their
 * own (never to the asset's or workspace's, whose deciders do not know them), before the
 * data leaves. Ids only, never a key or a value.
 */
export const sharedAssetDownloaded = z.object({
  type: z.literal('SharedAssetDownloaded'),
  data: z.object({ workspaceId: z.string(), assetId: z.string(), keyId: z.string(), range: z.boolean() }),
});

export const assetAccessStream = (workspaceId: string, assetId: string) => `assetaccess-${workspaceId}-${assetId}`;

/**
 * A webhook's signing secret was shown to a reader (`GET /webhooks`, `GET /webhooks/{id}`): which
 * webhooks, never the secret. A list of many is recorded as several events of at most
 * MAX_SHOWN_LIST ids, so the feed's summary shows every id.
 */
export const webhookSecretsRead = z.object({
  type: z.literal('WebhookSecretsRead'),
  data: z.object({ workspaceId: z.string(), webhookIds: z.array(z.string()) }),
});

export const webhookSecretAccessStream = (workspaceId: string) => `webhooksecretaccess-${workspaceId}`;
