export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict' | 'forbidden' | 'throttled';

/** A rule of the domain said no. The HTTP layer maps kinds to 400, 404, 409, 403 and 429. */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** The input field the error is about, when there is one. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (message: string, field?: string) => new DomainError('invalid', message, field);
export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);

/** Too many attempts: the caller may try again after `retryAfterSeconds` (429 with Retry-After). */
export class ThrottledError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('throttled', message);
    this.name = 'ThrottledError';
  }
}
