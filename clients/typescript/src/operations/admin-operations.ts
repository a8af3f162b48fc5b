import { route } from './route';

/** The operations CmsAdminClient calls (the admin token). */
export const ADMIN_OPERATIONS = {
  workspaces: {
    create: route('createWorkspace', 'post', '/admin/workspaces'),
    list: route('listWorkspaces', 'get', '/admin/workspaces'),
    issueApiKey: route('issueApiKey', 'post', '/admin/workspaces/{workspaceId}/api-keys'),
    listApiKeys: route('listApiKeys', 'get', '/admin/workspaces/{workspaceId}/api-keys'),
    revokeApiKey: route('revokeApiKey', 'delete', '/admin/workspaces/{workspaceId}/api-keys/{keyId}'),
    createTotpSecret: route('createTotpSecret', 'post', '/admin/workspaces/{workspaceId}/totp'),
    setSchedulerSigningSecret: route('setSchedulerSigningSecret', 'put', '/admin/workspaces/{workspaceId}/scheduler-signing-secret'),
    eraseContent: route('eraseContentAsAdmin', 'post', '/admin/workspaces/{workspaceId}/contents/{type}/{id}/erase'),
    shredDataKey: route('shredWorkspaceDataKey', 'post', '/admin/workspaces/{workspaceId}/data-key/shred'),
    createDataKey: route('createWorkspaceDataKey', 'post', '/admin/workspaces/{workspaceId}/data-key'),
    audit: route('getWorkspaceAuditFeed', 'get', '/admin/workspaces/{workspaceId}/audit'),
  },
  apps: {
    register: route('registerApp', 'post', '/admin/apps'),
    install: route('installApp', 'put', '/admin/apps/{appId}/installations/{workspaceId}'),
  },
  contents: {
    history: route('getOperatorContentHistory', 'get', '/admin/workspaces/{workspaceId}/contents/{itemId}/history'),
    undo: route('undoContentChanges', 'post', '/admin/workspaces/{workspaceId}/content-undo'),
  },
  contentTypes: {
    getQueryIndexes: route('getQueryIndexes', 'get', '/admin/workspaces/{workspaceId}/content-types/{key}/query-indexes'),
    declareQueryIndexes: route('declareQueryIndexes', 'put', '/admin/workspaces/{workspaceId}/content-types/{key}/query-indexes'),
    getQueryShapes: route('getQueryShapes', 'get', '/admin/workspaces/{workspaceId}/content-types/{key}/query-shapes'),
  },
  schema: {
    export: route('exportWorkspaceSchema', 'get', '/admin/workspaces/{workspaceId}/schema'),
    plan: route('planWorkspaceSchema', 'post', '/admin/workspaces/{workspaceId}/schema/plan'),
    apply: route('applyWorkspaceSchema', 'put', '/admin/workspaces/{workspaceId}/schema'),
  },
  projections: {
    getStatus: route('getProjectionsStatus', 'get', '/admin/projections'),
    rebuild: route('startRebuild', 'post', '/admin/projections/rebuild'),
    getRebuildStatus: route('getRebuildStatus', 'get', '/admin/projections/rebuild'),
    listQuarantined: route('listQuarantinedEvents', 'get', '/admin/projections/quarantine'),
    skipQuarantined: route('skipQuarantinedEvent', 'post', '/admin/projections/quarantine/{id}/skip'),
    retryQuarantined: route('retryQuarantinedEvent', 'post', '/admin/projections/quarantine/{id}/retry'),
  },
} as const;
