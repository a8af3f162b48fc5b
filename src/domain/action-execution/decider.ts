import type { Decider } from '../decider';
import { conflict, notFound } from '../errors';
import { type ActionExecutionEvent, type ActionStartedData, type ActionStatus, INTERRUPTED_CALL_GRACE_MS, isExpired } from './events';

export interface ExecutionRecord {
  readonly operationId: string;
  readonly status: ActionStatus;
  readonly startedAt: string;
  /** When the call's answer was due; null for records started before deadlines were recorded. */
  readonly callDeadline: string | null;
  /** The external service took the call, or reported through the callback: it knows of the execution. */
  readonly callAccepted: boolean;
}

/** The error of an execution whose call was never answered: the process stopped meanwhile. */
export const INTERRUPTED_CALL_ERROR = "the execution was interrupted before the action's service answered the call (the service stopped); it may not have been called";

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
  | { type: 'FailActionCall'; data: OperationRef & { error: string; at: string } }
  /** The external service took the call (2xx); a no-op when the execution already ended. */
  | { type: 'AcceptActionCall'; data: OperationRef & { at: string } }
  /** Ends the execution Failed when it was interrupted (see wasInterrupted); a no-op otherwise. */
  | { type: 'EndInterruptedAction'; data: OperationRef & { at: string } };

export const actionExecutionDecider: Decider<ActionExecutionCommand, ActionExecutionEvent, ActionExecutionState> = {
  initialState: { current: null },

  evolve(state, event) {
    switch (event.type) {
      case 'ActionStarted':
        return { current: { operationId: event.data.operationId, status: 'Running', startedAt: event.data.at, callDeadline: event.data.callDeadline ?? null, callAccepted: false } };
      case 'ActionCallAccepted':
      case 'ActionProgressed':
        return state.current?.operationId === event.data.operationId ? { current: { ...state.current, callAccepted: true } } : state;
      case 'ActionCompleted':
        return state.current ? { current: { ...state.current, status: event.data.status } } : state;
    }
  },

  decide(command, state) {
    const { current } = state;
    const at = new Date(command.data.at);
    switch (command.type) {
      case 'StartAction': {
        if (current?.status !== 'Running' || isExpired(current.startedAt, at)) return [{ type: 'ActionStarted', data: command.data }];
        if (!wasInterrupted(current, at)) throw conflict(`action ${command.data.actionId} is already running for content item ${command.data.contentId}`);
        const { workspaceId, contentId, actionId } = command.data;
        return [interruptedEnd({ workspaceId, contentId, actionId, operationId: current.operationId }, command.data.at), { type: 'ActionStarted', data: command.data }];
      }

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

      case 'AcceptActionCall':
        if (current?.operationId !== command.data.operationId || current.status !== 'Running' || current.callAccepted) return [];
        return [{ type: 'ActionCallAccepted', data: command.data }];

      case 'EndInterruptedAction': {
        const { at: when, ...ref } = command.data;
        if (current?.operationId !== ref.operationId || current.status !== 'Running' || !wasInterrupted(current, at)) return [];
        return [interruptedEnd(ref, when)];
      }
    }
  },
};

function interruptedEnd(ref: OperationRef, at: string): ActionExecutionEvent {
  return { type: 'ActionCompleted', data: { ...ref, status: 'Failed', result: null, error: INTERRUPTED_CALL_ERROR, message: null, progress: null, at } };
}

/** Running, its call never answered and long past its deadline: the process stopped between the record and the answer. */
function wasInterrupted(record: ExecutionRecord, now: Date): boolean {
  return !record.callAccepted && record.callDeadline !== null && now.getTime() >= Date.parse(record.callDeadline) + INTERRUPTED_CALL_GRACE_MS;
}
