import type { AiAnswerSealing } from '../commands/ai-answer-sealing';
import type { ReadStore } from '../infra/readstore/port';
import { AI_RUNS, AI_THREADS, aiRunDocumentId, type AiRunDocument, aiThreadDocumentId, type AiThreadDocument } from '../projections/read-models/ai-threads';
import type { AiRunStatus } from '../src/domain/ai-thread/events';
import { gone, notFound } from '../src/domain/errors';

export type AiRunStatusView = { readonly status: Exclude<AiRunStatus, 'failed'> } | { readonly status: 'failed'; readonly error: string };

export class AiAssistantQueries {
  constructor(
    private readonly store: ReadStore,
    private readonly answers: AiAnswerSealing,
  ) {}

  async runStatus(workspaceId: string, threadId: string, runId: string): Promise<AiRunStatusView> {
    const run = await this.store.get<AiRunDocument>(AI_RUNS, aiRunDocumentId(workspaceId, threadId, runId));
    if (!run) {
      await this.thread(workspaceId, threadId);
      throw notFound(`run ${runId} does not exist in thread ${threadId}`);
    }
    return run.status === 'failed' ? { status: 'failed', error: run.error ?? 'the run failed' } : { status: run.status };
  }

  /** The answer of the latest prompt that has one; 410 when it drew on a content item erased since. */
  async latestResponse(workspaceId: string, threadId: string): Promise<{ response: string }> {
    const thread = await this.thread(workspaceId, threadId);
    if (!thread.latestAnswer) throw notFound(`thread ${threadId} has no completed answer yet; poll the run's status until it is completed`);
    const response = await this.answers.open(workspaceId, thread.latestAnswer);
    if (response === undefined) throw gone(`the latest answer of thread ${threadId} drew on a content item that was erased since, so it can no longer be read; ask again`);
    return { response };
  }

  private async thread(workspaceId: string, threadId: string): Promise<AiThreadDocument> {
    const thread = await this.store.get<AiThreadDocument>(AI_THREADS, aiThreadDocumentId(workspaceId, threadId));
    if (!thread) throw notFound(`thread ${threadId} does not exist`);
    return thread;
  }
}
