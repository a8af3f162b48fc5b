import type { ReadStore } from '../infra/readstore/port';
import type { Filter } from '../infra/readstore/query';
import { APP_INSTALLATIONS, APPS, type AppDocument, type AppInstallationDocument, installationId } from '../projections/read-models/apps';
import type { WorkspaceInfo, WorkspaceQueries } from './workspaces';

/** The spec's App settings. */
export interface AppSettings {
  readonly parameters: Record<string, string>;
  readonly fieldMapping: Record<string, string>;
}

/** Read side of the Apps endpoints; every call is scoped to the calling app's id. */
export class AppQueries {
  constructor(
    private readonly store: ReadStore,
    private readonly workspaces: WorkspaceQueries,
  ) {}

  async settings(appId: string): Promise<AppSettings | null> {
    const app = await this.store.get<AppDocument>(APPS, appId);
    return app ? { parameters: app.parameters, fieldMapping: app.fieldMapping } : null;
  }

  /** The app's settings with the installation's merged over them (the installation wins); null when not installed for that user. */
  async userSettings(appId: string, userId: string, workspaceId: string): Promise<AppSettings | null> {
    const [app, installation] = await Promise.all([
      this.settings(appId),
      this.store.get<AppInstallationDocument>(APP_INSTALLATIONS, installationId(appId, workspaceId, userId)),
    ]);
    if (!app || !installation) return null;
    return {
      parameters: { ...app.parameters, ...installation.parameters },
      fieldMapping: { ...app.fieldMapping, ...installation.fieldMapping },
    };
  }

  /** Each workspace where the app is installed once, for any user or only for `userId`. */
  async installedWorkspaces(appId: string, userId?: string): Promise<WorkspaceInfo[]> {
    const byApp: Filter = { type: 'condition', field: 'appId', operator: 'e', value: appId };
    const filter: Filter = userId === undefined ? byApp : { type: 'and', conditions: [byApp, { type: 'condition', field: 'userId', operator: 'e', value: userId }] };
    const installations = await this.store.list<AppInstallationDocument>(APP_INSTALLATIONS, { filter });
    return this.workspaces.listByIds([...new Set(installations.map((installation) => installation.workspaceId))]);
  }
}
