import type { Logger } from 'pino';
import { PeriodicSweep } from './periodic-sweep';
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
  constructor(
    private readonly store: ReadStore,
    private readonly commands: ActionCommands,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  private readonly periodic = new PeriodicSweep(SWEEP_CRON, () => this.sweep(), (error: unknown) => this.logger.error({ err: error }, 'ending interrupted content action executions failed'));

  start(): void {
    this.periodic.start();
  }

  stop(): Promise<void> {
    return this.periodic.stop();
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
