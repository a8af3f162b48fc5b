import type { Logger } from 'pino';
import type { Counter } from 'prom-client';
import type { WebhookDeliveryCommands } from '../../commands/webhook-deliveries';
import type { WebhookCommands } from '../../commands/webhooks';
import type { Clock } from '../../infra/clock';
import type { Mailer } from '../../infra/mail/mailer';
import type { ReadStore } from '../../infra/readstore/port';
import type { WebhookQueries } from '../../queries/webhooks';
import type { AttemptOutcome } from '../../src/domain/webhook-delivery/decider';
import type { WebhookDeliveryQueuedData } from '../../src/domain/webhook-delivery/events';
import { DomainError } from '../../src/domain/errors';
import { deliveryDocumentId, PROCESS_STATUS, WEBHOOK_DELIVERIES, type WebhookDeliveryDocument } from '../read-models/webhook-deliveries';
import { WEBHOOKS, webhookDocumentId, type WebhookDocument } from '../read-models/webhooks';
import { webhookEnvelope } from './webhook-envelope';
import { type CallbackSender, DELIVERY_ID_HEADER } from './callback-sender';
import { type DueLook, DueWorkLoop } from './due-work-loop';

/** What sending an entry needs: the queued delivery (a log entry has it, and so has the queue). */
export type DeliveryToSend = Omit<WebhookDeliveryQueuedData, 'sourceEventId'>;

export interface DispatcherOptions {
  /** Deliveries sent at once; default 256. */
  readonly maxInFlight?: number;
  /** Longest sleep between looks for due entries; default 1 s. */
  readonly pollMs?: number;
  /** Counts attempts by outcome: sent, retry, error. */
  readonly outcomes?: Pick<Counter<'outcome'>, 'inc'>;
  /** Opens the sealed values of a personal-data item's delivery; undefined once the item is erased. */
  readonly openSealed?: (delivery: DeliveryToSend & { readonly sealed: string }) => Promise<Record<string, unknown> | undefined>;
}

/**
 * Sends Waiting delivery entries when they are due and records each attempt through the
 * delivery's command (which schedules the retry or settles the entry). Each attempt is first
 * claimed with an event appended at the expected revision, so one instance sends it; a claim
 * whose outcome is not recorded within DELIVERY_CLAIM_TIMEOUT_MS (its instance stopped) is taken
 * over. Entries live in the read model, so a restart loses nothing; a crash between the answer
 * and the record sends the entry again: receivers de-duplicate by the Svc-Delivery-Id header.
 * A failure that exhausts the schedule starts a failing streak on the webhook, which is
 * e-mailed once; the next success ends the streak.
 */
export class WebhookDispatcher extends DueWorkLoop<WebhookDeliveryDocument> {
  constructor(
    private readonly store: ReadStore,
    private readonly webhooks: WebhookQueries,
    private readonly webhookCommands: WebhookCommands,
    private readonly deliveries: WebhookDeliveryCommands,
    private readonly sender: CallbackSender,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    logger: Logger,
    private readonly options: DispatcherOptions = {},
  ) {
    super(logger, options.maxInFlight ?? 256, options.pollMs ?? 1000);
  }

  /** Sends the first attempt of an entry this instance claimed while queuing it. */
  deliverClaimed(delivery: DeliveryToSend): void {
    // Not sent now (stopping, or already in hand): the claim times out and a look takes it over.
    this.track(deliveryDocumentId(delivery.workspaceId, delivery.deliveryId), () => this.sendClaimed(delivery, 1));
  }

  /** Waiting entries that are due, and Processing ones whose claim is past its timeout. */
  protected async findDue(limit: number): Promise<DueLook<WebhookDeliveryDocument>> {
    const now = this.clock.now().toISOString();
    const [waiting, lost] = await Promise.all(
      [PROCESS_STATUS.Waiting, PROCESS_STATUS.Processing].map((status) =>
        this.store.list<WebhookDeliveryDocument>(WEBHOOK_DELIVERIES, {
          filter: {
            type: 'and',
            conditions: [
              { type: 'condition', field: 'processStatus', operator: 'e', value: status },
              { type: 'condition', field: 'nextAttemptAt', operator: 'lte', value: now },
            ],
          },
          sort: [{ field: 'nextAttemptAt', direction: 'asc' }],
          limit,
        }),
      ),
    );
    return { items: [...waiting!, ...lost!], full: waiting!.length === limit };
  }

  /** Claims the due attempt, then sends it. */
  protected async work(entry: WebhookDeliveryDocument): Promise<void> {
    const attempt = entry.attempts.length + 1;
    // The claim keeps another instance from sending the same attempt.
    const ref = { workspaceId: entry.workspaceId, webhookId: entry.webhookId, deliveryId: entry.deliveryId };
    if (!(await this.deliveries.claim(ref, attempt, this.clock.now(), { workspaceId: entry.workspaceId, actor: 'system' }))) return;
    await this.sendClaimed(entry, attempt);
  }

