import { conflict } from './errors';

/** How many of a kind a workspace holds (counted from its read model) and the most it may hold; a limit of 0 is none. */
export interface WorkspaceQuota {
  readonly used: number;
  readonly limit: number;
  /** The operator's setting that holds `limit`, named in the refusal. */
  readonly setting: string;
}

/** A 409 when the workspace already holds its quota of `kind` (plural, like `content types`), so one more would pass it. */
export function checkRoomForOneMore(quota: WorkspaceQuota, kind: string, workspaceId: string): void {
  if (quota.limit === 0 || quota.used < quota.limit) return;
  throw conflict(
    `workspace ${workspaceId} already has ${quota.used} ${kind}, the most ${quota.setting} allows (${quota.limit}); ` +
      `delete one it no longer needs, or ask the operator to raise ${quota.setting}`,
  );
}
