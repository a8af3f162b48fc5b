import { schedule, type ScheduledTask } from 'node-cron';
import type { Logger } from 'pino';
import type { ActionCommands } from '../../commands/actions';
import type { Clock } from '../../infra/clock';
import type { ReadStore } from '../../infra/readstore/port';
import { ACTION_STATUS, INTERRUPTED_CALL_GRACE_MS } from '../../src/domain/action-execution/events';
import { ACTION_EXECUTIONS, type ActionExecutionDocument } from '../read-models/action-executions';

/** Every minute: the grace past a call's deadline is a minute. */
const SWEEP_CRON = '* * * * *';
const BATCH = 100;

/**
 * Ends Failed the content action executions left Running by a service that stopped between the
 * record and the call's answer (see the action execution decider), so that their status says so
 * without waiting for the next execute. Runs on the instance that runs the process managers, at
 * start and every minute. The decider checks each again against the stream, so a record whose
 * call was taken after the read model was read is left as it is.
 */
export class InterruptedActions {
  private task: ScheduledTask | null = null;
  private sweeping: Promise<void> = Promise.resolve();
  private inProgress = false;

  constructor(
    private readonly store: ReadStore,
    private readonly commands: ActionCommands,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  start(): void {
    this.task = schedule(SWEEP_CRON, () => this.sweepOnce());
    this.sweepOnce();
  }

  async stop(): Promise<void> {
    await this.task?.stop();
    this.task = null;
    await this.sweeping;
  }

  /** A sweep, unless the last one is still running. */
  private sweepOnce(): void {
    if (this.inProgress) return;
    this.inProgress = true;
    this.sweeping = this.sweep()
      .catch((error: unknown) => this.logger.error({ err: error }, 'ending interrupted content action executions failed'))
      .finally(() => {
        this.inProgress = false;
      });
  }

  private async sweep(): Promise<void> {
    const overdue = new Date(this.clock.now().getTime() - INTERRUPTED_CALL_GRACE_MS).toISOString();
    const ended = new Set<string>();
    for (;;) {
      const records = await this.store.list<ActionExecutionDocument>(ACTION_EXECUTIONS, {
        filter: {
          type: 'and',
          conditions: [
            { type: 'condition', field: 'status', operator: 'e', value: ACTION_STATUS.Running },
            { type: 'condition', field: 'callAccepted', operator: 'e', value: false },
            { type: 'condition', field: 'callDeadline', operator: 'lte', value: overdue },
          ],
        },
        limit: BATCH,
      });
      // Records ended here but not projected yet come back: they are not asked twice.
      const fresh = records.filter((record) => !ended.has(record.operationId));
      if (fresh.length === 0) return;
      for (const { workspaceId, contentId, actionId, operationId } of fresh) {
        await this.commands.endInterrupted({ workspaceId, contentId, actionId, operationId }, { workspaceId, actor: 'system' });
        ended.add(operationId);
      }
      this.logger.warn({ executions: fresh.length }, 'content action executions interrupted before their call was answered ended Failed');
    }
  }
}
