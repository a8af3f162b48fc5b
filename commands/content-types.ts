import { randomUUID } from 'node:crypto';
import { type ActionDefinition, type ContentTypeDefinition, HIDDEN_HEADER_VALUE } from '../src/domain/content-type/definition';
import type { ContentTypeState } from '../src/domain/content-type/decider';
import { contentTypeStream } from '../src/domain/content-type/events';
import { type FieldProblem, invalid, invalidFields } from '../src/domain/errors';
import type { QueryIndex } from '../src/domain/content-type/query-indexes';
import { headerValueProblem } from '../src/domain/outbound-request';
import { contentTypeAggregate } from './aggregates';
import type { PatternThread } from '../infra/regex/pattern-thread';
import { checkTypeChange, type StoredPage, type TypeChangeReport } from './content-type-changes';
import type { CommandContext, CommandRunner } from './aggregate';
import { ownValue } from '../src/domain/own-value';
import { measureQuota, type QuotaCounter } from './workspace-quota';

/**
 * What saving and deleting a type asks the read side, as current as the last acknowledged write:
 * a type created or deleted in the same instant can slip through (docs/architecture.md).
 */
export interface ContentTypeReadSide {
  /** How many content items a type still has; read from the content read model. */
  countItems(workspaceId: string, contentTypeKey: string): Promise<number>;
  /** Whether the workspace has a content type of this key. */
  typeExists(workspaceId: string, contentTypeKey: string): Promise<boolean>;
  storedPage: StoredPage;
}

type StoredContentType = Extract<ContentTypeState, { status: 'active' }>;

/** Seals and opens values under a workspace's data key. */
export interface HeaderCipher {
  encrypt(workspaceId: string, plaintext: string): Promise<string>;
  decrypt(workspaceId: string, ciphertext: string): Promise<string>;
}

export class ContentTypeCommands {
  constructor(
    private readonly runner: CommandRunner,
    private readonly readSide: ContentTypeReadSide,
    private readonly cipher: HeaderCipher,
    /** Content types per workspace (CONTENT_TYPES_PER_WORKSPACE), counted in the content_types read model. */
    private readonly typeQuota: QuotaCounter,
    private readonly patterns: PatternThread,
  ) {}

  /**
   * What saving `definition` would do to the type's stored items (a dry run: nothing is saved),
   * after the checks of a save that do not need the items (a 400 as save answers it).
   */
  async checkChange(workspaceId: string, definition: ContentTypeDefinition): Promise<TypeChangeReport> {
    await this.checkRelationTargets(workspaceId, definition);
    return this.storedItemsReport(workspaceId, definition);
  }

  /** What saving `definition` would do to the type's stored items: the part of checkChange a schema apply asks for (its own plan checks the rest). */
  async storedItemsReport(workspaceId: string, definition: ContentTypeDefinition): Promise<TypeChangeReport> {
    const current = await this.runner.load(contentTypeAggregate, contentTypeStream(workspaceId, definition.key));
    return checkTypeChange(this.readSide.storedPage, this.patterns, workspaceId, current.status === 'active' ? current.definition : null, definition);
  }

  /**
   * Action headers are sealed before they enter the log; the definition keeps their names with
   * HIDDEN_HEADER_VALUE. A header sent as HIDDEN_HEADER_VALUE keeps the value stored before, so
   * a client can PUT back what it read. `newId` is the type's id if the save creates it (a schema
   * apply keeps the id of the environment it came from). What the save does to stored items and
   * whether relation targets exist are checked before, by checkChange (a schema apply saves types
   * that name each other, in dependency order, so it checks its targets in its plan).
   */
  async save(workspaceId: string, definition: ContentTypeDefinition, context: CommandContext, newId: string = randomUUID()): Promise<void> {
    const stream = contentTypeStream(workspaceId, definition.key);
    const current = await this.runner.load(contentTypeAggregate, stream);
    const stored = current.status === 'active' ? current : null;
    const sealedActionHeaders: Record<string, string> = {};
    for (const [index, action] of definition.actions.entries()) {
      const headers = await this.resolveHeaders(workspaceId, action, index, stored);
      if (Object.keys(headers).length > 0) sealedActionHeaders[action.id] = await this.cipher.encrypt(workspaceId, JSON.stringify(headers));
    }
    const hidden = {
      ...definition,
      actions: definition.actions.map((action) => ({ ...action, headers: Object.fromEntries(Object.keys(action.headers).map((name) => [name, HIDDEN_HEADER_VALUE])) })),
    };
    const quota = await measureQuota(this.typeQuota, workspaceId);
    await this.runner.run(contentTypeAggregate, stream, { type: 'SaveContentType', workspaceId, newId, definition: hidden, sealedActionHeaders, quota }, context);
  }

  /** The header values each action of the type keeps, by action id, with the url they are kept for (empty when the type does not exist). */
  async storedActionHeaders(workspaceId: string, key: string): Promise<Map<string, { readonly url: string; readonly headers: Record<string, string> }>> {
    const state = await this.runner.load(contentTypeAggregate, contentTypeStream(workspaceId, key));
    if (state.status !== 'active') return new Map();
    const entries = await Promise.all(state.definition.actions.map(async (action) => [action.id, { url: action.url, headers: await this.storedHeaders(workspaceId, action.id, state) }] as const));
    return new Map(entries);
  }

