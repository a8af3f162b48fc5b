import type { WorkspaceCipher } from '../infra/crypto/envelope';
import { conflict } from '../src/domain/errors';
import { type WorkspaceKeyEvent, workspaceKeyStream } from '../src/domain/workspace/key-events';
import type { CommandContext, CommandRunner } from './aggregate';

/** An operator's shred of a workspace's data key, and the explicit new key after one (docs/operations.md). */
export class WorkspaceKeyCommands {
  constructor(
    private readonly runner: CommandRunner,
    private readonly cipher: WorkspaceCipher,
  ) {}

  /** Records the shred, then deletes the key: a failed delete is retried by shredding again. */
  async shred(workspaceId: string, reason: string, context: CommandContext): Promise<void> {
    await this.record({ type: 'WorkspaceDataKeyShredded', data: { workspaceId, reason } }, context);
    await this.cipher.shred(workspaceId);
  }

  async createAfterShred(workspaceId: string, reason: string, context: CommandContext): Promise<void> {
    if (!(await this.cipher.createAfterShred(workspaceId))) throw conflict(`workspace ${workspaceId} has a data key; shred it first to replace it`);
    await this.record({ type: 'WorkspaceDataKeyCreated', data: { workspaceId, reason } }, context);
  }

  private record(event: WorkspaceKeyEvent, context: CommandContext): Promise<void> {
    return this.runner.record(workspaceKeyStream(event.data.workspaceId), [event], { ...context, workspaceId: event.data.workspaceId });
  }
}
