import { randomUUID } from 'node:crypto';
import type { Clock } from '../infra/clock';
import type { CallbackReport } from '../src/domain/action-execution/decider';
import { actionExecutionStream } from '../src/domain/action-execution/events';
import type { CommandContext, CommandRunner } from './aggregate';
import { actionExecutionAggregate } from './aggregates';

/** One action on one content item. */
export interface ActionTarget {
  readonly workspaceId: string;
  readonly contentType: string;
  readonly contentId: string;
  readonly actionId: string;
}

export type OperationRef = Omit<ActionTarget, 'contentType'> & { readonly operationId: string };

/** The execution records of callback-mode content actions. */
export class ActionCommands {
  constructor(
    private readonly runner: CommandRunner,
    private readonly clock: Clock,
  ) {}

  /**
   * Creates a Running record whose call must be answered within `callTimeoutMs`, and returns its
   * operation id; 409 while another execution of the action on the item runs.
   */
  async start(target: ActionTarget, callTimeoutMs: number, context: CommandContext): Promise<string> {
    const operationId = randomUUID();
    const now = this.clock.now();
    const callDeadline = new Date(now.getTime() + callTimeoutMs).toISOString();
    await this.runner.run(actionExecutionAggregate, streamOf(target), { type: 'StartAction', data: { ...target, operationId, at: now.toISOString(), callDeadline } }, context);
    return operationId;
  }

  /** The external service took the call: the record now waits for its callbacks, however long they take. */
  async acceptCall(operation: OperationRef, context: CommandContext): Promise<void> {
    await this.runner.run(actionExecutionAggregate, streamOf(operation), { type: 'AcceptActionCall', data: { ...operation, at: this.now() } }, context);
  }

  /** A callback from the external service: progress, or the end of the execution. */
  async report(operation: OperationRef, report: CallbackReport, context: CommandContext): Promise<void> {
    await this.runner.run(actionExecutionAggregate, streamOf(operation), { type: 'ReportActionCallback', data: { ...operation, report, at: this.now() } }, context);
  }

  /** The external service did not take the call: the execution ends Failed with the reason (unless a callback ended it first). */
  async failCall(operation: OperationRef, error: string, context: CommandContext): Promise<void> {
    await this.runner.run(actionExecutionAggregate, streamOf(operation), { type: 'FailActionCall', data: { ...operation, error, at: this.now() } }, context);
  }

  /** Ends the execution Failed when its call was interrupted (never answered, long overdue); does nothing otherwise. */
  async endInterrupted(operation: OperationRef, context: CommandContext): Promise<void> {
    await this.runner.run(actionExecutionAggregate, streamOf(operation), { type: 'EndInterruptedAction', data: { ...operation, at: this.now() } }, context);
  }

  private now(): string {
    return this.clock.now().toISOString();
  }
}

const streamOf = (ref: Omit<ActionTarget, 'contentType'>) => actionExecutionStream(ref.workspaceId, ref.contentId, ref.actionId);
