import type { ReadStore } from '../infra/readstore/port';
import { AI_RUNS, AI_THREADS, aiRunDocumentId, type AiRunDocument, aiThreadDocumentId, type AiThreadDocument } from '../projections/read-models/ai-threads';
import type { AiRunStatus } from '../src/domain/ai-thread/events';
import { notFound } from '../src/domain/errors';

export type AiRunStatusView = { readonly status: Exclude<AiRunStatus, 'failed'> } | { readonly status: 'failed'; readonly error: string };

export class AiAssistantQueries {
  constructor(private readonly store: ReadStore) {}

  async runStatus(workspaceId: string, threadId: string, runId: string): Promise<AiRunStatusView> {
    const run = await this.store.get<AiRunDocument>(AI_RUNS, aiRunDocumentId(workspaceId, threadId, runId));
    if (!run) {
      await this.thread(workspaceId, threadId);
      throw notFound(`run ${runId} does not exist in thread ${threadId}`);
    }
    return run.status === 'failed' ? { status: 'failed', error: run.error ?? 'the run failed' } : { status: run.status };
  }

  /** The answer of the latest prompt that has one. */
  async latestResponse(workspaceId: string, threadId: string): Promise<{ response: string }> {
    const thread = await this.thread(workspaceId, threadId);
    if (!thread.latestAnswer) throw notFound(`thread ${threadId} has no completed answer yet; poll the run's status until it is completed`);
    return { response: thread.latestAnswer.response };
  }

  private async thread(workspaceId: string, threadId: string): Promise<AiThreadDocument> {
    const thread = await this.store.get<AiThreadDocument>(AI_THREADS, aiThreadDocumentId(workspaceId, threadId));
    if (!thread) throw notFound(`thread ${threadId} does not exist`);
    return thread;
  }
}
