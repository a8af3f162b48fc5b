import { randomUUID } from 'node:crypto';
import type { WorkspaceCipher } from '../infra/crypto/envelope';
import type { ContentTypeDocument } from '../projections/read-models/content-types';
import { contentDecider, type ContentCommand } from '../src/domain/content/decider';
import { type ContentBody, contentEvent, contentStream } from '../src/domain/content/events';
import { validateContent, type ContentInput } from '../src/domain/content/values';
import { invalid, notFound } from '../src/domain/errors';
import type { CommandContext, CommandRunner } from './aggregate';

export const contentAggregate = { decider: contentDecider, parse: contentEvent.parse };

/** What the content commands need to know of the read side: the type's schema and the workspace's locales. */
export interface ContentSchemaSource {
  contentType(workspaceId: string, key: string): Promise<ContentTypeDocument | null>;
  /** lower-case code → stored code */
  localeCodes(workspaceId: string): Promise<ReadonlyMap<string, string>>;
}

export interface SaveContentInput extends ContentInput {
  /** Absent or null creates a new item. */
  readonly id?: string | null;
}

export interface SavedContent {
  readonly itemId: string;
  readonly content: ContentBody;
}

type ItemCommand = Exclude<ContentCommand['type'], 'SaveDraft' | 'SetEncryptedFields'>;

export class ContentCommands {
  constructor(
    private readonly runner: CommandRunner,
    private readonly schema: ContentSchemaSource,
    private readonly cipher: WorkspaceCipher,
  ) {}

  /**
   * Saves the draft (and publishes it in the same decision when `publish`). Omitted
   * translations keep the item's current ones (decided on the stream), so a V1 write
   * (fields only) does not wipe translations written through V2.
   */
  /** Returns the item id and the content as saved (translations included when they were kept). */
  async save(workspaceId: string, contentType: string, input: SaveContentInput, publish: boolean, context: CommandContext): Promise<SavedContent> {
    const type = await this.requireType(workspaceId, contentType);
    const create = input.id === undefined || input.id === null || input.id === '';
    const itemId = create ? randomUUID() : input.id!;
    const translations = input.translations ?? null;
    const locales = translations && Object.keys(translations).length > 0 ? await this.schema.localeCodes(workspaceId) : new Map<string, string>();
    const body = validateContent({ fields: input.fields, translations: translations ?? {} }, type, locales);
    const command = { type: 'SaveDraft' as const, workspaceId, itemId, contentType, fields: body.fields, translations: translations === null ? null : body.translations, create, publish };
    const stream = contentStream(workspaceId, itemId);
    const { state } = create ? await this.runner.create(contentAggregate, stream, command, context) : await this.runner.run(contentAggregate, stream, command, context);
    return { itemId, content: state.draft! };
  }

  async change(type: ItemCommand, workspaceId: string, contentType: string, itemId: string, context: CommandContext): Promise<void> {
    await this.runner.run(contentAggregate, contentStream(workspaceId, itemId), { type, workspaceId, itemId, contentType }, context);
  }

  /** Stores the values sealed under the workspace's data key; only ciphertext enters the log. */
  async setEncrypted(workspaceId: string, contentType: string, itemId: string, plaintexts: Record<string, string>, context: CommandContext): Promise<void> {
    const type = await this.requireType(workspaceId, contentType);
    for (const key of Object.keys(plaintexts)) {
      const field = type.fields.find((candidate) => candidate.key === key);
      if (!field || field.type !== 'Encrypted') throw invalid(`${contentType} has no encrypted field ${key}`, `encryptFields.${key}`);
    }
    const ciphertexts: Record<string, string> = {};
    for (const [key, plaintext] of Object.entries(plaintexts)) ciphertexts[key] = await this.cipher.encrypt(workspaceId, plaintext);
    await this.runner.run(contentAggregate, contentStream(workspaceId, itemId), { type: 'SetEncryptedFields', workspaceId, itemId, contentType, ciphertexts }, context);
  }

  private async requireType(workspaceId: string, key: string): Promise<ContentTypeDocument> {
    const type = await this.schema.contentType(workspaceId, key);
    if (!type) throw notFound(`content type ${key} does not exist`);
    return type;
  }
}
