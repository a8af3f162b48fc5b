import type { Decider } from '../decider';
import { conflict, notFound } from '../errors';
import { retryDelayMs } from './backoff';
import type { JobScheduledData, JobStatus, ScheduledJobEvent } from './events';

type Ref = { readonly jobId: string; readonly workspaceId: string };

export interface AttemptResult {
  readonly statusCode: number;
  readonly message: string;
  readonly durationMs: number;
}

/** A Firing claim older than this is taken to be lost (its instance stopped) and may be claimed again. */
export const CLAIM_TIMEOUT_MS = 60_000;

export type ScheduledJobCommand =
  | { readonly type: 'ScheduleJob'; readonly data: JobScheduledData }
  | { readonly type: 'FireJob'; readonly data: Ref & { readonly attempt: number; readonly at: string } }
  | {
      readonly type: 'RecordJobAttempt';
      readonly data: Ref & AttemptResult & { readonly attempt: number; readonly at: string; readonly success: boolean; readonly backoffUnitMs: number };
    }
  | { readonly type: 'CancelJob'; readonly data: Ref & { readonly at: string } };

export type ScheduledJobState =
  | { readonly status: 'none' }
  | {
      readonly status: JobStatus;
      readonly workspaceId: string;
      readonly maxRetries: number;
      readonly attempts: number;
      readonly firedAt: string | null;
    };

export const scheduledJobDecider: Decider<ScheduledJobCommand, ScheduledJobEvent, ScheduledJobState> = {
  initialState: { status: 'none' },

  evolve(state, event) {
    if (event.type === 'JobScheduled') {
      return { status: 'Pending', workspaceId: event.data.workspaceId, maxRetries: event.data.maxRetries, attempts: 0, firedAt: null };
    }
    if (state.status === 'none') return state;
    switch (event.type) {
      case 'JobFired':
        return { ...state, status: 'Firing', attempts: event.data.attempt, firedAt: event.data.at };
      case 'JobSucceeded':
        return { ...state, status: 'Done' };
      case 'JobFailed':
        return { ...state, status: 'Pending' };
      case 'JobDeadLettered':
        return { ...state, status: 'DeadLetter' };
      case 'JobCancelled':
        return { ...state, status: 'Cancelled' };
    }
  },

  decide(command, state) {
    if (command.type === 'ScheduleJob') {
      // Idempotent: the next occurrence of a series is scheduled under an id derived from the series.
      return state.status === 'none' ? [{ type: 'JobScheduled', data: command.data }] : [];
    }
    const { data } = command;
    if (state.status === 'none' || state.workspaceId !== data.workspaceId) throw notFound(`scheduled job ${data.jobId} does not exist`);
    const ref = { jobId: data.jobId, workspaceId: data.workspaceId };
    switch (command.type) {
      case 'CancelJob':
        // A lost claim is due to be taken again, as a Pending job is: its attempt is not in flight.
        if (state.status !== 'Pending' && !claimLost(state, command.data.at)) {
          throw conflict(`scheduled job ${data.jobId} is ${state.status}; only a Pending job (or one whose claim was lost) can be cancelled`);
        }
        return [{ type: 'JobCancelled', data: { ...ref, at: command.data.at } }];
      case 'FireJob': {
        const lostClaim = claimLost(state, command.data.at);
        if ((state.status !== 'Pending' && !lostClaim) || command.data.attempt !== state.attempts + (lostClaim ? 0 : 1)) {
          throw conflict(`scheduled job ${data.jobId} is not due for attempt ${command.data.attempt}`);
        }
        return [{ type: 'JobFired', data: { ...ref, attempt: command.data.attempt, at: command.data.at } }];
      }
      case 'RecordJobAttempt': {
        const { attempt, at, statusCode, message, durationMs, success, backoffUnitMs } = command.data;
        if (state.status !== 'Firing' || attempt !== state.attempts) throw conflict(`attempt ${attempt} of scheduled job ${data.jobId} is not in flight`);
        const result = { ...ref, attempt, at, statusCode, message, durationMs };
        if (success) return [{ type: 'JobSucceeded', data: result }];
        if (attempt > state.maxRetries) return [{ type: 'JobDeadLettered', data: result }];
        return [{ type: 'JobFailed', data: { ...result, retryAt: new Date(Date.parse(at) + retryDelayMs(attempt, backoffUnitMs)).toISOString() } }];
      }
    }
  },
};

/** A Firing claim older than CLAIM_TIMEOUT_MS at `at`: its instance stopped before recording the attempt. */
function claimLost(state: Exclude<ScheduledJobState, { status: 'none' }>, at: string): boolean {
  return state.status === 'Firing' && Date.parse(at) - Date.parse(state.firedAt!) >= CLAIM_TIMEOUT_MS;
}
