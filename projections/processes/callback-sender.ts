import type { Clock } from '../../infra/clock';
import { OutboundError, type OutboundHttp, type OutboundMethod } from '../../infra/outbound/http';
import { SIGNATURE_HEADER, signatureHeader } from '../../infra/outbound/signature';

/** The response message kept in logs and test results. */
export const MAX_MESSAGE_LENGTH = 2000;
export const CALLBACK_TIMEOUT_MS = 10_000;
export const DELIVERY_ID_HEADER = 'Svc-Delivery-Id';

export interface Callback {
  readonly url: string;
  readonly method?: OutboundMethod;
  /** Empty for none. */
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Signs the body (`Svc-Signature`) when given. */
  readonly secret: string | null;
  /** Default CALLBACK_TIMEOUT_MS. */
  readonly timeoutMs?: number;
  /** Characters of the response kept as the outcome's message; default MAX_MESSAGE_LENGTH. */
  readonly maxMessageLength?: number;
}

export interface CallbackOutcome {
  readonly statusCode: number;
  /** 2xx */
  readonly success: boolean;
  readonly message: string;
  readonly durationMs: number;
}

/**
 * Sends the service's callbacks (webhook deliveries and pings, scheduled jobs, content actions) through the
 * outbound module, signed when a secret is given. The answer is never an exception: a
 * request that got no HTTP answer is status 0 with the reason as message.
 */
export class CallbackSender {
  constructor(
    private readonly outbound: OutboundHttp,
    private readonly clock: Clock,
  ) {}

  async send(callback: Callback): Promise<CallbackOutcome> {
    const headers: Record<string, string> = { 'user-agent': 'headless-cms', ...callback.headers };
    if (callback.body !== '') headers['content-type'] ??= 'application/json';
    if (callback.secret) headers[SIGNATURE_HEADER] = signatureHeader(callback.secret, callback.body, Math.floor(this.clock.now().getTime() / 1000));
    const maxMessageLength = callback.maxMessageLength ?? MAX_MESSAGE_LENGTH;
    try {
      const response = await this.outbound.send({
        url: callback.url,
        method: callback.method ?? 'POST',
        headers,
        ...(callback.body === '' ? {} : { body: callback.body }),
        timeoutMs: callback.timeoutMs ?? CALLBACK_TIMEOUT_MS,
        maxResponseBytes: maxMessageLength * 4,
      });
      return { statusCode: response.status, success: response.ok, message: response.body.slice(0, maxMessageLength), durationMs: Math.round(response.durationMs) };
    } catch (error) {
      if (!(error instanceof OutboundError)) throw error;
      return { statusCode: 0, success: false, message: error.message.slice(0, MAX_MESSAGE_LENGTH), durationMs: Math.round(error.durationMs) };
    }
  }
}
