import type { WorkspaceQuota } from '../src/domain/workspace-quota';

/** A per-workspace quota and how to count what a workspace holds of it (from a read model, never the log). */
export interface QuotaCounter {
  readonly limit: number;
  readonly setting: string;
  count(workspaceId: string): Promise<number>;
}

/** The quota as a decider checks it; nothing is counted when there is no limit. */
export async function measureQuota(counter: QuotaCounter, workspaceId: string): Promise<WorkspaceQuota> {
  const used = counter.limit === 0 ? 0 : await counter.count(workspaceId);
  return { used, limit: counter.limit, setting: counter.setting };
}
