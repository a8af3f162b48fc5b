import type { Logger } from 'pino';
import type { AiAnswerSealing } from '../../commands/ai-answer-sealing';
import type { AiAssistantCommands } from '../../commands/ai-assistant';
import { type AiProvider, AiProviderError } from '../../infra/ai/port';
import type { RecordedEvent } from '../../infra/eventstore/port';
import type { ContentSearchQueries } from '../../queries/content-search';
import { DomainError } from '../../src/domain/errors';
import { exchangesBefore } from '../../src/domain/ai-thread/decider';
import { aiPromptAdded } from '../../src/domain/ai-thread/events';
import type { ProcessManager } from './process-runner';

/** Earlier turns sent with a question; older ones are left out to bound the request. */
const MAX_HISTORY_TURNS = 20;

class RunInterrupted extends Error {
  constructor() {
    super('the AI run was interrupted by a shutdown; it runs again after the restart');
    this.name = 'RunInterrupted';
  }
}

/**
 * Answers prompts in the background: for each AiPromptAdded, retrieves the workspace's published
 * content that matches, asks the provider with the thread's earlier turns, and records the
 * answer (sealed when it drew on personal-data items), or the reason it failed, on the thread. A provider failure ends the run failed; a
 * failure of our own stores is thrown, so the runner retries it. Handling a prompt again (after
 * a restart) finds its run settled and does nothing; the settle commands are idempotent too.
 */
export class AiRuns implements ProcessManager {
  readonly name = 'ai_runs';
  readonly eventTypes = new Set(['AiPromptAdded']);
  private interruption = newInterruption();

  constructor(
    private readonly commands: AiAssistantCommands,
    private readonly answers: AiAnswerSealing,
    private readonly search: ContentSearchQueries,
    private readonly provider: AiProvider,
    private readonly logger: Logger,
  ) {}

  async handle(recorded: RecordedEvent): Promise<void> {
    const { workspaceId, threadId, runId, prompt } = aiPromptAdded.parse(recorded).data;
    const thread = await this.commands.thread(workspaceId, threadId);
    const run = thread.exists ? thread.runs.find((candidate) => candidate.runId === runId) : undefined;
    if (run?.status !== 'in_progress') return;

    const ref = { workspaceId, threadId, runId };
    const context = { workspaceId, actor: 'system', causationId: recorded.id };
    const items = await this.search.search(workspaceId, prompt);
    let response: string;
    try {
      const history = await this.answers.openExchanges(workspaceId, exchangesBefore(thread, runId).slice(-MAX_HISTORY_TURNS));
      response = await Promise.race([this.provider.answer({ prompt, history, context: items }), this.interruption.interrupted]);
    } catch (error) {
      if (error instanceof RunInterrupted) throw error;
      const reason = error instanceof AiProviderError ? error.message : `the assistant failed: ${(error as Error).message}`;
      this.logger.warn({ workspaceId, threadId, runId, reason }, 'AI run failed');
      await this.commands.fail(ref, reason, context);
      return;
    }
    try {
      await this.commands.complete(ref, response, items, context);
    } catch (error) {
      // An item the answer drew on was erased while it was asked: it cannot be kept under that item's key, nor in clear.
      if (!(error instanceof DomainError && error.kind === 'gone')) throw error;
      await this.commands.fail(ref, `the answer was not kept: ${error.message}; ask again`, context);
    }
  }

  /**
   * Abandons the provider calls in flight without recording an outcome: their prompts stay
   * behind the process checkpoint, so the next start runs them again instead of a shutdown
   * waiting up to a minute for a model.
   */
  interrupt(): void {
    this.interruption.interrupt(new RunInterrupted());
    // The process can be started again (this instance regains its lease): later runs need a fresh signal.
    this.interruption = newInterruption();
  }
}

/** A promise that rejects when `interrupt` is called: raced against provider calls. */
function newInterruption(): { interrupted: Promise<never>; interrupt: (reason: RunInterrupted) => void } {
  let interrupt: (reason: RunInterrupted) => void = () => undefined;
  const interrupted = new Promise<never>((_resolve, reject) => {
    interrupt = reject;
  });
  interrupted.catch(() => undefined);
  return { interrupted, interrupt };
}
