import { unrecorded } from '../src/domain/errors';
import { assetAccessStream, sharedAssetDownloaded } from '../src/domain/audit/read-events';
import type { z } from 'zod';
import type { CommandContext, CommandRunner, DomainEvent } from './aggregate';

/**
 * Appends the audit records of reads before their answer goes out. The append is the only
 * cost on the read path (it joins the store's group commit; nothing waits for read models).
 * A read whose record cannot be appended is refused (503), never served unrecorded.
 */
export class ReadRecords {
  constructor(private readonly runner: CommandRunner) {}

  sharedAssetDownloaded(data: z.infer<typeof sharedAssetDownloaded>['data'], context: CommandContext): Promise<void> {
    return this.record(assetAccessStream(data.workspaceId, data.assetId), { type: 'SharedAssetDownloaded', data }, context);
  }

  private async record(stream: string, event: DomainEvent, context: CommandContext): Promise<void> {
    await recordedOrRefused(this.runner.record(stream, [event], context, { waitForReadModels: false }));
  }
}

/** The read goes ahead once `append` has succeeded; its failure refuses the read. */
export async function recordedOrRefused(append: Promise<void>): Promise<void> {
  try {
    await append;
  } catch (error) {
    throw unrecorded('this read could not be recorded in the audit trail, so it was refused; retry shortly', error);
  }
}
