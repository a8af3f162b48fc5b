import { IANAZone } from 'luxon';

export const SCHEDULE_ZONE = 'Europe/Rome';

export type Recurrence =
  | { readonly kind: 'interval'; readonly seconds: number }
  | { readonly kind: 'calendar'; readonly times: readonly string[]; readonly daysOfWeek: readonly number[] | null };

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
/** Today plus a full week covers every allowed weekday; one more day is margin. */
const SEARCH_DAYS = 8;

const zone = IANAZone.create(SCHEDULE_ZONE);

/** The first instant strictly after `after` whose Rome wall-clock time is one of `times` on an allowed day. */
export function nextCalendarOccurrence(times: readonly string[], daysOfWeek: readonly number[] | null, after: Date): Date {
  const minutes = minutesOfDay(times);
  const days = allowedDays(daysOfWeek);
  const afterMs = instantMs(after, 'after');
  // Days are walked as wall-clock dates held in UTC milliseconds, so they carry no offset of their own.
  const today = Math.floor(toWallMs(afterMs) / DAY_MS) * DAY_MS;
  for (let day = 0; day <= SEARCH_DAYS; day++) {
    const dayMs = today + day * DAY_MS;
    if (days && !days.has(new Date(dayMs).getUTCDay())) continue;
    for (const minute of minutes) {
      const at = instantOfWall(dayMs + minute * MINUTE_MS);
      if (at > afterMs) return new Date(at);
    }
  }
  throw new Error(`no occurrence within ${SEARCH_DAYS} days`);
}

/**
 * The occurrence that follows one planned at `planned`, skipping any that are not after `now`:
 * interval: planned + k * seconds for the smallest k >= 1 with a result > now (anchored: no drift);
 * calendar: nextCalendarOccurrence(times, days, max(planned, now)).
 */
export function nextOccurrence(recurrence: Recurrence, planned: Date, now: Date): Date {
  const plannedMs = instantMs(planned, 'planned');
  const nowMs = instantMs(now, 'now');
  if (recurrence.kind === 'calendar') {
    return nextCalendarOccurrence(recurrence.times, recurrence.daysOfWeek, new Date(Math.max(plannedMs, nowMs)));
  }
  const stepMs = intervalMs(recurrence.seconds);
  const steps = Math.max(1, Math.floor((nowMs - plannedMs) / stepMs) + 1);
  return new Date(plannedMs + steps * stepMs);
}

/** The first occurrence of a new series created at `now`; callers use fireAtUtc or delaySeconds instead when given. */
export function firstOccurrence(recurrence: Recurrence, now: Date): Date {
  if (recurrence.kind === 'calendar') return nextCalendarOccurrence(recurrence.times, recurrence.daysOfWeek, now);
  return new Date(instantMs(now, 'now') + intervalMs(recurrence.seconds));
}

function minutesOfDay(times: readonly string[]): number[] {
  if (times.length === 0) throw new Error('times must not be empty');
  const minutes = times.map((time) => {
    if (!TIME.test(time)) throw new Error(`invalid time "${time}", expected HH:mm`);
    return Number(time.slice(0, 2)) * 60 + Number(time.slice(3));
  });
  return [...new Set(minutes)].sort((a, b) => a - b);
}

function allowedDays(daysOfWeek: readonly number[] | null): Set<number> | null {
  if (daysOfWeek === null) return null;
  if (daysOfWeek.length === 0) throw new Error('daysOfWeek must not be empty; use null for every day');
  for (const day of daysOfWeek) {
    if (!Number.isInteger(day) || day < 0 || day > 6) throw new Error(`invalid day of week ${day}, expected 0 (Sunday) to 6`);
  }
  return new Set(daysOfWeek);
}

function intervalMs(seconds: number): number {
  if (!Number.isInteger(seconds) || seconds < 1) throw new Error(`invalid interval of ${seconds} seconds`);
  return seconds * 1000;
}

function instantMs(date: Date, name: string): number {
  const ms = date.getTime();
  if (Number.isNaN(ms)) throw new Error(`${name} is not a valid date`);
  return ms;
}

const offsetMs = (utcMs: number): number => zone.offset(utcMs) * MINUTE_MS;
const toWallMs = (utcMs: number): number => utcMs + offsetMs(utcMs);

/**
 * The UTC instant of a Rome wall-clock time (given as UTC milliseconds). Luxon alone would
 * resolve a repeated time to its later instant and move a skipped one forward by the size of
 * the gap (02:30 -> 03:30); the spec wants the earlier instant and the end of the gap.
 * Assumes at most one offset change within a day of `wallMs`, as holds for Rome.
 */
function instantOfWall(wallMs: number): number {
  const before = offsetMs(wallMs - DAY_MS);
  const after = offsetMs(wallMs + DAY_MS);
  const matches = [wallMs - before, wallMs - after].filter((utcMs) => toWallMs(utcMs) === wallMs);
  if (matches.length > 0) return Math.min(...matches);
  // In a gap: the first instant on the later offset is the transition, the next valid instant.
  let low = wallMs - after;
  let high = wallMs - before;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (offsetMs(middle) === after) high = middle;
    else low = middle;
  }
  return high;
}
