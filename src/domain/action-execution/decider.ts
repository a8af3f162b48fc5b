import type { Decider } from '../decider';
import { conflict, notFound } from '../errors';
import { type ActionExecutionEvent, type ActionStartedData, type ActionStatus, isExpired } from './events';

export interface ExecutionRecord {
  readonly operationId: string;
  readonly status: ActionStatus;
  readonly startedAt: string;
}

/** The latest execution of one action on one content item; older ones are replaced. */
export interface ActionExecutionState {
  readonly current: ExecutionRecord | null;
}

type OperationRef = Pick<ActionStartedData, 'workspaceId' | 'contentId' | 'actionId' | 'operationId'>;

export interface CallbackReport {
  readonly success: boolean;
  readonly result: string | null;
  readonly error: string | null;
  readonly message: string | null;
  readonly progress: number | null;
}

export type ActionExecutionCommand =
  | { type: 'StartAction'; data: ActionStartedData }
  | { type: 'ReportActionCallback'; data: OperationRef & { report: CallbackReport; at: string } }
  /** The external service did not take the call (no 2xx); a no-op when the execution already ended. */
  | { type: 'FailActionCall'; data: OperationRef & { error: string; at: string } };

export const actionExecutionDecider: Decider<ActionExecutionCommand, ActionExecutionEvent, ActionExecutionState> = {
  initialState: { current: null },

  evolve(state, event) {
    switch (event.type) {
      case 'ActionStarted':
        return { current: { operationId: event.data.operationId, status: 'Running', startedAt: event.data.at } };
      case 'ActionProgressed':
        return state;
      case 'ActionCompleted':
        return state.current ? { current: { ...state.current, status: event.data.status } } : state;
    }
  },

  decide(command, state) {
    const { current } = state;
    const at = new Date(command.data.at);
    switch (command.type) {
      case 'StartAction':
        if (current?.status === 'Running' && !isExpired(current.startedAt, at)) {
          throw conflict(`action ${command.data.actionId} is already running for content item ${command.data.contentId}`);
        }
        return [{ type: 'ActionStarted', data: command.data }];

      case 'ReportActionCallback': {
        const { report, ...ref } = command.data;
        if (!current || current.operationId !== ref.operationId || isExpired(current.startedAt, at)) {
          throw notFound(`operation ${ref.operationId} does not exist or has expired`);
        }
        if (current.status !== 'Running') throw conflict(`operation ${ref.operationId} has already completed`);
        if (report.progress !== null && report.progress < 100) {
          return [{ type: 'ActionProgressed', data: { ...ref, progress: report.progress, message: report.message } }];
        }
        const status = report.success ? 'Succeeded' : 'Failed';
        return [{ type: 'ActionCompleted', data: { ...ref, status, result: report.success ? report.result : null, error: report.success ? null : report.error, message: report.message, progress: report.progress } }];
      }

      case 'FailActionCall': {
        const { error, ...ref } = command.data;
        if (current?.operationId !== ref.operationId || current.status !== 'Running') return [];
        return [{ type: 'ActionCompleted', data: { ...ref, status: 'Failed', result: null, error, message: null, progress: null } }];
      }
    }
  },
};
