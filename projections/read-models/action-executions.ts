import { ACTION_STATUS, actionExecutionEvent } from '../../src/domain/action-execution/events';
import type { Document } from '../../infra/readstore/port';
import type { Projector } from '../projector';

export const ACTION_EXECUTIONS = 'action_executions';

/** The latest callback-mode execution of one action on one content item; id `${workspaceId}:${contentId}:${actionId}`. */
export interface ActionExecutionDocument extends Document {
  readonly workspaceId: string;
  readonly contentType: string;
  readonly contentId: string;
  readonly actionId: string;
  readonly operationId: string;
  readonly status: (typeof ACTION_STATUS)[keyof typeof ACTION_STATUS];
  readonly progress: number | null;
  readonly message: string | null;
  readonly result: string | null;
  readonly error: string | null;
  readonly startedAt: string;
  readonly updatedAt: string;
  /**
   * When the call's answer was due, and whether the external service took the call or called back
   * (to find interrupted executions); absent on records projected before they were kept, whose
   * events carry no deadline either.
   */
  readonly callDeadline?: string | null;
  readonly callAccepted?: boolean;
}

export const actionExecutionId = (workspaceId: string, contentId: string, actionId: string) => `${workspaceId}:${contentId}:${actionId}`;

export const actionExecutionsProjector: Projector = {
  name: 'action_executions',
  collections: [{ name: ACTION_EXECUTIONS, indexes: [{ fields: ['operationId'] }, { fields: ['startedAt'] }, { fields: ['status', 'callDeadline'] }] }],
  eventTypes: new Set(['ActionStarted', 'ActionCallAccepted', 'ActionProgressed', 'ActionCompleted']),

  prefetch(recorded) {
    const { workspaceId, contentId, actionId } = recorded.data as { workspaceId: string; contentId: string; actionId: string };
    return [{ collection: ACTION_EXECUTIONS, id: actionExecutionId(workspaceId, contentId, actionId) }];
  },

  async project(recorded, view) {
    const event = actionExecutionEvent.parse(recorded);
    const { workspaceId, contentId, actionId, operationId, at } = event.data;
    const id = actionExecutionId(workspaceId, contentId, actionId);
    if (event.type === 'ActionStarted') {
      const document: ActionExecutionDocument = {
        id,
        workspaceId,
        contentType: event.data.contentType,
        contentId,
        actionId,
        operationId,
        status: ACTION_STATUS.Running,
        progress: null,
        message: null,
        result: null,
        error: null,
        startedAt: at,
        updatedAt: at,
        callDeadline: event.data.callDeadline ?? null,
        callAccepted: false,
      };
      return [{ kind: 'upsert', collection: ACTION_EXECUTIONS, document }];
    }
    const current = await view.get<ActionExecutionDocument>(ACTION_EXECUTIONS, id);
    // A later execution replaced this one, or retention removed it.
    if (current?.operationId !== operationId) return [];
    // Taking the call is not an update a client sees: updatedAt stays.
    if (event.type === 'ActionCallAccepted') return [{ kind: 'upsert', collection: ACTION_EXECUTIONS, document: { ...current, callAccepted: true } }];
    const document: ActionExecutionDocument =
      event.type === 'ActionProgressed'
        ? { ...current, progress: event.data.progress, message: event.data.message ?? current.message, updatedAt: at, callAccepted: true }
        : {
            ...current,
            status: ACTION_STATUS[event.data.status],
            progress: event.data.progress ?? current.progress,
            message: event.data.message ?? current.message,
            result: event.data.result,
            error: event.data.error,
            updatedAt: at,
          };
    return [{ kind: 'upsert', collection: ACTION_EXECUTIONS, document }];
  },
};
