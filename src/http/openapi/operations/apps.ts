import { z } from 'zod';
import { installedWorkspacesQuery } from '../../routes/apps';
import type { DocumentedOperation } from '../operation';
import { named } from '../schema-registry';
import { stringMapSchema, successSchema, workspaceInfoListSchema } from '../shared-schemas';
import { TAGS } from '../tags';

const TAG = TAGS.apps.name;

const appSettings = named('AppSettings', z.object({ parameters: stringMapSchema, fieldMapping: stringMapSchema }));

export const appOperations: DocumentedOperation[] = [
  {
    method: 'get',
    path: '/apps',
    operationId: 'getAppSettings',
    tag: TAG,
    summary: "The calling app's parameters and field mapping",
    access: 'App.ReadAccess',
    responses: { 200: { description: 'the settings', schema: appSettings } },
    errors: { 404: 'the app does not exist' },
  },
  {
    method: 'post',
    path: '/apps',
    operationId: 'mergeAppParameters',
    tag: TAG,
    summary: "Merge parameters into the calling app's own",
    description: 'Takes an app key: the one write an app key may make.',
    access: 'WriteAccess',
    body: { schema: stringMapSchema, example: { region: 'eu', tone: 'formal' } },
    responses: { 200: { description: 'merged', schema: successSchema } },
  },
  {
    method: 'get',
    path: '/apps/workspaces',
    operationId: 'listAppWorkspaces',
    tag: TAG,
    summary: 'Workspaces where the app is installed (for one user with userId)',
    access: 'App.ReadAccess',
    query: installedWorkspacesQuery,
    parameters: { userId: 'only installations for this user' },
    responses: { 200: { description: 'each workspace once', schema: workspaceInfoListSchema } },
  },
  {
    method: 'get',
    path: '/apps/workspaces/all',
    operationId: 'listAllAppWorkspaces',
    tag: TAG,
    summary: 'Workspaces where the app is installed, across all users',
    access: 'App.ReadAccess',
    responses: { 200: { description: 'each workspace once', schema: workspaceInfoListSchema } },
  },
  {
    method: 'get',
    path: '/apps/{userId}/workspaces/{workspaceId}',
    operationId: 'getAppUserSettings',
    tag: TAG,
    summary: "The app's settings for one user and workspace (the installation's values win)",
    access: 'App.UserAccess',
    responses: { 200: { description: 'the settings', schema: appSettings } },
    errors: { 404: 'the app is not installed there for that user' },
  },
];