  private async sendClaimed(entry: DeliveryToSend, attempt: number): Promise<void> {
    const ref = { workspaceId: entry.workspaceId, webhookId: entry.webhookId, deliveryId: entry.deliveryId };
    const context = { workspaceId: entry.workspaceId, actor: 'system' };
    const webhook = await this.store.get<WebhookDocument>(WEBHOOKS, webhookDocumentId(entry.workspaceId, entry.webhookId));
    const outcome = await this.attempt(entry, webhook);
    let next: string | null;
    try {
      next = await this.deliveries.recordAttempt(ref, attempt, this.clock.now(), outcome, context);
    } catch (error) {
      // The claim was taken over (this attempt outlived its timeout) and recorded elsewhere.
      if (error instanceof DomainError && error.kind === 'conflict') return;
      throw error;
    }
    this.options.outcomes?.inc({ outcome: outcome.success ? 'sent' : next === null ? 'error' : 'retry' });
    if (next !== null) this.wakeIn(Date.parse(next) - this.clock.now().getTime());
    // A deleted or disabled webhook is not failing: its entries end without a streak or an e-mail.
    if (!webhook?.enabled) return;
    if (outcome.success && webhook.failing) await this.webhookCommands.reportDelivery(true, entry.workspaceId, entry.webhookId, entry.deliveryId, context);
    if (!outcome.success && next === null) {
      const streakStarted = await this.webhookCommands.reportDelivery(false, entry.workspaceId, entry.webhookId, entry.deliveryId, context);
      if (streakStarted) await this.notifyFailure(webhook, entry, attempt, outcome);
    }
  }

  private async attempt(entry: DeliveryToSend, webhook: WebhookDocument | null): Promise<AttemptOutcome> {
    if (!webhook) return { statusCode: 0, success: false, message: 'the webhook was deleted', durationMs: 0 };
    if (!webhook.enabled) return { statusCode: 0, success: false, message: 'the webhook is disabled', durationMs: 0 };
    let sent: DeliveryToSend | null;
    let secret: string;
    try {
      sent = await this.opened(entry);
      secret = await this.webhooks.signingSecret(webhook);
    } catch (error) {
      // The workspace's data key was shredded: the signing secret (and sealed values) will never open again.
      if (error instanceof DomainError && error.kind === 'gone') return { statusCode: 0, success: false, final: true, message: `not sent: ${error.message}`, durationMs: 0 };
      throw error;
    }
    if (!sent) return { statusCode: 0, success: false, message: 'the content item was erased: its values are not sent', durationMs: 0 };
    const body = JSON.stringify(sent.customPayload ?? webhookEnvelope(sent));
    return this.sender.send({ url: webhook.endpoint, body, headers: { [DELIVERY_ID_HEADER]: entry.deliveryId }, secret });
  }

  /** The entry with its values: a sealed one opened under its item's key; null when that key is shredded. */
  private async opened(entry: DeliveryToSend): Promise<DeliveryToSend | null> {
    if (entry.sealed === undefined) return entry;
    const values = await this.options.openSealed?.({ ...entry, sealed: entry.sealed });
    if (values === undefined) return null;
    const { sealed: _sealed, ...rest } = entry;
    return { ...rest, ...(values as Pick<DeliveryToSend, 'fields' | 'translations' | 'customPayload'>) };
  }

  private async notifyFailure(webhook: WebhookDocument, entry: DeliveryToSend, attempts: number, outcome: AttemptOutcome): Promise<void> {
    const to = webhook.errorEmailTo.split(',').map((address) => address.trim()).filter((address) => address.length > 0);
    if (to.length === 0) return;
    try {
      await this.mailer.send({
        to,
        subject: `Webhook deliveries to ${endpointForMail(webhook.endpoint)} are failing`,
        text: [
          `Delivery ${entry.deliveryId} of webhook ${webhook.webhookId} (workspace ${webhook.workspaceId}) failed after ${attempts} attempts.`,
          `Last answer: ${outcome.statusCode === 0 ? 'no HTTP answer' : `HTTP ${outcome.statusCode}`}: ${outcome.message.slice(0, 500)}`,
          'Further failures are not e-mailed until a delivery to this webhook succeeds again.',
        ].join('\n'),
      });
    } catch (error) {
      this.logger.error({ err: error, webhookId: webhook.webhookId }, 'failure e-mail could not be sent');
    }
  }




}

/** The endpoint without credentials or query, which may carry tokens: safe in an e-mail. */
function endpointForMail(endpoint: string): string {
  try {
    const url = new URL(endpoint);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return 'its endpoint';
  }
}
