import { DateTime } from 'luxon';
import {
  SCHEDULE_ZONE,
  firstOccurrence,
  nextCalendarOccurrence,
  nextOccurrence,
  type Recurrence,
} from '../../src/domain/scheduled-job/recurrence';

const at = (iso: string): Date => new Date(iso);
const iso = (date: Date): string => date.toISOString();
const daily = (...times: string[]): Recurrence => ({ kind: 'calendar', times, daysOfWeek: null });

/** The series walked with nextOccurrence from `planned`, each run on time. */
const walk = (recurrence: Recurrence, planned: string, count: number): string[] => {
  const instants: string[] = [];
  let current = at(planned);
  for (let i = 0; i < count; i++) {
    current = nextOccurrence(recurrence, current, current);
    instants.push(iso(current));
  }
  return instants;
};

describe('recurrence', () => {
  describe('interval', () => {
    const hourly: Recurrence = { kind: 'interval', seconds: 3600 };

    it('is anchored to the planned time, not to when the late run happened', () => {
      expect(iso(nextOccurrence(hourly, at('2026-01-15T10:00:00Z'), at('2026-01-15T10:07:42Z')))).toBe('2026-01-15T11:00:00.000Z');
    });

    it('after downtime, skips the missed occurrences to the next future one on the cadence grid', () => {
      const quarter: Recurrence = { kind: 'interval', seconds: 900 };
      expect(iso(nextOccurrence(quarter, at('2026-01-01T00:00:00Z'), at('2026-01-03T05:07:30Z')))).toBe('2026-01-03T05:15:00.000Z');
    });

    it('is strictly after now, even when now is on the grid', () => {
      expect(iso(nextOccurrence(hourly, at('2026-01-15T10:00:00Z'), at('2026-01-15T12:00:00Z')))).toBe('2026-01-15T13:00:00.000Z');
      expect(iso(nextOccurrence(hourly, at('2026-01-15T10:00:00Z'), at('2026-01-15T11:00:00Z')))).toBe('2026-01-15T12:00:00.000Z');
    });

    it('is one interval after planned when now is earlier still', () => {
      expect(iso(nextOccurrence(hourly, at('2026-01-15T10:00:00Z'), at('2026-01-15T09:59:00Z')))).toBe('2026-01-15T11:00:00.000Z');
    });

    it('starts a new series one interval after now', () => {
      expect(iso(firstOccurrence({ kind: 'interval', seconds: 60 }, at('2026-01-15T10:00:30Z')))).toBe('2026-01-15T10:01:30.000Z');
    });
  });

  describe('calendar', () => {
    // 2026-01-15 is a Thursday; Rome is on CET (UTC+1) in January.
    it('fires at several times per day in order, whatever the order and repetition given', () => {
      const times = ['18:00', '09:00', '12:30', '09:00'];
      expect(iso(nextCalendarOccurrence(times, null, at('2026-01-15T07:00:00Z')))).toBe('2026-01-15T08:00:00.000Z');
      expect(iso(nextCalendarOccurrence(times, null, at('2026-01-15T08:00:00Z')))).toBe('2026-01-15T11:30:00.000Z');
      expect(iso(nextCalendarOccurrence(times, null, at('2026-01-15T11:30:00Z')))).toBe('2026-01-15T17:00:00.000Z');
      expect(iso(nextCalendarOccurrence(times, null, at('2026-01-15T17:00:00Z')))).toBe('2026-01-16T08:00:00.000Z');
    });

    it('keeps to the allowed days of week, 0 being Sunday', () => {
      expect(iso(nextCalendarOccurrence(['09:00'], [0], at('2026-01-15T07:00:00Z')))).toBe('2026-01-18T08:00:00.000Z');
      expect(iso(nextCalendarOccurrence(['09:00'], [1, 3], at('2026-01-15T07:00:00Z')))).toBe('2026-01-19T08:00:00.000Z');
      expect(iso(nextCalendarOccurrence(['09:00'], [4, 6], at('2026-01-15T07:00:00Z')))).toBe('2026-01-15T08:00:00.000Z');
      expect(iso(nextCalendarOccurrence(['09:00'], [4], at('2026-01-15T08:00:00Z')))).toBe('2026-01-22T08:00:00.000Z');
    });

    it('judges the day of week in Rome, not in UTC', () => {
      // Monday 00:30 in Rome is Sunday 23:30 in UTC.
      expect(iso(nextCalendarOccurrence(['00:30'], [1], at('2026-01-18T12:00:00Z')))).toBe('2026-01-18T23:30:00.000Z');
    });

    it('takes a later time the same day, else the first time the next day', () => {
      expect(iso(nextCalendarOccurrence(['09:00', '11:00'], null, at('2026-01-15T09:00:00Z')))).toBe('2026-01-15T10:00:00.000Z');
      expect(iso(nextCalendarOccurrence(['09:00', '11:00'], null, at('2026-01-15T10:00:01Z')))).toBe('2026-01-16T08:00:00.000Z');
    });

    it('is strictly after `after`: an occurrence exactly at `after` gives the next one', () => {
      expect(iso(nextCalendarOccurrence(['09:00'], null, at('2026-01-15T08:00:00Z')))).toBe('2026-01-16T08:00:00.000Z');
      expect(iso(nextCalendarOccurrence(['09:00'], null, at('2026-01-15T07:59:59.999Z')))).toBe('2026-01-15T08:00:00.000Z');
    });

    it('starts a new series at the next matching occurrence', () => {
      expect(iso(firstOccurrence({ kind: 'calendar', times: ['09:00'], daysOfWeek: [0] }, at('2026-01-15T07:00:00Z')))).toBe('2026-01-18T08:00:00.000Z');
    });

    it('after downtime, resumes at the next future match and replays none', () => {
      const mondays: Recurrence = { kind: 'calendar', times: ['09:00'], daysOfWeek: [1] };
      expect(iso(nextOccurrence(daily('09:00'), at('2026-01-05T08:00:00Z'), at('2026-02-10T15:00:00Z')))).toBe('2026-02-11T08:00:00.000Z');
      expect(iso(nextOccurrence(mondays, at('2026-01-05T08:00:00Z'), at('2026-02-10T15:00:00Z')))).toBe('2026-02-16T08:00:00.000Z');
    });

    it('follows the planned time when the run is early or on time', () => {
      expect(iso(nextOccurrence(daily('09:00', '18:00'), at('2026-01-15T08:00:00Z'), at('2026-01-15T07:00:00Z')))).toBe('2026-01-15T17:00:00.000Z');
      expect(iso(nextOccurrence(daily('09:00', '18:00'), at('2026-01-15T08:00:00Z'), at('2026-01-15T08:00:02Z')))).toBe('2026-01-15T17:00:00.000Z');
    });
  });

  describe.each([
    { year: 2026, springForward: '2026-03-29', fallBack: '2026-10-25' },
    { year: 2027, springForward: '2027-03-28', fallBack: '2027-10-31' },
  ])('daylight saving in Europe/Rome, $year', ({ springForward, fallBack }) => {
    const shift = (day: string, days: number): string => DateTime.fromISO(day, { zone: 'utc' }).plus({ days }).toISODate() ?? '';
    const dayBefore = (day: string): string => shift(day, -1);
    const dayAfter = (day: string): string => shift(day, 1);

    it('puts 09:00 at 08:00Z in winter and 07:00Z in summer, on either side of each change', () => {
      expect(iso(nextCalendarOccurrence(['09:00'], null, at(`${dayBefore(springForward)}T00:00:00Z`)))).toBe(`${dayBefore(springForward)}T08:00:00.000Z`);
      expect(iso(nextCalendarOccurrence(['09:00'], null, at(`${dayBefore(springForward)}T08:00:00Z`)))).toBe(`${springForward}T07:00:00.000Z`);
      expect(iso(nextCalendarOccurrence(['09:00'], null, at(`${dayBefore(fallBack)}T00:00:00Z`)))).toBe(`${dayBefore(fallBack)}T07:00:00.000Z`);
      expect(iso(nextCalendarOccurrence(['09:00'], null, at(`${dayBefore(fallBack)}T07:00:00Z`)))).toBe(`${fallBack}T08:00:00.000Z`);
    });

    it('fires a 02:30 that does not exist on the spring-forward day at 03:00 CEST, 01:00Z', () => {
      expect(iso(nextCalendarOccurrence(['02:30'], null, at(`${dayBefore(springForward)}T12:00:00Z`)))).toBe(`${springForward}T01:00:00.000Z`);
      expect(walk(daily('02:30'), `${dayBefore(springForward)}T01:30:00Z`, 3)).toEqual([
        `${springForward}T01:00:00.000Z`,
        `${dayAfter(springForward)}T00:30:00.000Z`,
        `${shift(springForward, 2)}T00:30:00.000Z`,
      ]);
    });

    it('fires once when a skipped time and 03:00 land on the same instant', () => {
      expect(walk(daily('02:30', '03:00', '03:15'), `${dayBefore(springForward)}T02:15:00Z`, 3)).toEqual([
        `${springForward}T01:00:00.000Z`,
        `${springForward}T01:15:00.000Z`,
        `${dayAfter(springForward)}T00:30:00.000Z`,
      ]);
    });

    it('fires a daily 02:30 once on the fall-back day, at its first (CEST) instant', () => {
      expect(walk(daily('02:30'), `${dayBefore(fallBack)}T00:30:00Z`, 2)).toEqual([`${fallBack}T00:30:00.000Z`, `${dayAfter(fallBack)}T01:30:00.000Z`]);
      // Between the two 02:30s of that day, the repeated one is not due.
      expect(iso(nextCalendarOccurrence(['02:30'], null, at(`${fallBack}T01:00:00Z`)))).toBe(`${dayAfter(fallBack)}T01:30:00.000Z`);
      expect(iso(nextCalendarOccurrence(['02:30'], null, at(`${fallBack}T01:30:00Z`)))).toBe(`${dayAfter(fallBack)}T01:30:00.000Z`);
    });

    it('keeps a daily 09:00 at 09:00 local every day across each change', () => {
      expect(walk(daily('09:00'), `${shift(springForward, -3)}T08:00:00Z`, 5)).toEqual([
        `${shift(springForward, -2)}T08:00:00.000Z`,
        `${dayBefore(springForward)}T08:00:00.000Z`,
        `${springForward}T07:00:00.000Z`,
        `${dayAfter(springForward)}T07:00:00.000Z`,
        `${shift(springForward, 2)}T07:00:00.000Z`,
      ]);
      expect(walk(daily('09:00'), `${shift(fallBack, -3)}T07:00:00Z`, 5)).toEqual([
        `${shift(fallBack, -2)}T07:00:00.000Z`,
        `${dayBefore(fallBack)}T07:00:00.000Z`,
        `${fallBack}T08:00:00.000Z`,
        `${dayAfter(fallBack)}T08:00:00.000Z`,
        `${shift(fallBack, 2)}T08:00:00.000Z`,
      ]);
      const local = walk(daily('09:00'), `${shift(springForward, -10)}T08:00:00Z`, 240).map((instant) =>
        DateTime.fromISO(instant, { zone: SCHEDULE_ZONE }).toFormat('HH:mm'),
      );
      expect(new Set(local)).toEqual(new Set(['09:00']));
    });
  });

  describe('invalid input', () => {
    const after = at('2026-01-15T00:00:00Z');

    it.each(['9:00', '24:00', '12:60', '12:5', '', ' 09:00', '09:00:00'])('throws on time %j', (time) => {
      expect(() => nextCalendarOccurrence([time], null, after)).toThrow(Error);
    });

    it('throws on no times', () => {
      expect(() => nextCalendarOccurrence([], null, after)).toThrow(Error);
    });

    it.each([[[7]], [[-1]], [[1.5]], [[Number.NaN]], [[]]])('throws on days of week %j', (days) => {
      expect(() => nextCalendarOccurrence(['09:00'], days, after)).toThrow(Error);
    });

    it.each([0, -60, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('throws on an interval of %p seconds', (seconds) => {
      expect(() => nextOccurrence({ kind: 'interval', seconds }, after, after)).toThrow(Error);
      expect(() => firstOccurrence({ kind: 'interval', seconds }, after)).toThrow(Error);
    });

    it('throws on an invalid date', () => {
      expect(() => nextCalendarOccurrence(['09:00'], null, at('not a date'))).toThrow(Error);
      expect(() => nextOccurrence({ kind: 'interval', seconds: 60 }, at('not a date'), after)).toThrow(Error);
      expect(() => firstOccurrence(daily('09:00'), at('not a date'))).toThrow(Error);
    });
  });
});
