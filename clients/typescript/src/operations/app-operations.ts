import { route } from './route';

/** The operations CmsAppClient calls (an app key). */
export const APP_OPERATIONS = {
  getSettings: route('getAppSettings', 'get', '/apps'),
  mergeParameters: route('mergeAppParameters', 'post', '/apps'),
  listWorkspaces: route('listAppWorkspaces', 'get', '/apps/workspaces'),
  listAllWorkspaces: route('listAllAppWorkspaces', 'get', '/apps/workspaces/all'),
  getUserSettings: route('getAppUserSettings', 'get', '/apps/{userId}/workspaces/{workspaceId}'),
} as const;
