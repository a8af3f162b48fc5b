import type { SecretOperation } from './events';

/** Whose wrong guesses are counted: the credential that sent them, or the item they were about. */
export type AttemptScope = 'credential' | 'item';

/** Wrong guesses of one scope since its last success (or since it was quiet long enough). */
export interface AttemptCounter {
  readonly failures: number;
  readonly lastFailureAt: string;
  /** ISO time before which no attempt of this scope is admitted; null while failures are free. */
  readonly blockedUntil: string | null;
}

/**
 * Wrong guesses allowed before back-off starts. An item's value is what is guessed, so it
 * allows few; one server key checks many users' values, so a credential allows more (and as
 * many attempts at once, see attemptsAllowedAtOnce).
 */
const FREE_FAILURES: Record<AttemptScope, number> = { credential: 50, item: 5 };
/** The first block; each further wrong guess doubles it, up to the cap. */
const FIRST_BACKOFF_MS = 1000;
const MAX_BACKOFF_MS = 15 * 60_000;
/** A counter without a wrong guess for this long starts again from zero. */
const QUIET_RESET_MS = 60 * 60_000;

export const attemptCounterId = (workspaceId: string, operation: SecretOperation, scope: AttemptScope, subject: string) =>
  `${workspaceId}:${operation}:${scope}:${subject}`;

/** Wrong guesses that still count at `now`. */
export function failuresAt(counter: AttemptCounter | null, now: Date): number {
  if (!counter || now.getTime() - Date.parse(counter.lastFailureAt) >= QUIET_RESET_MS) return 0;
  return counter.failures;
}

/** The counter after one more wrong guess at `at`: past the free ones, blocked for a doubling delay. */
export function countFailure(counter: AttemptCounter | null, scope: AttemptScope, at: Date): AttemptCounter {
  const failures = failuresAt(counter, at) + 1;
  const beyondFree = failures - FREE_FAILURES[scope];
  const backoffMs = beyondFree < 0 ? null : Math.min(FIRST_BACKOFF_MS * 2 ** beyondFree, MAX_BACKOFF_MS);
  return { failures, lastFailureAt: at.toISOString(), blockedUntil: backoffMs === null ? null : new Date(at.getTime() + backoffMs).toISOString() };
}

/** How long attempts of this scope must still wait; 0 when they may go ahead. */
export function blockedForMs(counter: AttemptCounter | null, now: Date): number {
  return counter?.blockedUntil ? Math.max(0, Date.parse(counter.blockedUntil) - now.getTime()) : 0;
}

/**
 * Attempts of one scope that may run at once: the wrong guesses still free, and at least
 * one. Counting an attempt in flight as a wrong guess keeps a burst from outrunning the
 * counter, which learns of each failure only once it is recorded.
 */
export function attemptsAllowedAtOnce(counter: AttemptCounter | null, scope: AttemptScope, now: Date): number {
  return Math.max(1, FREE_FAILURES[scope] - failuresAt(counter, now));
}
