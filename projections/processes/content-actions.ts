import type { ActionCommands } from '../../commands/actions';
import type { CommandContext } from '../../commands/aggregate';
import type { ActionQueries, ActionSubject } from '../../queries/actions';
import type { ActionDefinition } from '../../src/domain/content-type/definition';
import { renderTemplate } from '../../src/domain/json-template';
import type { ContentItemDocument } from '../read-models/content-items';
import { type Callback, CALLBACK_TIMEOUT_MS, type CallbackSender } from './callback-sender';

/** How long a synchronous execution waits for the external service. */
export const SYNCHRONOUS_ACTION_TIMEOUT_MS = 30_000;
/** Characters of a synchronous answer returned as its result. */
export const MAX_ACTION_RESULT_LENGTH = 256 * 1024;

export type ExecutionOutcome =
  /** UseCallback disabled: the external service's answer, whatever it was. */
  | { readonly mode: 'synchronous'; readonly success: boolean; readonly statusCode: number; readonly result: string | null; readonly error: string | null; readonly durationMs: number }
  /** UseCallback enabled and the external service took the call (2xx). */
  | { readonly mode: 'callback'; readonly operationId: string; readonly callbackUrl: string }
  /** UseCallback enabled and the external service did not take the call: the record ended Failed with `reason`. */
  | { readonly mode: 'refused'; readonly operationId: string; readonly statusCode: number; readonly reason: string };

/**
 * Runs content actions: calls the action's external service for a content item, either
 * waiting for its answer (synchronous) or with a callback address, after creating the
 * Running execution record that the callbacks then move on.
 */
export class ContentActions {
  constructor(
    private readonly queries: ActionQueries,
    private readonly commands: ActionCommands,
    private readonly sender: CallbackSender,
    private readonly openSealed: (workspaceId: string, sealed: string) => Promise<string>,
    private readonly publicBaseUrl: string,
  ) {}

  async execute(workspaceId: string, contentTypeKey: string, contentId: string, actionId: string, context: CommandContext): Promise<ExecutionOutcome> {
    const subject = await this.queries.subject(workspaceId, contentTypeKey, contentId, actionId);
    const headers = subject.sealedHeaders === null ? subject.action.headers : (JSON.parse(await this.openSealed(workspaceId, subject.sealedHeaders)) as Record<string, string>);
    if (!subject.action.useCallback) {
      const outcome = await this.sender.send({
        ...actionCall(subject, headers, null),
        timeoutMs: SYNCHRONOUS_ACTION_TIMEOUT_MS,
        maxMessageLength: MAX_ACTION_RESULT_LENGTH,
      });
      return {
        mode: 'synchronous',
        success: outcome.success,
        statusCode: outcome.statusCode,
        result: outcome.success ? outcome.message : null,
        error: outcome.success ? null : failureReason(outcome.statusCode, outcome.message),
        durationMs: outcome.durationMs,
      };
    }

    const target = { workspaceId, contentType: contentTypeKey, contentId, actionId };
    const operationId = await this.commands.start(target, CALLBACK_TIMEOUT_MS, context);
    const operation = { workspaceId, contentId, actionId, operationId };
    const callbackUrl = `${this.publicBaseUrl}/actions/callback/${encodeURIComponent(workspaceId)}/${operationId}`;
    const outcome = await this.sender.send({ ...actionCall(subject, headers, callbackUrl), timeoutMs: CALLBACK_TIMEOUT_MS });
    if (outcome.success) {
      await this.commands.acceptCall(operation, context);
      return { mode: 'callback', operationId, callbackUrl };
    }
    const reason = failureReason(outcome.statusCode, outcome.message);
    await this.commands.failCall(operation, reason, context);
    return { mode: 'refused', operationId, statusCode: outcome.statusCode, reason };
  }
}

function failureReason(statusCode: number, message: string): string {
  return statusCode === 0 ? `the action's service could not be reached: ${message}` : `the action's service answered ${statusCode}${message ? `: ${message}` : ''}`;
}

/** The request to the action's service, shaped by its payload mode; `callbackUrl` is null in synchronous mode. */
function actionCall({ action, item }: ActionSubject, headers: Readonly<Record<string, string>>, callbackUrl: string | null): Callback {
  const request = { method: action.method, headers, secret: null };
  const body = actionBody(action, item, callbackUrl);
  if (body !== null) return { ...request, url: action.url, body: JSON.stringify(body) };
  const url = new URL(action.url);
  if (callbackUrl !== null) url.searchParams.set('callbackUrl', callbackUrl);
  return { ...request, url: url.toString(), body: '' };
}

function actionBody(action: ActionDefinition, item: ContentItemDocument, callbackUrl: string | null): unknown {
  const identity = { id: item.itemId, contentType: item.contentType, workspaceId: item.workspaceId };
  const withCallback = callbackUrl === null ? {} : { callbackUrl };
  switch (action.payloadMode) {
    case 'None':
      return null;
    case 'IdOnly':
      return { ...identity, ...withCallback };
    case 'FullEntity':
      return { ...identity, fields: item.fields, translations: item.translations, ...withCallback };
    case 'CustomTemplate':
      return renderTemplate(action.customTemplate, { ...identity, fields: item.fields, callbackUrl });
  }
}
