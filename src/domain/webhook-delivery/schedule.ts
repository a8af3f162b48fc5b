/**
 * When a failed delivery is tried again, in units of WEBHOOK_RETRY_UNIT_MS after the failed
 * attempt: 1, 5, 25, 125 and 625 units. With the default unit of one minute that is 1 min,
 * 5 min, 25 min, about 2 h and about 10 h: six attempts over about 13 hours, after which the
 * entry stays Error.
 */
export const RETRY_DELAYS_IN_UNITS = [1, 5, 25, 125, 625] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_IN_UNITS.length + 1;

/** When to try again after the `attemptInStreak`-th failed attempt (1-based), or null after the last. */
export function nextAttemptAt(failedAt: Date, attemptInStreak: number, unitMs: number): Date | null {
  const delay = RETRY_DELAYS_IN_UNITS[attemptInStreak - 1];
  return delay === undefined ? null : new Date(failedAt.getTime() + delay * unitMs);
}
