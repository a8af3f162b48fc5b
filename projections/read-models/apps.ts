import { appEvent } from '../../src/domain/app/events';
import type { Document } from '../../infra/readstore/port';
import type { Projector } from '../projector';

export const APPS = 'apps';
export const APP_INSTALLATIONS = 'app_installations';

export interface AppDocument extends Document {
  readonly name: string;
  readonly parameters: Record<string, string>;
  readonly fieldMapping: Record<string, string>;
  readonly secretHash: string;
}

/** One installation per app, workspace and user: installing again for the same user replaces it. */
export interface AppInstallationDocument extends Document {
  readonly appId: string;
  readonly workspaceId: string;
  readonly userId: string;
  readonly parameters: Record<string, string>;
  readonly fieldMapping: Record<string, string>;
}

/** Each part is URI-encoded so that a `:` inside a workspace or user id cannot make two installations share an id. */
export const installationId = (appId: string, workspaceId: string, userId: string) =>
  [appId, workspaceId, userId].map(encodeURIComponent).join(':');

export const appsProjector: Projector = {
  name: 'apps',
  collections: [
    { name: APPS, indexes: [] },
    { name: APP_INSTALLATIONS, indexes: [{ fields: ['appId', 'userId'] }, { fields: ['workspaceId'] }] },
  ],
  eventTypes: new Set(['AppRegistered', 'AppInstalled', 'AppParametersMerged']),

  async project(recorded, view) {
    const event = appEvent.parse(recorded);
    switch (event.type) {
      case 'AppRegistered': {
        const { appId, ...rest } = event.data;
        return [{ kind: 'upsert', collection: APPS, document: { id: appId, ...rest } satisfies AppDocument }];
      }
      case 'AppInstalled': {
        const { appId, workspaceId, userId } = event.data;
        const document: AppInstallationDocument = { id: installationId(appId, workspaceId, userId), ...event.data };
        return [{ kind: 'upsert', collection: APP_INSTALLATIONS, document }];
      }
      case 'AppParametersMerged': {
        const app = await view.get<AppDocument>(APPS, event.data.appId);
        if (!app) return [];
        const document: AppDocument = { ...app, parameters: { ...app.parameters, ...event.data.parameters } };
        return [{ kind: 'upsert', collection: APPS, document }];
      }
    }
  },
};
