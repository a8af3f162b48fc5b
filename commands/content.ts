import { randomUUID } from 'node:crypto';
import type { WorkspaceCipher } from '../infra/crypto/envelope';
import type { ItemSealer } from '../infra/crypto/item-sealer';
import type { ContentTypeDocument } from '../projections/read-models/content-types';
import { contentDecider, type ContentCommand, type ContentState } from '../src/domain/content/decider';
import { type ContentBody, contentEvent, type ContentEvent, contentStream } from '../src/domain/content/events';
import { checkContent, type ContentInput, missingTargets, type Reference } from '../src/domain/content/values';
import { conflict, DomainError, type FieldProblem, gone, invalidFields, notFound } from '../src/domain/errors';
import { ownValue } from '../src/domain/own-value';
import type { Stage } from '../projections/read-models/content-items';
import type { UniqueWriteLock } from './unique-write-lock';
import type { PatternThread } from '../infra/regex/pattern-thread';
import { patternCases } from '../src/domain/content/pattern-cases';
import { applyMergePatch } from '../src/domain/json-merge-patch';
import type { Position } from '../infra/eventstore/port';
import type { Aggregate, CommandContext, CommandRunner, RunOptions } from './aggregate';
import { sealItemValues } from './content-sealing';

export const contentAggregate: Aggregate<ContentCommand, ContentEvent, ContentState> = { decider: contentDecider, parse: contentEvent.parse, evolvesOnHeaders: true };

/**
 * What the content commands ask the read side: the type's schema, the workspace's locales, and
 * whether the targets of Relation and Media values exist. The answers are as current as the
 * last acknowledged write (read-your-writes), which makes the target check best effort: a
 * target deleted in the same instant can slip through, and one deleted later resolves to null
 * on read (docs/architecture.md).
 */
export interface ContentReadSide {
  contentType(workspaceId: string, key: string): Promise<ContentTypeDocument | null>;
  /** lower-case code → stored code */
  localeCodes(workspaceId: string): Promise<ReadonlyMap<string, string>>;
  /** The items among `itemIds` that exist in the workspace (draft or published) → their content type. */
  itemTypes(workspaceId: string, itemIds: readonly string[]): Promise<ReadonlyMap<string, string>>;
  /** The assets among `assetIds` that exist in the workspace. */
  existingAssets(workspaceId: string, assetIds: readonly string[]): Promise<ReadonlySet<string>>;
  /** An item of the type, other than `exceptItemId`, whose field `fieldKey` holds `value` in `stage`, or null. */
  holderOf(workspaceId: string, type: ContentTypeDocument, stage: Stage, fieldKey: string, value: unknown, exceptItemId: string): Promise<string | null>;
}

/** The stages a write puts content into, whose unique values it must not share with another item. */
type Stages = readonly Stage[];

export interface SaveContentInput extends ContentInput {
  /** Absent or null creates a new item. */
  readonly id?: string | null;
}

/** A JSON Merge Patch (RFC 7396) of an item's V2 representation: its `fields` and `translations`. */
export interface ContentPatch {
  readonly fields?: Record<string, unknown> | null;
  readonly translations?: Record<string, unknown> | null;
}

export interface SavedContent {
  readonly itemId: string;
  readonly content: ContentBody;
}

export interface RestoredContent {
  readonly content: ContentBody;
  /** The version whose state is restored, and which of its stages. */
  readonly fromVersion: number;
  readonly stage: 'draft' | 'published';
  readonly reason: string | null;
}

export interface RestoreGuard {
  /** Also bring back an item deleted since (bulk undo). */
  readonly undelete?: boolean;
  /** Refuse (409) when the item's version is no longer this one. */
  readonly basedOnVersion?: number;
  /** Also put the published stage back (bulk undo): publish this content, or null to unpublish. */
  readonly published?: ContentBody | null;
}

type ItemCommand = Exclude<ContentCommand['type'], 'SaveDraft' | 'SetEncryptedFields' | 'Erase' | 'Restore'>;

