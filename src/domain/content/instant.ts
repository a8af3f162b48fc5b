/** A date and time without an offset is read as UTC, not in the server's time zone. */
const NO_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;
/** The one stored format, which compares correctly as a string (years 0000-9999). */
const STORED_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export type InstantReading = { readonly instant: string } | { readonly problem: 'unreadable' | 'out of range' };

/** What an instant that is out of range is told. */
export const INSTANT_RANGE = 'must be a date-time between the years 0000 and 9999';

/**
 * A DateTime value as stored: ISO 8601 UTC with milliseconds. Saves and filters read values
 * alike, so a filter matches what a save stored from the same text.
 */
export function readInstant(text: string): InstantReading {
  const trimmed = text.trim();
  const date = new Date(NO_OFFSET.test(trimmed) ? `${trimmed}Z` : trimmed);
  if (Number.isNaN(date.getTime())) return { problem: 'unreadable' };
  const instant = date.toISOString();
  return STORED_INSTANT.test(instant) ? { instant } : { problem: 'out of range' };
}
