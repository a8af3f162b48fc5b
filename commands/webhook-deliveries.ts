import { webhookDeliveryDecider, type AttemptOutcome } from '../src/domain/webhook-delivery/decider';
import { webhookDeliveryEvent, type WebhookDeliveryQueuedData, webhookDeliveryStream } from '../src/domain/webhook-delivery/events';
import { DomainError } from '../src/domain/errors';
import type { CommandContext, CommandRunner } from './aggregate';

export const webhookDeliveryAggregate = { decider: webhookDeliveryDecider, parse: webhookDeliveryEvent.parse };

export interface DeliveryRef {
  readonly workspaceId: string;
  readonly webhookId: string;
  readonly deliveryId: string;
}

export class WebhookDeliveryCommands {
  constructor(
    private readonly runner: CommandRunner,
    private readonly retryUnitMs: number,
  ) {}

  /**
   * Idempotent: queuing the same delivery id twice queues it once. With `claimAt` the first
   * attempt is claimed in the same append, and the caller sends it: true when this call queued
   * (and so claimed) it. Nothing reads the entry back before it is sent, so the append does not
   * wait for the read models.
   */
  async queue(data: WebhookDeliveryQueuedData, context: CommandContext, claimAt?: Date): Promise<boolean> {
    const command = { type: 'QueueDelivery' as const, data, ...(claimAt ? { claimAt: claimAt.toISOString() } : {}) };
    const stream = webhookDeliveryStream(data.workspaceId, data.deliveryId);
    const { events } = await this.runner.create(webhookDeliveryAggregate, stream, command, context, { waitForReadModels: false });
    return events.some((event) => event.type === 'WebhookDeliveryStarted');
  }

  /**
   * Claims the attempt; false when another instance claimed it first. Winning the append is
   * the claim, so it does not wait for the read models.
   */
  async claim(ref: DeliveryRef, attempt: number, at: Date, context: CommandContext): Promise<boolean> {
    try {
      await this.runner.run(
        webhookDeliveryAggregate,
        webhookDeliveryStream(ref.workspaceId, ref.deliveryId),
        { type: 'ClaimAttempt', data: { ...ref, attempt, at: at.toISOString() } },
        context,
        { waitForReadModels: false },
      );
      return true;
    } catch (error) {
      if (error instanceof DomainError && error.kind === 'conflict') return false;
      throw error;
    }
  }

  /** Returns the next attempt's time, or null when the entry is settled (sent, or failed for good). */
  async recordAttempt(ref: DeliveryRef, attempt: number, at: Date, outcome: AttemptOutcome, context: CommandContext): Promise<string | null> {
    const { events } = await this.runner.run(
      webhookDeliveryAggregate,
      webhookDeliveryStream(ref.workspaceId, ref.deliveryId),
      { type: 'RecordAttempt', data: { ...ref, ...outcome, attempt, at: at.toISOString(), retryUnitMs: this.retryUnitMs } },
      context,
    );
    const recorded = events[0];
    return recorded?.type === 'WebhookDeliveryAttempted' ? recorded.data.nextAttemptAt : null;
  }

  async requestRetry(ref: DeliveryRef, at: Date, context: CommandContext): Promise<void> {
    await this.runner.run(
      webhookDeliveryAggregate,
      webhookDeliveryStream(ref.workspaceId, ref.deliveryId),
      { type: 'RequestRetry', data: { ...ref, at: at.toISOString() } },
      context,
    );
  }
}