/** How often a patch is merged again when the item changed between reading and appending. */
const PATCH_ATTEMPTS = 3;

export class ContentCommands {
  constructor(
    private readonly runner: CommandRunner,
    private readonly readSide: ContentReadSide,
    private readonly cipher: WorkspaceCipher,
    private readonly sealer: ItemSealer,
    private readonly uniqueWrites: UniqueWriteLock,
    private readonly patterns: PatternThread,
  ) {}

  /**
   * Saves the draft (and publishes it in the same decision when `publish`). The fields given
   * replace the whole field set. Omitted translations keep the item's current ones (decided on
   * the stream), so a V1 write (fields only) does not wipe translations written through V2.
   * Returns the item id and the content as saved (translations included when they were kept).
   */
  async save(workspaceId: string, contentType: string, input: SaveContentInput, publish: boolean, context: CommandContext): Promise<SavedContent> {
    const type = await this.requireType(workspaceId, contentType);
    const create = input.id === undefined || input.id === null || input.id === '';
    const itemId = create ? randomUUID() : input.id!;
    const translations = input.translations ?? null;
    return this.unique(workspaceId, type, async () => {
      const written = { itemId, stages: stagesOf(publish), create };
      const content = await this.check(workspaceId, type, { fields: input.fields, translations: translations ?? {} }, written, () =>
        create ? Promise.resolve(null) : this.runner.load(contentAggregate, contentStream(workspaceId, itemId)),
      );
      const command = { type: 'SaveDraft' as const, workspaceId, itemId, contentType, fields: content.fields, translations: translations === null ? null : content.translations, create, publish };
      const stream = contentStream(workspaceId, itemId);
      const aggregate = this.aggregateFor(type);
      const { state } = create ? await this.runner.create(aggregate, stream, command, context) : await this.runner.run(aggregate, stream, command, context);
      return { itemId, content: state.draft! };
    });
  }

  /**
   * Merges the patch into the draft (`stage` draft) or the published version (`stage`
   * published, which then saves and publishes, as a PUT on that path does) and saves the
   * result as a ContentDraftSaved, like any save. The merge is decided against the version it
   * read: if the item changed in between, it is merged again.
   */
  async patch(workspaceId: string, contentType: string, itemId: string, patch: ContentPatch, stage: 'draft' | 'published', context: CommandContext): Promise<SavedContent> {
    const type = await this.requireType(workspaceId, contentType);
    const stream = contentStream(workspaceId, itemId);
    for (let attempt = 1; ; attempt++) {
      const state = await this.runner.load(contentAggregate, stream);
      if (state.erased) throw gone(`content item ${itemId} was erased`);
      if (!state.exists || state.contentType !== contentType) throw notFound(`content item ${itemId} does not exist in ${contentType}`);
      const base = stage === 'draft' ? state.draft : state.published;
      if (!base) throw notFound(`content item ${itemId} has no ${stage === 'draft' ? 'draft' : 'published version'}`);
      const merged = applyMergePatch(base, patch) as Partial<ContentBody>;
      const input = { fields: merged.fields ?? {}, translations: merged.translations ?? {} };
      const command = { type: 'SaveDraft' as const, workspaceId, itemId, contentType, create: false, publish: stage === 'published', basedOnVersion: state.version };
      try {
        return await this.unique(workspaceId, type, async () => {
          const content = await this.check(workspaceId, type, input, { itemId, stages: stagesOf(command.publish) }, () => Promise.resolve(state));
          const saved = await this.runner.run(this.aggregateFor(type), stream, { ...command, ...content }, context);
          return { itemId, content: saved.state.draft! };
        });
      } catch (error) {
        if (!(error instanceof DomainError && error.kind === 'conflict') || attempt >= PATCH_ATTEMPTS) throw error;
      }
    }
  }

