import { type AiRunStatus, aiThreadEvent, type SealedAnswer } from '../../src/domain/ai-thread/events';
import type { Change, Document } from '../../infra/readstore/port';
import type { Projector } from '../projector';

export const AI_THREADS = 'ai_threads';
export const AI_RUNS = 'ai_runs';

/** id `${workspaceId}:${threadId}`. */
export interface AiThreadDocument extends Document {
  readonly workspaceId: string;
  readonly threadId: string;
  /**
   * The answer of the latest prompt that has one; null until a run completes. As the log keeps
   * it: an answer that drew on personal-data items stays sealed here too (`response` empty), and
   * is opened when it is read, so erasing one of them needs nothing of this read model.
   */
  readonly latestAnswer: { readonly runId: string; readonly sequence: number; readonly response: string; readonly sealed?: SealedAnswer } | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** id `${workspaceId}:${threadId}:${runId}`. */
export interface AiRunDocument extends Document {
  readonly workspaceId: string;
  readonly threadId: string;
  readonly runId: string;
  /** The prompt's revision in the thread's stream: later prompts have higher numbers. */
  readonly sequence: number;
  readonly status: AiRunStatus;
  readonly error: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export const aiThreadDocumentId = (workspaceId: string, threadId: string) => `${workspaceId}:${threadId}`;
export const aiRunDocumentId = (workspaceId: string, threadId: string, runId: string) => `${workspaceId}:${threadId}:${runId}`;

export const aiThreadsProjector: Projector = {
  name: 'ai_threads',
  collections: [
    { name: AI_THREADS, indexes: [] },
    { name: AI_RUNS, indexes: [] },
  ],
  eventTypes: new Set(['AiThreadStarted', 'AiPromptAdded', 'AiRunCompleted', 'AiRunFailed']),

  prefetch(recorded) {
    const { workspaceId, threadId, runId } = recorded.data as { workspaceId: string; threadId: string; runId?: string };
    const thread = { collection: AI_THREADS, id: aiThreadDocumentId(workspaceId, threadId) };
    return runId === undefined ? [thread] : [thread, { collection: AI_RUNS, id: aiRunDocumentId(workspaceId, threadId, runId) }];
  },

  async project(recorded, view) {
    const event = aiThreadEvent.parse(recorded);
    const { workspaceId, threadId } = event.data;
    const at = recorded.metadata.timestamp;
    const threadDocumentId = aiThreadDocumentId(workspaceId, threadId);
    const thread = await view.get<AiThreadDocument>(AI_THREADS, threadDocumentId);
    if (event.type === 'AiThreadStarted') {
      if (thread) return [];
      const document: AiThreadDocument = { id: threadDocumentId, workspaceId, threadId, latestAnswer: null, createdAt: at, updatedAt: at };
      return [{ kind: 'upsert', collection: AI_THREADS, document }];
    }
    const runDocumentId = aiRunDocumentId(workspaceId, threadId, event.data.runId);
    const run = await view.get<AiRunDocument>(AI_RUNS, runDocumentId);
    const changes: Change[] = thread ? [{ kind: 'upsert', collection: AI_THREADS, document: { ...thread, updatedAt: at } }] : [];
    switch (event.type) {
      case 'AiPromptAdded': {
        if (run) return [];
        const document: AiRunDocument = {
          id: runDocumentId,
          workspaceId,
          threadId,
          runId: event.data.runId,
          sequence: recorded.revision,
          status: 'in_progress',
          error: null,
          createdAt: at,
          updatedAt: at,
        };
        return [...changes, { kind: 'upsert', collection: AI_RUNS, document }];
      }
      case 'AiRunFailed':
        if (!run) return [];
        return [...changes, { kind: 'upsert', collection: AI_RUNS, document: { ...run, status: 'failed', error: event.data.error, updatedAt: at } }];
      case 'AiRunCompleted': {
        if (!run || !thread) return [];
        const latest = thread.latestAnswer;
        const { response, sealed } = event.data;
        const latestAnswer = latest === null || latest.sequence <= run.sequence ? { runId: run.runId, sequence: run.sequence, response, ...(sealed ? { sealed } : {}) } : latest;
        return [
          { kind: 'upsert', collection: AI_THREADS, document: { ...thread, latestAnswer, updatedAt: at } },
          { kind: 'upsert', collection: AI_RUNS, document: { ...run, status: 'completed', updatedAt: at } },
        ];
      }
    }
  },
};
