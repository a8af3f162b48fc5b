import { randomUUID } from 'node:crypto';
import type { ContentTypeDefinition } from '../src/domain/content-type/definition';
import { contentTypeStream } from '../src/domain/content-type/events';
import { contentTypeAggregate } from './aggregates';
import type { CommandContext, CommandRunner } from './aggregate';

/** How many content items a type still has; read from the content read model. */
export type ContentItemCounter = (workspaceId: string, contentTypeKey: string) => Promise<number>;

export class ContentTypeCommands {
  constructor(
    private readonly runner: CommandRunner,
    private readonly countItems: ContentItemCounter,
  ) {}

  async save(workspaceId: string, definition: ContentTypeDefinition, context: CommandContext): Promise<void> {
    await this.runner.run(
      contentTypeAggregate,
      contentTypeStream(workspaceId, definition.key),
      { type: 'SaveContentType', workspaceId, newId: randomUUID(), definition },
      context,
    );
  }

  /**
   * The item count comes from the read model, which is current up to the last
   * acknowledged write; an item created in the same instant as the delete can slip
   * through (documented in docs/architecture.md).
   */
  async delete(workspaceId: string, key: string, context: CommandContext): Promise<void> {
    const itemCount = await this.countItems(workspaceId, key);
    await this.runner.run(contentTypeAggregate, contentTypeStream(workspaceId, key), { type: 'DeleteContentType', workspaceId, key, itemCount }, context);
  }
}
