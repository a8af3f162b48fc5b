import { issueCredential } from '../infra/crypto/credentials';
import { appStream } from '../src/domain/app/events';
import { workspaceStream } from '../src/domain/workspace/events';
import { notFound } from '../src/domain/errors';
import { appAggregate, workspaceAggregate } from './aggregates';
import type { CommandContext, CommandRunner } from './aggregate';

export interface RegisterAppInput {
  readonly name: string;
  readonly parameters: Record<string, string>;
  readonly fieldMapping: Record<string, string>;
}

export interface InstallAppInput {
  readonly userId: string;
  readonly parameters: Record<string, string>;
  readonly fieldMapping: Record<string, string>;
}

export class AppCommands {
  constructor(private readonly runner: CommandRunner) {}

  /** Returns the app's credential once; only its hash is stored. */
  async register(input: RegisterAppInput, context: CommandContext): Promise<{ id: string; key: string }> {
    const credential = issueCredential('app');
    await this.runner.run(appAggregate, appStream(credential.id), {
      type: 'RegisterApp',
      data: { appId: credential.id, ...input, secretHash: credential.secretHash },
    }, context);
    return { id: credential.id, key: credential.key };
  }

  async install(appId: string, workspaceId: string, input: InstallAppInput, context: CommandContext): Promise<void> {
    const workspace = await this.runner.load(workspaceAggregate, workspaceStream(workspaceId));
    if (!workspace.exists) throw notFound(`workspace ${workspaceId} does not exist`);
    await this.runner.run(appAggregate, appStream(appId), { type: 'InstallApp', data: { appId, workspaceId, ...input } }, { ...context, workspaceId });
  }

  async mergeParameters(appId: string, parameters: Record<string, string>, context: CommandContext): Promise<void> {
    await this.runner.run(appAggregate, appStream(appId), { type: 'MergeAppParameters', data: { appId, parameters } }, context);
  }
}
