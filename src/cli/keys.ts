import type { ListedApiKey } from '../../queries/workspaces';
import type { AdminClient } from './admin-client';
import type { CliOutput } from './output';
import { table } from './table';

/** `keys list <workspaceId>`: the workspace's keys, revoked ones included; the service never answers their secrets. */
export async function listKeys(admin: AdminClient, workspaceId: string | undefined, json: boolean, output: CliOutput): Promise<void> {
  if (!workspaceId) throw new Error('keys list needs a workspace id');
  const keys = await admin.call<ListedApiKey[]>('GET', `/workspaces/${encodeURIComponent(workspaceId)}/api-keys`);
  if (json) return output.log(JSON.stringify(keys, null, 2));
  if (keys.length === 0) return output.log(`workspace ${workspaceId} has no keys`);
  const rows = keys.map((key) => [key.id, key.name ?? '', key.policies.join(','), key.createdAt, key.revokedAt ?? '']);
  for (const line of table(['ID', 'NAME', 'POLICIES', 'CREATED', 'REVOKED'], rows)) output.log(line);
}
