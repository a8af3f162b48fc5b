import { localesStream } from '../src/domain/locale/events';
import { localesAggregate } from './aggregates';
import type { CommandContext, CommandRunner } from './aggregate';

export interface SaveLocaleInput {
  readonly code: string;
  readonly name?: string | null;
  readonly fallbackCode?: string | null;
  readonly default?: boolean;
}

export class LocaleCommands {
  constructor(private readonly runner: CommandRunner) {}

  async save(workspaceId: string, input: SaveLocaleInput, context: CommandContext): Promise<void> {
    await this.runner.run(localesAggregate, localesStream(workspaceId), {
      type: 'SaveLocale',
      workspaceId,
      code: input.code,
      name: input.name,
      fallbackCode: input.fallbackCode,
      makeDefault: input.default,
    }, context);
  }

  async delete(workspaceId: string, code: string, context: CommandContext): Promise<void> {
    await this.runner.run(localesAggregate, localesStream(workspaceId), { type: 'DeleteLocale', workspaceId, code }, context);
  }
}
