import { randomUUID } from 'node:crypto';
import type { Clock } from '../infra/clock';
import type { AiThreadCommand, AiThreadState } from '../src/domain/ai-thread/decider';
import { aiThreadStream } from '../src/domain/ai-thread/events';
import { aiThreadAggregate } from './aggregates';
import type { CommandContext, CommandRunner } from './aggregate';
import type { AiAnswerSealing, DrawnItem } from './ai-answer-sealing';

export interface AiRunRef {
  readonly workspaceId: string;
  readonly threadId: string;
  readonly runId: string;
}

export class AiAssistantCommands {
  constructor(
    private readonly runner: CommandRunner,
    private readonly clock: Clock,
    private readonly answers: AiAnswerSealing,
  ) {}

  /** Adds the prompt to the thread (a new one when `threadId` is null) and starts its run. */
  async ask(workspaceId: string, threadId: string | null, prompt: string, context: CommandContext): Promise<AiRunRef> {
    const runId = randomUUID();
    const at = this.clock.now().toISOString();
    if (threadId === null) {
      const ref = { workspaceId, threadId: randomUUID(), runId };
      await this.runner.create(aiThreadAggregate, aiThreadStream(workspaceId, ref.threadId), { type: 'StartThread', data: { ...ref, prompt, at } }, context);
      return ref;
    }
    const ref = { workspaceId, threadId, runId };
    await this.run({ type: 'AddPrompt', data: { ...ref, prompt, at } }, context);
    return ref;
  }

  /** The thread as its stream tells it: its runs, prompts and answers. */
  thread(workspaceId: string, threadId: string): Promise<AiThreadState> {
    return this.runner.load(aiThreadAggregate, aiThreadStream(workspaceId, threadId));
  }

  /**
   * Records the answer, sealed when it drew on personal-data items (AiAnswerSealing); a run
   * already settled stays as it is. 410 when one of those items was erased meanwhile.
   */
  async complete(ref: AiRunRef, response: string, drawnOn: readonly DrawnItem[], context: CommandContext): Promise<void> {
    const stored = await this.answers.seal(ref.workspaceId, drawnOn, response);
    await this.run({ type: 'CompleteRun', data: { ...ref, ...stored, at: this.clock.now().toISOString() } }, context);
  }

  /** Records why the run ended without an answer; a run already settled stays as it is. */
  async fail(ref: AiRunRef, error: string, context: CommandContext): Promise<void> {
    await this.run({ type: 'FailRun', data: { ...ref, error, at: this.clock.now().toISOString() } }, context);
  }

  private async run(command: AiThreadCommand, context: CommandContext): Promise<void> {
    await this.runner.run(aiThreadAggregate, aiThreadStream(command.data.workspaceId, command.data.threadId), command, context);
  }
}
