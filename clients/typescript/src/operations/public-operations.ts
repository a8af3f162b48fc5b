import { route } from './route';

/** The anonymous operations CmsPublicClient calls (no credential). */
export const PUBLIC_OPERATIONS = {
  getServerTime: route('getServerTime', 'get', '/utility/server-time'),
  getHealth: route('getHealth', 'get', '/health'),
  getLiveness: route('getLiveness', 'get', '/health/live'),
  getReadiness: route('getReadiness', 'get', '/health/ready'),
  getMetrics: route('getMetrics', 'get', '/metrics'),
  getOpenApiDocument: route('getOpenApiDocument', 'get', '/openapi.json'),
  getApiReferencePage: route('getApiReferencePage', 'get', '/docs'),
  downloadSharedAsset: route('downloadSharedAsset', 'get', '/shared-access/{workspaceId}/asset/{id}'),
  getSignedImage: route('getSignedImage', 'get', '/images/signed/{workspaceId}/{assetId}/{version}'),
  reportActionProgress: route('reportActionProgress', 'post', '/actions/callback/{workspaceId}/{operationId}'),
} as const;
