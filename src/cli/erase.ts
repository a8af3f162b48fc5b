import type { AdminClient } from './admin-client';
import type { CliOutput } from './output';

/** `erase <workspaceId> <type> <itemId> --reason <text>`: erasure through the admin API of the running service. */
export async function eraseItem(admin: AdminClient, positionals: (string | undefined)[], reason: string | undefined, output: CliOutput): Promise<void> {
  const [workspaceId, type, itemId, ...unexpected] = positionals;
  if (!workspaceId || !type || !itemId || unexpected.length > 0) throw new Error('erase needs a workspace id, a content type key and an item id');
  if (!reason?.trim()) throw new Error('erase needs --reason <text>: why the item is erased (kept for audit; do not name the person)');
  const path = `/workspaces/${encodeURIComponent(workspaceId)}/contents/${encodeURIComponent(type)}/${encodeURIComponent(itemId)}/erase`;
  await admin.call('POST', path, { reason });
  output.log(`erased content item ${itemId} (${type}) of workspace ${workspaceId}: its key is shredded, its values are unreadable everywhere`);
}
