import type { ActionExecution, ActionExecutionStarted, ActionNavigateUrl } from '../generated/api-types';
import type { Transport } from '../http/transport';
import { WORKSPACE_OPERATIONS } from '../operations/workspace-operations';

const routes = WORKSPACE_OPERATIONS.actions;

/** Which action, for which item: the content type key, the item id and the action id. */
export interface ActionTarget {
  readonly contentTypeKey: string;
  readonly contentId: string;
  readonly actionId: string;
}

const pathOf = ({ contentTypeKey, contentId, actionId }: ActionTarget) => ({ contentTypeKey, contentId, actionId });

/** Content actions configured on content types. External services report progress with CmsPublicClient.reportActionProgress. */
export class ActionsApi {
  constructor(private readonly transport: Transport) {}

  /** Synchronous actions answer their outcome; callback actions answer an operationId to poll with getStatus. */
  execute(target: ActionTarget): Promise<ActionExecutionStarted> {
    return this.transport.json(routes.execute, { path: pathOf(target) });
  }

  getNavigateUrl(target: ActionTarget): Promise<ActionNavigateUrl> {
    return this.transport.json(routes.getNavigateUrl, { path: pathOf(target) });
  }

  /** The latest execution record of a callback action (404 when there is none). */
  getStatus(target: ActionTarget): Promise<ActionExecution> {
    return this.transport.json(routes.getStatus, { path: pathOf(target) });
  }
}
