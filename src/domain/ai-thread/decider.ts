import type { Decider } from '../decider';
import { notFound } from '../errors';
import type { AiRunStatus, AiThreadEvent, SealedAnswer } from './events';

type ThreadRef = { readonly workspaceId: string; readonly threadId: string };
type RunRef = ThreadRef & { readonly runId: string };

export type AiThreadCommand =
  | { readonly type: 'StartThread'; readonly data: RunRef & { readonly prompt: string; readonly at: string } }
  | { readonly type: 'AddPrompt'; readonly data: RunRef & { readonly prompt: string; readonly at: string } }
  | { readonly type: 'CompleteRun'; readonly data: RunRef & { readonly response: string; readonly sealed?: SealedAnswer; readonly at: string } }
  | { readonly type: 'FailRun'; readonly data: RunRef & { readonly error: string; readonly at: string } };

export interface AiRun {
  readonly runId: string;
  readonly prompt: string;
  readonly status: AiRunStatus;
  /** The answer once completed; empty when it is sealed. */
  readonly response: string | null;
  /** The answer sealed under the keys of the personal-data items it drew on. */
  readonly sealed?: SealedAnswer;
}

export type AiThreadState =
  | { readonly exists: false }
  | { readonly exists: true; readonly workspaceId: string; readonly runs: readonly AiRun[] };

/** One question and its answer, as the conversation so far: the answer in clear, or sealed (then `response` is empty). */
export interface AiExchange {
  readonly prompt: string;
  readonly response: string;
  readonly sealed?: SealedAnswer;
}

export const aiThreadDecider: Decider<AiThreadCommand, AiThreadEvent, AiThreadState> = {
  initialState: { exists: false },

  evolve(state, event) {
    if (event.type === 'AiThreadStarted') return { exists: true, workspaceId: event.data.workspaceId, runs: [] };
    if (!state.exists) return state;
    switch (event.type) {
      case 'AiPromptAdded':
        return { ...state, runs: [...state.runs, { runId: event.data.runId, prompt: event.data.prompt, status: 'in_progress', response: null }] };
      case 'AiRunCompleted':
        return withRun(state, event.data.runId, { status: 'completed', response: event.data.response, ...(event.data.sealed ? { sealed: event.data.sealed } : {}) });
      case 'AiRunFailed':
        return withRun(state, event.data.runId, { status: 'failed' });
    }
  },

  decide(command, state) {
    const { data } = command;
    if (command.type === 'StartThread') {
      // Idempotent: the thread id is fresh, so an existing thread can only be this command's own earlier append.
      if (state.exists) return [];
      const { prompt: _prompt, runId: _runId, ...started } = command.data;
      return [
        { type: 'AiThreadStarted', data: started },
        { type: 'AiPromptAdded', data: command.data },
      ];
    }
    if (!state.exists || state.workspaceId !== data.workspaceId) throw notFound(`thread ${data.threadId} does not exist`);
    const run = state.runs.find((candidate) => candidate.runId === data.runId);
    if (command.type === 'AddPrompt') return run ? [] : [{ type: 'AiPromptAdded', data: command.data }];
    if (!run) throw notFound(`run ${data.runId} does not exist in thread ${data.threadId}`);
    // At-least-once: the outcome of a settled run is recorded once; a repeat records nothing.
    if (run.status !== 'in_progress') return [];
    return command.type === 'CompleteRun' ? [{ type: 'AiRunCompleted', data: command.data }] : [{ type: 'AiRunFailed', data: command.data }];
  },
};

/** The completed exchanges asked before `runId`, oldest first: the history a run answers in. */
export function exchangesBefore(state: AiThreadState, runId: string): AiExchange[] {
  if (!state.exists) return [];
  const index = state.runs.findIndex((run) => run.runId === runId);
  return state.runs
    .slice(0, index === -1 ? state.runs.length : index)
    .flatMap((run) => (run.status === 'completed' && run.response !== null ? [{ prompt: run.prompt, response: run.response, ...(run.sealed ? { sealed: run.sealed } : {}) }] : []));
}

function withRun(state: Extract<AiThreadState, { exists: true }>, runId: string, change: Partial<AiRun>): AiThreadState {
  return { ...state, runs: state.runs.map((run) => (run.runId === runId ? { ...run, ...change } : run)) };
}
