import { z } from 'zod';

export const stringMap = z.record(z.string(), z.string());

export const appRegistered = z.object({
  type: z.literal('AppRegistered'),
  data: z.object({
    appId: z.string(),
    name: z.string(),
    parameters: stringMap,
    fieldMapping: stringMap,
    secretHash: z.string(),
  }),
});

export const appInstalled = z.object({
  type: z.literal('AppInstalled'),
  data: z.object({
    appId: z.string(),
    workspaceId: z.string(),
    userId: z.string(),
    parameters: stringMap,
    fieldMapping: stringMap,
  }),
});

/** POST /apps: the given parameters are merged over the app's own. */
export const appParametersMerged = z.object({
  type: z.literal('AppParametersMerged'),
  data: z.object({ appId: z.string(), parameters: stringMap }),
});

export const appEvent = z.discriminatedUnion('type', [appRegistered, appInstalled, appParametersMerged]);
export type AppEvent = z.infer<typeof appEvent>;
export type AppRegisteredData = z.infer<typeof appRegistered>['data'];
export type AppInstalledData = z.infer<typeof appInstalled>['data'];

export const appStream = (appId: string) => `app-${appId}`;