  /** A publish puts the draft's values into the published stage: its unique values are checked there first. */
  async change(type: ItemCommand, workspaceId: string, contentType: string, itemId: string, context: CommandContext): Promise<void> {
    const definition = await this.readSide.contentType(workspaceId, contentType);
    const stream = contentStream(workspaceId, itemId);
    const run = () => this.runner.run(this.aggregateFor(definition), stream, { type, workspaceId, itemId, contentType }, context);
    if (type !== 'Publish' || !definition) return void (await run());
    await this.unique(workspaceId, definition, async () => {
      const draft = (await this.runner.load(contentAggregate, stream)).draft;
      const problems = draft ? await this.duplicates(workspaceId, definition, draft, { itemId, stages: ['published'] }) : [];
      if (problems.length > 0) throw invalidFields(problems);
      await run();
    });
  }

  /**
   * Erases an item of a personal-data content type: records who erased it, when and why
   * (no values), then shreds the item's key, which leaves every value of it in the log
   * unreadable. Erasing again only shreds again, so a shred that failed can be retried.
   */
  async erase(workspaceId: string, contentType: string, itemId: string, reason: string, context: CommandContext): Promise<void> {
    const type = await this.requireType(workspaceId, contentType);
    // A type whose flag was turned off keeps items sealed while it was on: those can still be erased.
    if (!type.personalData && !(await this.sealer.hasKey({ workspaceId, itemId }))) {
      throw conflict(`${contentType} is not a personal-data content type: its values are stored in clear and cannot be erased (delete the item instead)`);
    }
    await this.runner.run(contentAggregate, contentStream(workspaceId, itemId), { type: 'Erase', workspaceId, itemId, contentType, reason }, context);
    await this.sealer.shred({ workspaceId, itemId });
  }

  /**
   * Makes an earlier state of the item its draft (a ContentRestored); publishing stays a
   * separate step unless `guard.published` asks for the published stage too (bulk undo). The
   * content is checked against the type as it is now, like any save (the published content too).
   */
  async restore(
    workspaceId: string,
    contentType: string,
    itemId: string,
    restored: RestoredContent,
    context: CommandContext,
    guard: RestoreGuard = {},
    options: RunOptions = {},
  ): Promise<SavedContent & { position: Position | null }> {
    const type = await this.requireType(workspaceId, contentType);
    const stream = contentStream(workspaceId, itemId);
    const current = () => this.runner.load(contentAggregate, stream);
    return this.unique(workspaceId, type, async () => {
      const content = await this.check(workspaceId, type, restored.content, { itemId, stages: ['draft'] }, current);
      const published = guard.published ? await this.check(workspaceId, type, guard.published, { itemId, stages: ['published'] }, current) : guard.published;
      const command = { type: 'Restore' as const, workspaceId, itemId, contentType, ...restored, content, ...guard, published };
      const { state, position } = await this.runner.run(this.aggregateFor(type), stream, command, context, options);
      return { itemId, content: state.draft!, position };
    });
  }

  /** Stores the values sealed under the workspace's data key; only ciphertext enters the log. */
  async setEncrypted(workspaceId: string, contentType: string, itemId: string, plaintexts: Record<string, string>, context: CommandContext): Promise<void> {
    const type = await this.requireType(workspaceId, contentType);
    const problems = Object.keys(plaintexts)
      .filter((key) => !type.fields.some((field) => field.key === key && field.type === 'Encrypted'))
      .map((key) => ({ field: `encryptFields.${key}`, message: `${contentType} has no encrypted field ${key}` }));
    if (problems.length > 0) throw invalidFields(problems);
    const ciphertexts: Record<string, string> = {};
    for (const [key, plaintext] of Object.entries(plaintexts)) ciphertexts[key] = await this.cipher.encrypt(workspaceId, plaintext);
    await this.runner.run(this.aggregateFor(type), contentStream(workspaceId, itemId), { type: 'SetEncryptedFields', workspaceId, itemId, contentType, ciphertexts }, context);
  }

