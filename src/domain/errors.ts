export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict' | 'forbidden';

/** A rule of the domain said no. The HTTP layer maps kinds to 400, 404, 409 and 403. */
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
