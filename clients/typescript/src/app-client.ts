import type { AppSettings, StringMap, Success, WorkspaceInfoList } from './generated/api-types';
import { type KeyPlacement, keyHeaders } from './http/credentials';
import { type ClientOptions, Transport } from './http/transport';
import { APP_OPERATIONS as routes } from './operations/app-operations';

export interface CmsAppClientOptions extends ClientOptions {
  /** The app's key, from CmsAdminClient.apps.register. */
  readonly appKey: string;
  /** Default: `x-api-key`; `bearer` sends `Authorization: Bearer`. */
  readonly sendKeyAs?: KeyPlacement;
}

/** The apps API, called with an app key: the app's own settings and where it is installed. */
export class CmsAppClient {
  private readonly transport: Transport;

  constructor(options: CmsAppClientOptions) {
    this.transport = new Transport(options, keyHeaders(options.appKey, options.sendKeyAs));
  }

  getSettings(): Promise<AppSettings> {
    return this.transport.json(routes.getSettings);
  }

  /** Merges into the app's own parameters: the one write an app key may make. */
  mergeParameters(parameters: StringMap): Promise<Success> {
    return this.transport.json(routes.mergeParameters, { body: parameters });
  }

  /** Workspaces where the app is installed, for one user when `userId` is given. */
  listWorkspaces(userId?: string): Promise<WorkspaceInfoList> {
    return this.transport.json(routes.listWorkspaces, { query: { userId } });
  }

  /** Workspaces where the app is installed, across all users. */
  listAllWorkspaces(): Promise<WorkspaceInfoList> {
    return this.transport.json(routes.listAllWorkspaces);
  }

  /** The settings for one user and workspace: the installation's values win. */
  getUserSettings(userId: string, workspaceId: string): Promise<AppSettings> {
    return this.transport.json(routes.getUserSettings, { path: { userId, workspaceId } });
  }
}
