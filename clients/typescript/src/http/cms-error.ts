import type { Problem } from '../generated/api-types';

export type FieldError = NonNullable<Problem['errors']>[number];

export interface CmsErrorDetails {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** The parsed body: problem+json for every error the service makes, anything for a proxy's. */
  readonly body: unknown;
  readonly headers: Headers;
}

const isProblem = (body: unknown): body is Problem =>
  typeof body === 'object' && body !== null && typeof (body as Problem).title === 'string' && typeof (body as Problem).status === 'number';

/** Retry-After is either delay-seconds or an HTTP date (RFC 9110); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** A non-2xx answer of the service (that the called method does not treat as an answer). */
export class CmsError extends Error {
  readonly status: number;
  readonly method: string;
  readonly path: string;
  /** The RFC 9457 body, when the answer was problem+json. */
  readonly problem: Problem | null;
  readonly title: string;
  readonly detail: string;
  /** One entry per offending input field on validation failures (400). */
  readonly errors: readonly FieldError[];
  /** Seconds to wait before retrying, from Retry-After (429, 503); null when not given. */
  readonly retryAfterSeconds: number | null;
  /** The service's X-Request-Id, to find the request in its logs. */
  readonly requestId: string | null;
  /** The service's own id of the request (X-Server-Request-Id), which no client chooses: what bulk undo by request selects by. */
  readonly serverRequestId: string | null;
  readonly body: unknown;

  constructor(details: CmsErrorDetails) {
    const problem = isProblem(details.body) ? details.body : null;
    const title = problem?.title ?? `HTTP ${details.status}`;
    const detail = problem?.detail ?? (typeof details.body === 'string' ? details.body.slice(0, 500) : '');
    super(`${details.method} ${details.path} answered ${details.status} ${title}${detail ? `: ${detail}` : ''}`);
    this.name = 'CmsError';
    this.status = details.status;
    this.method = details.method;
    this.path = details.path;
    this.problem = problem;
    this.title = title;
    this.detail = detail;
    this.errors = problem?.errors ?? [];
    this.retryAfterSeconds = parseRetryAfter(details.headers.get('retry-after'));
    this.requestId = details.headers.get('x-request-id');
    this.serverRequestId = details.headers.get('x-server-request-id');
    this.body = details.body;
  }
}
