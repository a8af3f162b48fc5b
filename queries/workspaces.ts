import type { ReadStore } from '../infra/readstore/port';
import { API_KEY_LIST, type ListedApiKeyDocument } from '../projections/read-models/api-key-list';
import { WORKSPACES, type WorkspaceDocument } from '../projections/read-models/workspaces';

export type WorkspaceInfo = Pick<WorkspaceDocument, 'id' | 'name' | 'ownerUserId' | 'planType' | 'planRecords' | 'activationDate' | 'expirationDate'>;

export function toWorkspaceInfo(document: WorkspaceDocument): WorkspaceInfo {
  const { id, name, ownerUserId, planType, planRecords, activationDate, expirationDate } = document;
  return { id, name, ownerUserId, planType, planRecords, activationDate, expirationDate };
}

/** A key as listed to operators: never its secret nor the secret's hash. */
export type ListedApiKey = Pick<ListedApiKeyDocument, 'id' | 'name' | 'policies' | 'createdAt' | 'revokedAt'>;

export class WorkspaceQueries {
  constructor(private readonly store: ReadStore) {}

  async list(): Promise<WorkspaceInfo[]> {
    const { items } = await this.store.find<WorkspaceDocument>(WORKSPACES, { sort: [{ field: 'activationDate', direction: 'asc' }] });
    return items.map(toWorkspaceInfo);
  }

  async listByIds(ids: readonly string[]): Promise<WorkspaceInfo[]> {
    if (ids.length === 0) return [];
    const { items } = await this.store.find<WorkspaceDocument>(WORKSPACES, {
      filter: { type: 'condition', field: 'id', operator: 'in', value: [...ids] },
      sort: [{ field: 'activationDate', direction: 'asc' }],
    });
    return items.map(toWorkspaceInfo);
  }

  get(workspaceId: string): Promise<WorkspaceDocument | null> {
    return this.store.get<WorkspaceDocument>(WORKSPACES, workspaceId);
  }

  /** Every key the workspace was issued, revoked ones included, oldest first. */
  async apiKeys(workspaceId: string): Promise<ListedApiKey[]> {
    const keys = await this.store.list<ListedApiKeyDocument>(API_KEY_LIST, {
      filter: { type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId },
      sort: [{ field: 'createdAt', direction: 'asc' }],
    });
    return keys.map(({ id, name, policies, createdAt, revokedAt }) => ({ id, name, policies, createdAt, revokedAt }));
  }
}