  /**
   * A Relation field's relationContentType must name a type of the workspace (or the type itself):
   * saves of a value would all fail otherwise.
   */
  private async checkRelationTargets(workspaceId: string, definition: ContentTypeDefinition): Promise<void> {
    const targets = new Set(definition.fields.flatMap((field) => (field.relationContentType === null || field.relationContentType === definition.key ? [] : [field.relationContentType])));
    const missing = new Set<string>();
    for (const target of targets) if (!(await this.readSide.typeExists(workspaceId, target))) missing.add(target);
    const problems: FieldProblem[] = definition.fields.flatMap((field, index) =>
      field.relationContentType !== null && missing.has(field.relationContentType)
        ? [{ field: `fields.${index}.relationContentType`, message: `names no content type of this workspace: ${field.relationContentType}` }]
        : [],
    );
    if (problems.length > 0) throw invalidFields(problems);
  }

  /**
   * The item count comes from the read model, which is current up to the last
   * acknowledged write; an item created in the same instant as the delete can slip
   * through (documented in docs/architecture.md).
   */
  async delete(workspaceId: string, key: string, context: CommandContext): Promise<void> {
    const itemCount = await this.readSide.countItems(workspaceId, key);
    await this.runner.run(contentTypeAggregate, contentTypeStream(workspaceId, key), { type: 'DeleteContentType', workspaceId, key, itemCount }, context);
  }

  /**
   * Replaces the operator's query indexes of the type (declared and pinned) and, when given, the
   * indexes the advisor may not declare; advised ones stay unless forbidden or taken over. The
   * typed table gets them without a rebuild (projections/content-tables/query-indexes.ts).
   */
  async declareQueryIndexes(workspaceId: string, key: string, indexes: QueryIndex[], forbidden: QueryIndex[] | undefined, context: CommandContext): Promise<void> {
    await this.runner.run(contentTypeAggregate, contentTypeStream(workspaceId, key), { type: 'DeclareQueryIndexes', workspaceId, key, indexes, ...(forbidden ? { forbidden } : {}) }, context);
  }

  /** The advisor's declaration of an index the workload needs (actor system); refused (409) when forbidden or over `budget`. */
  async adviseQueryIndex(workspaceId: string, key: string, advice: { index: QueryIndex; budget: number; at: Date; reason: string }, context: CommandContext): Promise<void> {
    const command = { type: 'AdviseQueryIndex' as const, workspaceId, key, index: advice.index, budget: advice.budget, at: advice.at.toISOString(), reason: advice.reason };
    await this.runner.run(contentTypeAggregate, contentTypeStream(workspaceId, key), command, context);
  }

  /** The advisor drops one of its own indexes; an operator's are left alone. */
  async retireAdvisedIndex(workspaceId: string, key: string, index: QueryIndex, reason: string, context: CommandContext): Promise<void> {
    await this.runner.run(contentTypeAggregate, contentTypeStream(workspaceId, key), { type: 'RetireAdvisedIndex', workspaceId, key, index, reason }, context);
  }

  /**
   * A hidden value is kept only for an action whose url is unchanged: a stored secret must not
   * follow the action to a new url (whoever moves it there must know the value).
   */
  private async resolveHeaders(
    workspaceId: string,
    action: ActionDefinition,
    index: number,
    stored: StoredContentType | null,
  ): Promise<Record<string, string>> {
    const hiddenNames = Object.keys(action.headers).filter((name) => action.headers[name] === HIDDEN_HEADER_VALUE);
    if (hiddenNames.length === 0) return action.headers;
    const storedAction = stored?.definition.actions.find((candidate) => candidate.id === action.id);
    const previous = storedAction?.url === action.url ? await this.storedHeaders(workspaceId, action.id, stored) : {};
    const resolved: Record<string, string> = { ...action.headers };
    for (const name of hiddenNames) {
      const field = `actions.${index}.headers.${name}`;
      const value = ownValue(previous, name);
      if (value === undefined) {
        const why = storedAction && storedAction.url !== action.url ? `the url of action ${action.id} changed, so its value must be given again` : `action ${action.id} has no stored value for it`;
        throw invalid(`${HIDDEN_HEADER_VALUE} keeps a stored value, and ${why}`, field);
      }
      // A value stored before header values were checked is not carried into a new save.
      const problem = headerValueProblem(value);
      if (problem) throw invalid(`the stored value ${problem}; give it again`, field);
      resolved[name] = value;
    }
    return resolved;
  }

  /** The action's headers as saved before: sealed, or in clear in definitions saved before headers were sealed. */
  private async storedHeaders(
    workspaceId: string,
    actionId: string,
    stored: StoredContentType | null,
  ): Promise<Record<string, string>> {
    if (!stored) return {};
    const sealed = ownValue(stored.sealedActionHeaders, actionId);
    if (sealed) return JSON.parse(await this.cipher.decrypt(workspaceId, sealed)) as Record<string, string>;
    const headers = stored.definition.actions.find((action) => action.id === actionId)?.headers ?? {};
    return Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== HIDDEN_HEADER_VALUE));
  }
}
