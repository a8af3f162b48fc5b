import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { ReadModelsBehindError } from '../../commands/aggregate';
import { ReadTimeoutError } from '../../infra/readstore/port';
import { DomainError, ThrottledError, UnavailableError } from '../domain/errors';
import { loggablePath } from './loggable-path';

export interface FieldError {
  readonly field: string;
  readonly message: string;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** An error answered as RFC 9457 problem+json. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
    readonly errors?: readonly FieldError[],
    /** RFC 9457 extension members, beside the standard ones. */
    readonly extensions?: Readonly<Record<string, unknown>>,
  ) {
    super(detail);
    this.name = 'ProblemError';
  }
}

export const badRequest = (detail: string, errors?: FieldError[]) => new ProblemError(400, detail, errors);
export const unauthorized = (detail = 'missing or invalid credentials') => new ProblemError(401, detail);
export const forbidden = (detail: string) => new ProblemError(403, detail);
export const notFoundProblem = (detail: string) => new ProblemError(404, detail);

export function sendProblem(res: Response, status: number, detail: string, errors?: readonly FieldError[], extensions: Readonly<Record<string, unknown>> = {}): void {
  const title = TITLES[status] ?? 'Error';
  const slug = title.toLowerCase().replace(/\s+/g, '-');
  res
    .status(status)
    .type('application/problem+json')
    .send(JSON.stringify({ ...extensions, type: `https://httpstatuses.io/${status}#${slug}`, title, status, detail, ...(errors ? { errors } : {}) }));
}

const DOMAIN_STATUS = { invalid: 400, not_found: 404, conflict: 409, forbidden: 403, throttled: 429, gone: 410, unrecorded: 503, too_large: 413, unavailable: 503 } as const;

/** What a client whose write is saved but not readable yet is asked to wait: the read models are moving, only slowly. */
const READ_MODELS_BEHIND_RETRY_AFTER_SECONDS = 1;
/** What a client is asked to wait while a store is unreachable: about the time a database takes to restart. */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;
const NETWORK_ERROR_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** Shutting down (57P01), crashed (57P02), starting up (57P03), out of connections (53300); class 08 is a lost or refused connection. */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const CONNECTION_EXCEPTION_CLASS = /^08[0-9A-Z]{3}$/;
/** A statement cancelled: by the read statement timeout, or by an operator. */
const QUERY_CANCELED = '57014';
/** Text PostgreSQL cannot hold, which only a request brings: a NUL character in a text value (22021) or in JSON (22P05). */
const UNSTORABLE_TEXT_SQLSTATES = new Set(['22021', '22P05']);

/** The codes of an error and of its causes. Duck-typed: errors raised by Node itself may come from another realm than `Error`. */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  let current = error as { code?: unknown; cause?: unknown } | null | undefined;
  for (let depth = 0; typeof current === 'object' && current !== null && depth < 5; depth++, current = current.cause as typeof current) {
    if (typeof current.code === 'string') codes.push(current.code);
  }
  return codes;
}

/** A store could not be reached, as opposed to a request it refused. */
const isStoreUnavailable = (codes: readonly string[]) =>
  codes.some((code) => NETWORK_ERROR_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code) || CONNECTION_EXCEPTION_CLASS.test(code));

interface BodyParserError {
  type?: string;
  status?: number;
}

export const unknownRoute: RequestHandler = (req, res) => {
  sendProblem(res, 404, `no resource at ${req.method} ${req.path}`);
};

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (error instanceof ProblemError) return sendProblem(res, error.status, error.detail, error.errors, error.extensions);
    if (error instanceof ReadModelsBehindError) {
      logger.warn({ method: req.method, path: loggablePath(req.path) }, 'a write was saved but its read models did not reach it in time');
      res.set('Retry-After', String(READ_MODELS_BEHIND_RETRY_AFTER_SECONDS));
      return sendProblem(res, 503, error.message);
    }
    if (error instanceof DomainError) {
      const errors = (error.kind === 'invalid' || error.kind === 'conflict') && error.problems.length > 0 ? error.problems : undefined;
      if (error instanceof ThrottledError || error instanceof UnavailableError) res.set('Retry-After', String(error.retryAfterSeconds));
      if (error.kind === 'unrecorded') {
        logger.warn({ err: error.cause, method: req.method, path: loggablePath(req.path) }, 'a read was refused: its audit record could not be appended');
        res.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      }
      return sendProblem(res, DOMAIN_STATUS[error.kind], error.message, errors);
    }
    const parserError = error as BodyParserError;
    if (parserError.type === 'entity.parse.failed') return sendProblem(res, 400, 'the request body is not valid JSON', [{ field: 'body', message: 'is not valid JSON' }]);
    if (parserError.type === 'entity.too.large') return sendProblem(res, 413, 'the request body is too large');
    if (parserError.type === 'encoding.unsupported' || parserError.type === 'charset.unsupported') return sendProblem(res, 415, 'unsupported body encoding');
    if (typeof parserError.status === 'number' && parserError.status >= 400 && parserError.status < 500) {
      return sendProblem(res, parserError.status, 'the request could not be read');
    }
    const codes = codesOf(error);
    if (codes.some((code) => UNSTORABLE_TEXT_SQLSTATES.has(code))) return sendProblem(res, 400, 'the request holds a NUL character (\\u0000), which no stored text can hold');
    if (codes.includes(QUERY_CANCELED) || error instanceof ReadTimeoutError) {
      logger.warn({ err: error, method: req.method, path: req.path }, 'a query was cancelled');
      return sendProblem(res, 503, 'the query ran longer than the read statement timeout allows; narrow its filter or ask for smaller pages');
    }
    if (isStoreUnavailable(codes)) {
      logger.warn({ err: error, method: req.method, path: loggablePath(req.path) }, 'a store is unreachable');
      res.set('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      return sendProblem(res, 503, 'a data store is unreachable; retry after the Retry-After delay');
    }
    logger.error({ err: error, method: req.method, path: loggablePath(req.path) }, 'request failed');
    sendProblem(res, 500, 'the server failed to answer this request');
  };
}
