import type { Clock } from '../../infra/clock';
import { OutboundError, type OutboundHttp } from '../../infra/outbound/http';
import { SIGNATURE_HEADER, signatureHeader } from '../../infra/outbound/signature';
import type { AttemptOutcome } from '../../src/domain/webhook-delivery/decider';

/** The response message kept in the log and the test result. */
export const MAX_MESSAGE_LENGTH = 2000;
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const DELIVERY_ID_HEADER = 'Svc-Delivery-Id';

/**
 * Signs and POSTs a webhook body through the outbound module. The answer is never an
 * exception: a request that got no HTTP answer is status 0 with the reason as message.
 */
export class WebhookSender {
  constructor(
    private readonly outbound: OutboundHttp,
    private readonly clock: Clock,
  ) {}

  async send(endpoint: string, secret: string, body: string, headers: Readonly<Record<string, string>>): Promise<AttemptOutcome> {
    const unixSeconds = Math.floor(this.clock.now().getTime() / 1000);
    try {
      const response = await this.outbound.send({
        url: endpoint,
        method: 'POST',
        body,
        timeoutMs: WEBHOOK_TIMEOUT_MS,
        maxResponseBytes: MAX_MESSAGE_LENGTH * 4,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'headless-cms-webhooks',
          [SIGNATURE_HEADER]: signatureHeader(secret, body, unixSeconds),
          ...headers,
        },
      });
      return { statusCode: response.status, success: response.ok, message: response.body.slice(0, MAX_MESSAGE_LENGTH), durationMs: Math.round(response.durationMs) };
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      return { statusCode: 0, success: false, message: error.message.slice(0, MAX_MESSAGE_LENGTH), durationMs: Math.round(error.durationMs) };
    }
  }
}
