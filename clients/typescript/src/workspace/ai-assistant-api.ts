import type { AiAnswer, AiPromptRequest, AiRunStarted, AiRunStatus } from '../generated/api-types';
import type { Transport } from '../http/transport';
import { WORKSPACE_OPERATIONS } from '../operations/workspace-operations';

const routes = WORKSPACE_OPERATIONS.aiAssistant;

export interface WaitForRunOptions {
  /** Pause between polls. Default: 500 ms. */
  readonly intervalMs?: number;
  /** Give up (with an error) after this long. Default: 120 000 ms. */
  readonly timeoutMs?: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Prompts answered in threads: ask, wait for the run, read the response. */
export class AiAssistantApi {
  constructor(private readonly transport: Transport) {}

  /** A threadId continues that thread; none starts a new one. The answer is prepared in the background. */
  ask(request: AiPromptRequest): Promise<AiRunStarted> {
    return this.transport.json(routes.ask, { body: request });
  }

  getRunStatus(threadId: string, runId: string): Promise<AiRunStatus> {
    return this.transport.json(routes.getRunStatus, { path: { threadId, runId } });
  }

  /** The answer of the thread's latest completed run, Markdown. */
  getResponse(threadId: string): Promise<AiAnswer> {
    return this.transport.json(routes.getResponse, { path: { threadId } });
  }

  /** Polls the run until it is completed or failed, and returns that status. */
  async waitForRun(threadId: string, runId: string, options: WaitForRunOptions = {}): Promise<AiRunStatus> {
    const { intervalMs = 500, timeoutMs = 120_000 } = options;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const status = await this.getRunStatus(threadId, runId);
      if (status.status !== 'in_progress') return status;
      if (Date.now() + intervalMs > deadline) throw new Error(`AI run ${runId} was still in progress after ${timeoutMs} ms`);
      await pause(intervalMs);
    }
  }
}
