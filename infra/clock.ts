/** The one source of time, so tests can move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** ISO 8601 UTC with milliseconds: one fixed format, so stored instants also compare as strings. */
export const isoNow = (clock: Clock) => clock.now().toISOString();