  /**
   * The content in its stored form, or a 400 listing every bad field: values the schema refuses,
   * Relation and Media values whose target does not exist, and values of unique fields another
   * item holds in a stage the write puts them in. A target the item already holds (in its draft
   * or published version) is not checked again, so an item whose related item was deleted later
   * can still be saved.
   */
  private async check(
    workspaceId: string,
    type: ContentTypeDocument,
    input: Required<ContentInput>,
    written: { readonly itemId: string; readonly stages: Stages; readonly create?: boolean },
    current: () => Promise<ContentState | null>,
  ): Promise<ContentBody> {
    const locales = Object.keys(input.translations).length > 0 ? await this.readSide.localeCodes(workspaceId) : new Map<string, string>();
    const [patterns] = await this.patterns.tests([patternCases(input, type.fields)]);
    const checked = checkContent(input, type, locales, written.create, patterns);
    const state = checked.references.length > 0 ? await current() : null;
    const references = checked.references.filter((reference) => !isHeld(reference, state));
    const problems = [...checked.problems, ...(await this.missingTargets(workspaceId, references))];
    const badFields = new Set(problems.map((problem) => problem.field));
    problems.push(...(await this.duplicates(workspaceId, type, checked.content, written)).filter((problem) => !badFields.has(problem.field)));
    if (problems.length > 0) throw invalidFields(problems);
    return checked.content;
  }

  /** The unique fields of `content` whose value another item of the type holds in one of `stages` (as of the last acknowledged write). */
  private async duplicates(workspaceId: string, type: ContentTypeDocument, content: ContentBody, written: { readonly itemId: string; readonly stages: Stages }): Promise<FieldProblem[]> {
    const problems: FieldProblem[] = [];
    for (const field of type.fields.filter((candidate) => candidate.unique)) {
      const value = ownValue(content.fields, field.key);
      if (value === undefined || value === null || value === '') continue;
      for (const stage of written.stages) {
        const holder = await this.readSide.holderOf(workspaceId, type, stage, field.key, value, written.itemId);
        if (holder !== null) {
          problems.push({ field: `fields.${field.key}`, message: `must be unique: item ${holder} holds ${JSON.stringify(value)} in the ${stage} stage` });
          break;
        }
      }
    }
    return problems;
  }

  /** Runs a write of the type's content one at a time with the others that check unique values (when the type has unique fields). */
  private unique<T>(workspaceId: string, type: ContentTypeDocument, write: () => Promise<T>): Promise<T> {
    if (!type.fields.some((field) => field.unique)) return write();
    return this.uniqueWrites.hold(`unique-values:${workspaceId}:${type.key}`, write);
  }

  private async missingTargets(workspaceId: string, references: readonly Reference[]) {
    if (references.length === 0) return [];
    const idsOf = (target: Reference['target']) => [...new Set(references.filter((reference) => reference.target === target).map((reference) => reference.id))];
    const [items, assets] = await Promise.all([this.readSide.itemTypes(workspaceId, idsOf('item')), this.readSide.existingAssets(workspaceId, idsOf('asset'))]);
    return missingTargets(references, items, assets);
  }

  /** Items of personal-data types are stored with their values sealed under the item's key. */
  private aggregateFor(type: ContentTypeDocument | null): Aggregate<ContentCommand, ContentEvent, ContentState> {
    if (!type?.personalData) return contentAggregate;
    return {
      ...contentAggregate,
      encode: (events) => Promise.all(events.map((event) => sealItemValues(this.sealer, event, event.data))),
    };
  }

  private async requireType(workspaceId: string, key: string): Promise<ContentTypeDocument> {
    const type = await this.readSide.contentType(workspaceId, key);
    if (!type) throw notFound(`content type ${key} does not exist`);
    return type;
  }
}

const stagesOf = (publish: boolean): Stages => (publish ? ['draft', 'published'] : ['draft']);

/** True when the item's draft or published version already holds this target at this path. */
function isHeld(reference: Reference, state: ContentState | null): boolean {
  const [root, key = '', code = ''] = reference.field.split('.');
  return [state?.draft, state?.published].some((body) => (root === 'fields' ? body?.fields[key] : body?.translations[key]?.[code]) === reference.id);
}
