export type DomainErrorKind = 'invalid' | 'not_found' | 'conflict' | 'forbidden' | 'throttled' | 'gone' | 'unrecorded' | 'too_large' | 'unavailable';

/** One offending input field: its path (`fields.price`, `translations.title.fr`) and what is wrong. */
export interface FieldProblem {
  readonly field: string;
  readonly message: string;
}

/** A rule of the domain said no. The HTTP layer maps kinds to 400, 404, 409, 403, 429, 410, 503 (unrecorded, unavailable) and 413. */
export class DomainError extends Error {
  /** Every input field the error is about (an invalid input names them all at once). */
  readonly problems: readonly FieldProblem[];

  constructor(
    readonly kind: DomainErrorKind,
    message: string,
    /** The input field the error is about, when there is one. */
    readonly field?: string,
    problems?: readonly FieldProblem[],
  ) {
    super(message);
    this.name = 'DomainError';
    this.problems = problems ?? (field === undefined ? [] : [{ field, message }]);
  }
}

export const invalid = (message: string, field?: string) => new DomainError('invalid', message, field);
/** An input with several bad fields, each reported; `problems` must not be empty. */
export const invalidFields = (problems: readonly FieldProblem[]) =>
  new DomainError('invalid', problems.map((problem) => `${problem.field} ${problem.message}`).join('; '), problems[0]?.field, problems);
export const notFound = (message: string) => new DomainError('not_found', message);
export const conflict = (message: string) => new DomainError('conflict', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
/** More than a quota allows (413). */
export const tooLarge = (message: string, field?: string) => new DomainError('too_large', message, field);
/** What was there is gone for good (an erased content item). */
export const gone = (message: string) => new DomainError('gone', message);
/** A read refused because its record could not be appended to the audit trail (503): no read goes unrecorded. */
export const unrecorded = (message: string, cause: unknown) => Object.assign(new DomainError('unrecorded', message), { cause });

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

/** Not answerable yet, with no wrong answer given instead: the caller may try again after `retryAfterSeconds` (503 with Retry-After). */
export class UnavailableError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('unavailable', message);
    this.name = 'UnavailableError';
  }
}
