import type { UndoPlanItem, UndoResult, UndoSelector } from '../../commands/content-undo';
import type { AdminClient } from './admin-client';
import type { CliOutput } from './output';
import { progressBar } from './progress';
import { table } from './table';

/** Items sent per request: each is a restore the service waits to see in its read models. */
const BATCH = 50;

export interface UndoOptions {
  readonly workspaceId: string | undefined;
  readonly selector: UndoSelector;
  readonly reason: string | undefined;
  readonly dryRun: boolean;
  readonly json: boolean;
}

/**
 * `undo <workspaceId> --actor|--request|--correlation (with --actor)|--from/--to`: the plan first (what each item would
 * become), then, unless --dry-run, the reverts in batches of the planned items, with a
 * progress bar. Conflicts and unchanged items are listed and left alone.
 */
export async function undoContentChanges(admin: AdminClient, options: UndoOptions, output: CliOutput): Promise<void> {
  const { workspaceId, selector } = options;
  if (!workspaceId) throw new Error('undo needs a workspace id');
  if (Object.values(selector).every((value) => value === undefined)) throw new Error('undo needs --actor, --request, --from or --to');
  if (selector.correlationId !== undefined && selector.actor === undefined) throw new Error("undo --correlation needs --actor: any client can send the same X-Request-Id; --request selects one request by the server's id");
  if (!options.dryRun && !options.reason) throw new Error('undo needs --reason (kept in every event it appends), or --dry-run');
  const path = `/workspaces/${encodeURIComponent(workspaceId)}/content-undo`;
  const plan = await admin.call<{ items: UndoPlanItem[] }>('POST', path, { selector, dryRun: true });
  if (options.dryRun) {
    if (options.json) return output.log(JSON.stringify(plan.items, null, 2));
    return printPlan(plan.items, output);
  }
  const toRevert = plan.items.filter((item) => item.action === 'restore' || item.action === 'delete');
  const results: UndoResult[] = [];
  const bar = progressBar(output, 'undo', '{value}/{total} items');
  bar.start(toRevert.length, 0);
  try {
    for (let start = 0; start < toRevert.length; start += BATCH) {
      const itemIds = toRevert.slice(start, start + BATCH).map((item) => item.itemId);
      const answer = await admin.call<{ items: UndoResult[] }>('POST', path, { selector, reason: options.reason, itemIds });
      results.push(...answer.items);
      bar.update(Math.min(start + BATCH, toRevert.length));
    }
  } finally {
    bar.stop();
  }
  const skipped = plan.items.filter((item) => !toRevert.includes(item));
  if (options.json) return output.log(JSON.stringify([...results, ...skipped], null, 2));
  const count = (outcome: UndoResult['outcome']) => results.filter((result) => result.outcome === outcome).length;
  const restoredWith = (action: UndoResult['publishedAction']) => results.filter((result) => result.outcome === 'restored' && result.publishedAction === action).length;
  output.log(`restored ${count('restored')} (${restoredWith('publish')} published again, ${restoredWith('unpublish')} unpublished), deleted ${count('deleted')}, failed ${count('failed')}; left alone: ${skipped.length} (${skipped.filter((item) => item.action === 'conflict').length} conflicts)`);
  for (const result of results.filter((item) => item.outcome !== 'restored' && item.outcome !== 'deleted')) output.log(`${result.itemId}: ${result.outcome} ${result.detail ?? ''}`.trim());
}

function printPlan(items: readonly UndoPlanItem[], output: CliOutput): void {
  if (items.length === 0) return output.log('no content change matches');
  const rows = items.map((item) => [
    item.itemId,
    item.contentType,
    item.action,
    item.publishedAction,
    `${item.currentVersion} -> ${item.restoreVersion ?? (item.action === 'delete' ? 'deleted' : '-')}`,
    item.laterChanges.map((change) => `v${change.version} ${change.type} by ${change.actor}`).join('; '),
  ]);
  for (const line of table(['ITEM', 'TYPE', 'ACTION', 'PUBLISHED', 'VERSION', 'LATER CHANGES BY OTHERS'], rows)) output.log(line);
}
