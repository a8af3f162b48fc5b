import type { Logger } from 'pino';
import { PeriodicSweep } from './periodic-sweep';
import type { AssetCommands } from '../../commands/assets';
import type { Clock } from '../../infra/clock';
import type { ReadStore } from '../../infra/readstore/port';
import { ASSET_USAGE_ITEMS, type AssetUsageItemDocument } from '../read-models/asset-usage';

/** Every five minutes: an upload outlives its TTL by at most that much. */
const SWEEP_CRON = '*/5 * * * *';
const BATCH = 100;

/**
 * Ends the uploads whose last chunk came longer than the upload TTL ago, so that unfinished
 * uploads neither fill the blob store nor count against the workspace's limits for ever: each
 * fails (a chunk sent later hears why) and its stored chunks are removed. Runs on the instance that
 * runs the process managers, at start and every five minutes.
 */
export class ExpiredUploads {
  constructor(
    private readonly store: ReadStore,
    private readonly commands: AssetCommands,
    private readonly ttlMs: number,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  private readonly periodic = new PeriodicSweep(SWEEP_CRON, () => this.sweep(), (error: unknown) => this.logger.error({ err: error }, 'ending expired uploads failed'));

  start(): void {
    this.periodic.start();
  }

  stop(): Promise<void> {
    return this.periodic.stop();
  }

  private async sweep(): Promise<void> {
    const cutoff = new Date(this.clock.now().getTime() - this.ttlMs).toISOString();
    const reason = `no chunk came for ${Math.round(this.ttlMs / 60_000)} minutes, so the upload expired`;
    const seen = new Set<string>();
    for (;;) {
      const expired = await this.store.list<AssetUsageItemDocument>(ASSET_USAGE_ITEMS, {
        filter: { type: 'condition', field: 'pendingSince', operator: 'lte', value: cutoff },
        limit: BATCH,
      });
      // Uploads ended here but not projected yet come back: they are not asked twice.
      const fresh = expired.filter((item) => !seen.has(item.id));
      if (fresh.length === 0) return;
      for (const { id, workspaceId, assetId, pendingFileUploadId } of fresh) {
        seen.add(id);
        if (!pendingFileUploadId) continue;
        // One that finished or was deleted meanwhile is refused by the decider and left as it is.
        await this.commands.expireUpload(workspaceId, assetId, pendingFileUploadId, reason).catch((error: unknown) => this.logger.warn({ err: error, workspaceId, assetId }, 'an expired upload could not be ended'));
      }
      this.logger.info({ uploads: fresh.length }, 'unfinished uploads past their TTL ended and their chunks removed');
    }
  }
}
