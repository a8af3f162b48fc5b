import { unrecorded } from '../src/domain/errors';
import { assetAccessStream, sharedAssetDownloaded, webhookSecretAccessStream, type webhookSecretsRead } from '../src/domain/audit/read-events';
import { MAX_SHOWN_LIST } from '../src/domain/audit/summary';
import type { z } from 'zod';
import { type CommandContext, type CommandRunner, type DomainEvent, ReadModelsBehindError } from './aggregate';

/**
 * How a read waits for its audit record. `required`: the record is appended before the
 * answer goes out, and a read whose record cannot be appended is refused (503), never served
 * unrecorded. `best-effort`: the answer does not wait for the append (it joins the store's
 * group commit in the background) and a failed append is logged; the read costs no more.
 */
export type ReadAuditMode = 'required' | 'best-effort';

export interface RecordOptions {
  /**
   * The record feeds a read model the next attempt reads (a wrong guess, counted towards the
   * attempt limits): it is always awaited, read models included, in either mode.
   */
  readonly countsTowardLimits?: boolean;
}

/** Appends the audit records of reads (decrypts, checks, shared-access downloads, webhook secrets). */
export class ReadRecords {
  constructor(
    private readonly runner: CommandRunner,
    private readonly mode: ReadAuditMode,
    private readonly onUnrecorded: (error: unknown) => void,
  ) {}

  sharedAssetDownloaded(data: z.infer<typeof sharedAssetDownloaded>['data'], context: CommandContext): Promise<void> {
    return this.record(assetAccessStream(data.workspaceId, data.assetId), [{ type: 'SharedAssetDownloaded', data }], context);
  }

  /** The readers of webhook secrets, one event per MAX_SHOWN_LIST webhooks (the audit feed shows lists up to that long); none for none. */
  async webhookSecretsRead(workspaceId: string, webhookIds: readonly string[], context: CommandContext): Promise<void> {
    const events: z.infer<typeof webhookSecretsRead>[] = [];
    for (let start = 0; start < webhookIds.length; start += MAX_SHOWN_LIST) {
      events.push({ type: 'WebhookSecretsRead', data: { workspaceId, webhookIds: webhookIds.slice(start, start + MAX_SHOWN_LIST) } });
    }
    if (events.length > 0) await this.record(webhookSecretAccessStream(workspaceId), events, context);
  }

  async record(stream: string, events: readonly DomainEvent[], context: CommandContext, options: RecordOptions = {}): Promise<void> {
    const counted = options.countsTowardLimits === true;
    const append = this.runner.record(stream, events, context, { waitForReadModels: counted });
    if (this.mode === 'best-effort' && !counted) {
      append.catch(this.onUnrecorded);
      return;
    }
    try {
      await append;
    } catch (error) {
      // Recorded, but not counted yet by the read model the next attempt reads: refused all the same, as what it is.
      if (error instanceof ReadModelsBehindError) throw error;
      throw unrecorded('this read could not be recorded in the audit trail, so it was refused; retry shortly', error);
    }
  }
}
