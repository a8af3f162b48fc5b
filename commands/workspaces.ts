import { randomUUID } from 'node:crypto';
import type { Clock } from '../infra/clock';
import type { WorkspaceCipher } from '../infra/crypto/envelope';
import type { WorkspacePolicy } from '../src/domain/api-key/events';
import { apiKeyStream } from '../src/domain/api-key/events';
import { workspaceStream } from '../src/domain/workspace/events';
import { issueCredential } from '../infra/crypto/credentials';
import { notFound } from '../src/domain/errors';
import { apiKeyAggregate, workspaceAggregate } from './aggregates';
import type { CommandContext, CommandRunner } from './aggregate';

export interface CreateWorkspaceInput {
  readonly name: string;
  readonly ownerUserId?: string | null;
  readonly planType?: string | null;
  readonly planRecords?: number | null;
  readonly expirationDate?: string | null;
}

export interface IssuedApiKey {
  readonly id: string;
  readonly key: string;
  readonly policies: WorkspacePolicy[];
}

export class WorkspaceCommands {
  constructor(
    private readonly runner: CommandRunner,
    private readonly clock: Clock,
    private readonly cipher: WorkspaceCipher,
  ) {}

  async create(input: CreateWorkspaceInput, context: CommandContext, workspaceId: string = randomUUID()): Promise<string> {
    await this.runner.run(workspaceAggregate, workspaceStream(workspaceId), {
      type: 'CreateWorkspace',
      data: {
        workspaceId,
        name: input.name,
        ownerUserId: input.ownerUserId ?? null,
        planType: input.planType ?? null,
        planRecords: input.planRecords ?? null,
        activationDate: this.clock.now().toISOString(),
        expirationDate: input.expirationDate ?? null,
      },
    }, { ...context, workspaceId });
    return workspaceId;
  }

  /** The key is returned once and never stored: only its hash enters the log. */
  async issueApiKey(workspaceId: string, name: string | null, policies: WorkspacePolicy[], context: CommandContext): Promise<IssuedApiKey> {
    await this.assertExists(workspaceId);
    const credential = issueCredential('cms');
    await this.runner.run(apiKeyAggregate, apiKeyStream(credential.id), {
      type: 'IssueApiKey',
      data: { keyId: credential.id, workspaceId, name, policies, secretHash: credential.secretHash },
    }, { ...context, workspaceId });
    return { id: credential.id, key: credential.key, policies };
  }

  async revokeApiKey(workspaceId: string, keyId: string, context: CommandContext): Promise<void> {
    await this.runner.run(apiKeyAggregate, apiKeyStream(keyId), { type: 'RevokeApiKey', data: { keyId, workspaceId } }, { ...context, workspaceId });
  }

  async setTotpSecret(workspaceId: string, secret: string, context: CommandContext): Promise<void> {
    await this.assertExists(workspaceId);
    const encryptedSecret = await this.cipher.encrypt(workspaceId, secret);
    await this.runner.run(workspaceAggregate, workspaceStream(workspaceId), { type: 'SetTotpSecret', data: { workspaceId, encryptedSecret } }, { ...context, workspaceId });
  }

  async setSchedulerSigningSecret(workspaceId: string, secret: string, context: CommandContext): Promise<void> {
    await this.assertExists(workspaceId);
    const encryptedSecret = await this.cipher.encrypt(workspaceId, secret);
    await this.runner.run(
      workspaceAggregate,
      workspaceStream(workspaceId),
      { type: 'SetSchedulerSigningSecret', data: { workspaceId, encryptedSecret } },
      { ...context, workspaceId },
    );
  }

  /** Signs new image URLs with the next key; the key before is still accepted for `graceSeconds` (0: no longer). */
  async rotateImageSigningKey(workspaceId: string, graceSeconds: number, context: CommandContext): Promise<{ generation: number; previousKeyValidUntil: string }> {
    const previousKeyValidUntil = new Date(this.clock.now().getTime() + graceSeconds * 1000).toISOString();
    const { state } = await this.runner.run(
      workspaceAggregate,
      workspaceStream(workspaceId),
      { type: 'RotateImageSigningKey', data: { workspaceId, previousKeyValidUntil } },
      { ...context, workspaceId },
    );
    return { generation: state.imageSigningGeneration, previousKeyValidUntil };
  }

  private async assertExists(workspaceId: string): Promise<void> {
    const state = await this.runner.load(workspaceAggregate, workspaceStream(workspaceId));
    if (!state.exists) throw notFound(`workspace ${workspaceId} does not exist`);
  }
}
