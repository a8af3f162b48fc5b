import type { Clock } from '../infra/clock';
import type { ReadStore } from '../infra/readstore/port';
import { ACTION_EXECUTIONS, type ActionExecutionDocument, actionExecutionId } from '../projections/read-models/action-executions';
import { CONTENT_ITEMS, type ContentItemDocument, contentItemId } from '../projections/read-models/content-items';
import type { OperationRef } from '../commands/actions';
import { isExpired } from '../src/domain/action-execution/events';
import type { ActionDefinition } from '../src/domain/content-type/definition';
import { notFound } from '../src/domain/errors';
import { renderText } from '../src/domain/json-template';
import type { ContentTypeQueries } from './content-types';
import { ownValue } from '../src/domain/own-value';

/** The spec's action execution record, as the status endpoint answers it. */
export interface ActionExecutionView {
  readonly operationId: string;
  readonly status: ActionExecutionDocument['status'];
  readonly result: string | null;
  readonly progress: number | null;
  readonly message: string | null;
  readonly error: string | null;
  readonly updatedAt: string;
}

/** An action and the content item it is run for (its draft when there is one, else its published form). */
export interface ActionSubject {
  readonly action: ActionDefinition;
  readonly item: ContentItemDocument;
  /** The action's headers sealed under the workspace's data key; null when it has none sealed (saved before sealing: in `action.headers`). */
  readonly sealedHeaders: string | null;
}

export class ActionQueries {
  constructor(
    private readonly store: ReadStore,
    private readonly contentTypes: ContentTypeQueries,
    private readonly clock: Clock,
  ) {}

  /** 404 when the content type, the action or the item does not exist. */
  async subject(workspaceId: string, contentTypeKey: string, contentId: string, actionId: string): Promise<ActionSubject> {
    const type = await this.contentTypes.get(workspaceId, contentTypeKey);
    if (!type) throw notFound(`content type ${contentTypeKey} does not exist`);
    const action = type.actions.find((candidate) => candidate.id === actionId);
    if (!action) throw notFound(`content type ${contentTypeKey} has no action ${actionId}`);
    const [draft, published] = await Promise.all(
      (['draft', 'published'] as const).map((stage) => this.store.get<ContentItemDocument>(CONTENT_ITEMS, contentItemId(workspaceId, contentId, stage))),
    );
    const item = draft ?? published;
    if (!item || item.contentType !== contentTypeKey) throw notFound(`content item ${contentId} does not exist in ${contentTypeKey}`);
    return { action, item, sealedHeaders: ownValue(type.sealedActionHeaders, actionId) ?? null };
  }

  /** The action's navigateUrl filled in for the item, values URL-encoded; 404 when the action has none. */
  async navigateUrl(workspaceId: string, contentTypeKey: string, contentId: string, actionId: string): Promise<string> {
    const { action, item } = await this.subject(workspaceId, contentTypeKey, contentId, actionId);
    if (action.navigateUrl === null) throw notFound(`action ${actionId} has no navigateUrl`);
    const values = { id: item.itemId, contentType: item.contentType, workspaceId, fields: item.fields };
    return renderText(action.navigateUrl, values, encodeURIComponent);
  }

  /** The latest execution record; 404 when there is none or it is past its lifetime. */
  async status(workspaceId: string, contentTypeKey: string, contentId: string, actionId: string): Promise<ActionExecutionView> {
    const record = await this.store.get<ActionExecutionDocument>(ACTION_EXECUTIONS, actionExecutionId(workspaceId, contentId, actionId));
    if (!record || record.contentType !== contentTypeKey || isExpired(record.startedAt, this.clock.now())) {
      throw notFound(`no execution record of action ${actionId} for content item ${contentId}`);
    }
    const { operationId, status, result, progress, message, error, updatedAt } = record;
    return { operationId, status, result, progress, message, error, updatedAt };
  }

  /** The execution an operation id names; 404 when unknown, of another workspace, or past its lifetime. */
  async operation(workspaceId: string, operationId: string): Promise<OperationRef & { readonly contentType: string }> {
    const [record] = await this.store.list<ActionExecutionDocument>(ACTION_EXECUTIONS, {
      filter: { type: 'condition', field: 'operationId', operator: 'e', value: operationId },
      limit: 1,
    });
    if (!record || record.workspaceId !== workspaceId || isExpired(record.startedAt, this.clock.now())) {
      throw notFound(`operation ${operationId} does not exist or has expired`);
    }
    return { workspaceId, contentType: record.contentType, contentId: record.contentId, actionId: record.actionId, operationId };
  }
}
