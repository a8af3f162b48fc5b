import { foldEvents } from '../../src/domain/decider';
import { retryDelayMs } from '../../src/domain/scheduled-job/backoff';
import { CLAIM_TIMEOUT_MS, scheduledJobDecider, type ScheduledJobCommand } from '../../src/domain/scheduled-job/decider';
import { scheduledJobEvent, type JobScheduledData, type ScheduledJobEvent } from '../../src/domain/scheduled-job/events';
import { givenWhenThen, kindOf } from './decider-spec';

const decide = givenWhenThen(scheduledJobDecider);
const fold = (events: ScheduledJobEvent[]) => foldEvents(scheduledJobDecider, events);
const unit = 60_000;
const ref = { jobId: 'job-1', workspaceId: 'ws' };
const other = { workspaceId: 'ws-other' };
const T0 = Date.parse('2024-05-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const scheduledData = (maxRetries = 5): JobScheduledData => ({
  ...ref,
  seriesId: 'series-1',
  occurrenceNumber: 1,
  name: 'nightly export',
  callbackUrl: 'https://example.test/hook',
  method: 'POST',
  sealedHeaders: 'sealed-x-token',
  headerNames: ['x-token'],
  payload: { hello: 'world' },
  maxRetries,
  idempotencyKey: 'key-1',
  seriesIdempotencyKey: 'key-1',
  correlationId: null,
  recurrence: null,
  endAtUtc: null,
  maxOccurrences: null,
  plannedAt: iso(T0),
});
const scheduled = (maxRetries = 5): ScheduledJobEvent => ({ type: 'JobScheduled', data: scheduledData(maxRetries) });

const outcome = (success: boolean) => ({ statusCode: success ? 200 : 500, message: success ? 'OK' : 'Internal Server Error', durationMs: 42 });

const schedule = (maxRetries = 5, overrides: Partial<typeof ref> = {}): ScheduledJobCommand => ({
  type: 'ScheduleJob',
  data: { ...scheduledData(maxRetries), ...overrides },
});
const fire = (attempt: number, at: string, overrides: Partial<typeof ref> = {}): ScheduledJobCommand => ({
  type: 'FireJob',
  data: { ...ref, ...overrides, attempt, at },
});
const record = (attempt: number, at: string, success: boolean, overrides: Partial<typeof ref> = {}, backoffUnitMs = unit): ScheduledJobCommand => ({
  type: 'RecordJobAttempt',
  data: { ...ref, ...overrides, ...outcome(success), attempt, at, success, backoffUnitMs },
});
const cancel = (at: string, overrides: Partial<typeof ref> = {}): ScheduledJobCommand => ({ type: 'CancelJob', data: { ...ref, ...overrides, at } });

const fired = (attempt: number, at: string): ScheduledJobEvent => ({ type: 'JobFired', data: { ...ref, attempt, at } });
const succeeded = (attempt: number, at: string): ScheduledJobEvent => ({ type: 'JobSucceeded', data: { ...ref, ...outcome(true), attempt, at } });
const failed = (attempt: number, at: string, retryAt: string): ScheduledJobEvent => ({
  type: 'JobFailed',
  data: { ...ref, ...outcome(false), attempt, at, retryAt },
});
const deadLettered = (attempt: number, at: string): ScheduledJobEvent => ({ type: 'JobDeadLettered', data: { ...ref, ...outcome(false), attempt, at } });
const cancelled = (at: string): ScheduledJobEvent => ({ type: 'JobCancelled', data: { ...ref, at } });

/** Each emitted event must survive the stream's schema unchanged (no missing, extra or mistyped fields). */
const expectParses = (events: ScheduledJobEvent[]) => {
  for (const event of events) expect(scheduledJobEvent.parse(event)).toEqual(event);
};

/**
 * From a Pending `history`, claims and fails `count` attempts through the decider, each claimed
 * at the previous retryAt (the first at `startMs`) and failing 5 s after its claim.
 */
function failRepeatedly(history: ScheduledJobEvent[], count: number, startMs = T0): ScheduledJobEvent[] {
  const events = [...history];
  let at = startMs;
  for (let i = 0; i < count; i++) {
    const state = fold(events);
    if (state.status === 'none') throw new Error('no job in history');
    const attempt = state.attempts + 1;
    const claim = decide(events, fire(attempt, iso(at)));
    events.push(...claim);
    const result = decide(events, record(attempt, iso(at + 5_000), false));
    events.push(...result);
    const [event] = result;
    if (event?.type === 'JobFailed') at = Date.parse(event.data.retryAt);
  }
  return events;
}
/** The history of a job whose attempt `attempt` is in flight (claimed at `at`). */
const firingAt = (attempt: number, at: number, maxRetries = 5): ScheduledJobEvent[] => {
  const history = failRepeatedly([scheduled(maxRetries)], attempt - 1);
  return [...history, ...decide(history, fire(attempt, iso(at)))];
};

const pending = [scheduled()];
const firing = [scheduled(), fired(1, iso(T0))];
const done = [...firing, succeeded(1, iso(T0 + 5_000))];
const deadLetter = [scheduled(0), fired(1, iso(T0)), deadLettered(1, iso(T0 + 5_000))];
const cancelledJob = [scheduled(), cancelled(iso(T0))];

describe('scheduled job retry backoff', () => {
  it.each([
    [1, 1],
    [2, 2],
    [3, 4],
    [4, 8],
    [5, 16],
    [6, 32],
    [7, 60],
    [8, 60],
    [20, 60],
  ])('after failed attempt %i, waits %i units (2^(attempts-1), capped at 60)', (attempts, units) => {
    expect(retryDelayMs(attempts, unit)).toBe(units * unit);
    expect(retryDelayMs(attempts, 10)).toBe(units * 10);
  });

  it('caps 2^6 = 64 units at 60 units', () => {
    expect(2 ** 6).toBe(64);
    expect(retryDelayMs(7, unit)).toBe(60 * unit);
    expect(retryDelayMs(6, unit)).toBe(32 * unit);
  });
});

describe('scheduled job decider', () => {
  it('takes a Firing claim to be lost after one minute', () => {
    expect(CLAIM_TIMEOUT_MS).toBe(60_000);
  });

  describe('ScheduleJob: (none) -> Pending', () => {
    it('given no job, when it is scheduled, then JobScheduled and the job is Pending', () => {
      const events = decide([], schedule());
      expect(events).toEqual([scheduled()]);
      expectParses(events);
      expect(fold(events)).toEqual({ status: 'Pending', workspaceId: 'ws', maxRetries: 5, attempts: 0, firedAt: null });
    });

    it('given no job, when a recurring occurrence is scheduled, then its JobScheduled parses with the schema', () => {
      const data: JobScheduledData = {
        ...scheduledData(),
        occurrenceNumber: 3,
        idempotencyKey: 'key-1:3',
        recurrence: { kind: 'calendar', times: ['08:00', '20:30'], daysOfWeek: [1, 3, 5] },
        endAtUtc: '2024-12-31T23:00:00.000Z',
        maxOccurrences: 10,
        correlationId: 'corr-1',
      };
      const events = decide([], { type: 'ScheduleJob', data });
      expect(events).toEqual([{ type: 'JobScheduled', data }]);
      expectParses(events);
    });

    it('given a scheduled job, when it is scheduled again, then nothing (idempotent)', () => {
      expect(decide(pending, schedule())).toEqual([]);
    });

    it.each([
      ['Firing', firing],
      ['Done', done],
      ['DeadLetter', deadLetter],
      ['Cancelled', cancelledJob],
    ])('given a %s job, when it is scheduled again, then nothing', (_status, history) => {
      expect(decide(history, schedule())).toEqual([]);
      expect(decide(history, schedule(0))).toEqual([]);
    });
  });

  describe('FireJob: Pending -> Firing', () => {
    it('given a Pending job, when attempt 1 is claimed, then JobFired and the job is Firing', () => {
      const events = decide(pending, fire(1, iso(T0)));
      expect(events).toEqual([fired(1, iso(T0))]);
      expectParses(events);
      expect(fold([...pending, ...events])).toEqual({ status: 'Firing', workspaceId: 'ws', maxRetries: 5, attempts: 1, firedAt: iso(T0) });
    });

    it('given a Pending job after a failure, when attempt attempts+1 is claimed, then JobFired', () => {
      const history = failRepeatedly(pending, 1);
      expect(fold(history)).toMatchObject({ status: 'Pending', attempts: 1 });
      const at = iso(T0 + 10 * unit);
      const events = decide(history, fire(2, at));
      expect(events).toEqual([fired(2, at)]);
      expectParses(events);
      expect(fold([...history, ...events])).toMatchObject({ status: 'Firing', attempts: 2, firedAt: at });
    });

    it('given a Pending job, when the claim names another attempt than attempts+1, then conflict', () => {
      expect(kindOf(() => decide(pending, fire(0, iso(T0))))).toBe('conflict');
      expect(kindOf(() => decide(pending, fire(2, iso(T0))))).toBe('conflict');
      const once = failRepeatedly(pending, 1);
      expect(kindOf(() => decide(once, fire(1, iso(T0 + unit))))).toBe('conflict');
      expect(kindOf(() => decide(once, fire(3, iso(T0 + unit))))).toBe('conflict');
      expect(kindOf(() => decide(once, fire(2, iso(T0 + unit))))).toBe('ok');
    });

    it('given two instances racing for the same occurrence, then the loser fails on re-deciding against the fresh state', () => {
      const at = iso(T0);
      // Both decide against the same stale Pending state; the store accepts only one append.
      expect(decide(pending, fire(1, at))).toEqual([fired(1, at)]);
      expect(decide(pending, fire(1, iso(T0 + 10)))).toEqual([fired(1, iso(T0 + 10))]);
      const fresh = [...pending, fired(1, at)];
      expect(kindOf(() => decide(fresh, fire(1, iso(T0 + 10))))).toBe('conflict');
      expect(kindOf(() => decide(fresh, fire(2, iso(T0 + 10))))).toBe('conflict');
    });

    it.each([
      ['Done', done],
      ['DeadLetter', deadLetter],
      ['Cancelled', cancelledJob],
    ])('given a %s job, when it is claimed, then conflict (even long after)', (_status, history) => {
      for (const at of [T0 + 5_000, T0 + 24 * 60 * unit]) {
        expect(kindOf(() => decide(history, fire(1, iso(at))))).toBe('conflict');
        expect(kindOf(() => decide(history, fire(2, iso(at))))).toBe('conflict');
      }
    });

    it('given a Firing job, when it is claimed again before the claim timeout, then conflict', () => {
      for (const after of [0, 1, 30_000, CLAIM_TIMEOUT_MS - 1]) {
        expect(kindOf(() => decide(firing, fire(1, iso(T0 + after))))).toBe('conflict');
        expect(kindOf(() => decide(firing, fire(2, iso(T0 + after))))).toBe('conflict');
      }
    });

    it('given a Firing claim older than the claim timeout (lost), when it is claimed again with the same attempt, then JobFired', () => {
      for (const after of [CLAIM_TIMEOUT_MS, CLAIM_TIMEOUT_MS + 1, 24 * 60 * unit]) {
        const at = iso(T0 + after);
        const events = decide(firing, fire(1, at));
        expect(events).toEqual([fired(1, at)]);
        expectParses(events);
        expect(fold([...firing, ...events])).toEqual({ status: 'Firing', workspaceId: 'ws', maxRetries: 5, attempts: 1, firedAt: at });
      }
    });

    it('given a lost claim, when the next attempt number is claimed instead, then conflict', () => {
      expect(kindOf(() => decide(firing, fire(2, iso(T0 + CLAIM_TIMEOUT_MS + 1))))).toBe('conflict');
      expect(kindOf(() => decide(firing, fire(0, iso(T0 + CLAIM_TIMEOUT_MS + 1))))).toBe('conflict');
    });

    it('given a lost claim of a later attempt, when it is claimed again, then the same attempt number is kept', () => {
      const history = firingAt(3, T0 + 10 * unit);
      expect(fold(history)).toMatchObject({ status: 'Firing', attempts: 3 });
      const late = T0 + 10 * unit + CLAIM_TIMEOUT_MS;
      expect(kindOf(() => decide(history, fire(3, iso(late - 1))))).toBe('conflict');
      expect(kindOf(() => decide(history, fire(4, iso(late))))).toBe('conflict');
      expect(decide(history, fire(3, iso(late)))).toEqual([fired(3, iso(late))]);
    });

    it('given a re-claimed job, then the claim timeout runs from the newest claim', () => {
      const reclaimedAt = T0 + 2 * CLAIM_TIMEOUT_MS;
      const history = [...firing, fired(1, iso(reclaimedAt))];
      expect(kindOf(() => decide(history, fire(1, iso(reclaimedAt + CLAIM_TIMEOUT_MS - 1))))).toBe('conflict');
      expect(decide(history, fire(1, iso(reclaimedAt + CLAIM_TIMEOUT_MS)))).toEqual([fired(1, iso(reclaimedAt + CLAIM_TIMEOUT_MS))]);
    });

    it('given two instances re-claiming the same lost claim, then the loser fails on re-deciding against the fresh state', () => {
      const at = T0 + CLAIM_TIMEOUT_MS;
      const fresh = [...firing, fired(1, iso(at))];
      expect(kindOf(() => decide(fresh, fire(1, iso(at + 10))))).toBe('conflict');
    });

    it('given a re-claimed job, when the attempt is recorded, then the outcome is accepted for that attempt', () => {
      const at = T0 + CLAIM_TIMEOUT_MS;
      const history = [...firing, fired(1, iso(at))];
      expect(decide(history, record(1, iso(at + 5_000), true))).toEqual([succeeded(1, iso(at + 5_000))]);
      expect(decide(history, record(1, iso(at + 5_000), false))).toEqual([failed(1, iso(at + 5_000), iso(at + 5_000 + unit))]);
    });
  });

  describe('RecordJobAttempt: Firing -> Done | Pending | DeadLetter', () => {
    it('given a Firing job, when the delivery succeeds, then JobSucceeded and the job is Done', () => {
      const at = iso(T0 + 5_000);
      const events = decide(firing, record(1, at, true));
      expect(events).toEqual([succeeded(1, at)]);
      expectParses(events);
      expect(fold([...firing, ...events])).toMatchObject({ status: 'Done', attempts: 1 });
    });

    it('given a Firing job with retries left, when the delivery fails, then JobFailed with retryAt one unit later and the job is Pending', () => {
      const at = iso(T0 + 5_000);
      const events = decide(firing, record(1, at, false));
      expect(events).toEqual([failed(1, at, iso(T0 + 5_000 + unit))]);
      expectParses(events);
      expect(fold([...firing, ...events])).toMatchObject({ status: 'Pending', attempts: 1 });
    });

    it.each([
      [1, 1],
      [2, 2],
      [3, 4],
      [4, 8],
      [5, 16],
    ])('given maxRetries 5, when attempt %i fails, then retryAt is at + %i units', (attempt, units) => {
      const claimedAt = T0 + 1_000_000 * attempt;
      const history = firingAt(attempt, claimedAt);
      const at = claimedAt + 7_000;
      const events = decide(history, record(attempt, iso(at), false));
      expect(events).toEqual([failed(attempt, iso(at), iso(at + units * unit))]);
      expectParses(events);
      expect(fold([...history, ...events])).toMatchObject({ status: 'Pending', attempts: attempt });
    });

    it('computes retryAt from the outcome time and the backoff unit of the command', () => {
      const at = T0 + 30_000;
      expect(decide(firing, record(1, iso(at), false, {}, 1_000))).toEqual([failed(1, iso(at), iso(at + 1_000))]);
      const third = firingAt(3, T0 + 10 * unit);
      const later = T0 + 10 * unit + 30_000;
      expect(decide(third, record(3, iso(later), false, {}, 250))).toEqual([failed(3, iso(later), iso(later + 4 * 250))]);
    });

    it('given maxRetries 5 (default), then six attempts in all with retries 1, 2, 4, 8 and 16 minutes apart, then DeadLetter', () => {
      const history = failRepeatedly([scheduled(5)], 6);
      expect(history.map((event) => event.type)).toEqual([
        'JobScheduled',
        ...Array.from({ length: 5 }, () => ['JobFired', 'JobFailed']).flat(),
        'JobFired',
        'JobDeadLettered',
      ]);
      const retries = history.flatMap((event) => (event.type === 'JobFailed' ? [[event.data.at, event.data.retryAt]] : []));
      expect(retries).toEqual([
        ['2024-05-01T12:00:05.000Z', '2024-05-01T12:01:05.000Z'],
        ['2024-05-01T12:01:10.000Z', '2024-05-01T12:03:10.000Z'],
        ['2024-05-01T12:03:15.000Z', '2024-05-01T12:07:15.000Z'],
        ['2024-05-01T12:07:20.000Z', '2024-05-01T12:15:20.000Z'],
        ['2024-05-01T12:15:25.000Z', '2024-05-01T12:31:25.000Z'],
      ]);
      expect(history.at(-1)).toEqual(deadLettered(6, '2024-05-01T12:31:30.000Z'));
      expectParses(history);
      expect(fold(history)).toMatchObject({ status: 'DeadLetter', attempts: 6 });
    });

    it('given five failures, when the sixth attempt succeeds, then the job is Done', () => {
      const history = firingAt(6, T0 + 60 * unit);
      const events = decide(history, record(6, iso(T0 + 61 * unit), true));
      expect(events).toEqual([succeeded(6, iso(T0 + 61 * unit))]);
      expect(fold([...history, ...events])).toMatchObject({ status: 'Done', attempts: 6 });
    });

    it('given maxRetries 0, when the first delivery fails, then JobDeadLettered and the job is DeadLetter', () => {
      const history = [scheduled(0), fired(1, iso(T0))];
      const at = iso(T0 + 5_000);
      const events = decide(history, record(1, at, false));
      expect(events).toEqual([deadLettered(1, at)]);
      expectParses(events);
      expect(fold([...history, ...events])).toMatchObject({ status: 'DeadLetter', attempts: 1, maxRetries: 0 });
      expect(decide(history, record(1, at, true))).toEqual([succeeded(1, at)]);
    });

    it.each([0, 1, 2, 5, 9])('given maxRetries %i, then the job dead-letters after maxRetries + 1 failed attempts', (maxRetries) => {
      const history = failRepeatedly([scheduled(maxRetries)], maxRetries + 1);
      expect(history.filter((event) => event.type === 'JobFired')).toHaveLength(maxRetries + 1);
      expect(history.filter((event) => event.type === 'JobFailed')).toHaveLength(maxRetries);
      expect(history.at(-1)).toMatchObject({ type: 'JobDeadLettered', data: { attempt: maxRetries + 1 } });
      expect(kindOf(() => decide(history, fire(maxRetries + 2, iso(T0 + 24 * 60 * unit))))).toBe('conflict');
    });

    it('given maxRetries high enough, then retry delays are capped at 60 units (attempts 7 and 8) after 32 units (attempt 6)', () => {
      const history = failRepeatedly([scheduled(10)], 8);
      const delays = history.flatMap((event) => (event.type === 'JobFailed' ? [(Date.parse(event.data.retryAt) - Date.parse(event.data.at)) / unit] : []));
      expect(delays).toEqual([1, 2, 4, 8, 16, 32, 60, 60]);
      expect(fold(history)).toMatchObject({ status: 'Pending', attempts: 8 });
    });

    it.each([
      ['Pending (never fired)', pending, 1],
      ['Pending (after a failure)', failRepeatedly(pending, 1), 1],
      ['Pending (after a failure, next attempt)', failRepeatedly(pending, 1), 2],
      ['Done', done, 1],
      ['DeadLetter', deadLetter, 1],
      ['Cancelled', cancelledJob, 1],
    ])('given a %s job, when an attempt is recorded, then conflict', (_status, history, attempt) => {
      expect(kindOf(() => decide(history, record(attempt, iso(T0 + unit), true)))).toBe('conflict');
      expect(kindOf(() => decide(history, record(attempt, iso(T0 + unit), false)))).toBe('conflict');
    });

    it('given a Firing job, when an attempt other than the current one is recorded, then conflict', () => {
      for (const attempt of [0, 2]) {
        expect(kindOf(() => decide(firing, record(attempt, iso(T0 + 5_000), true)))).toBe('conflict');
      }
      const third = firingAt(3, T0 + 10 * unit);
      for (const attempt of [1, 2, 4]) {
        expect(kindOf(() => decide(third, record(attempt, iso(T0 + 10 * unit + 5_000), false)))).toBe('conflict');
      }
    });

    it('given an outcome already recorded, when it is recorded again, then conflict', () => {
      const once = [...firing, ...decide(firing, record(1, iso(T0 + 5_000), false))];
      expect(kindOf(() => decide(once, record(1, iso(T0 + 6_000), false)))).toBe('conflict');
      expect(kindOf(() => decide(done, record(1, iso(T0 + 6_000), true)))).toBe('conflict');
    });
  });

  describe('CancelJob: Pending -> Cancelled', () => {
    it('given a Pending job, when it is cancelled, then JobCancelled and the job is Cancelled', () => {
      const at = iso(T0 - unit);
      const events = decide(pending, cancel(at));
      expect(events).toEqual([cancelled(at)]);
      expectParses(events);
      expect(fold([...pending, ...events])).toMatchObject({ status: 'Cancelled', attempts: 0 });
    });

    it('given a Pending job waiting for a retry, when it is cancelled, then JobCancelled', () => {
      const history = failRepeatedly(pending, 2);
      const at = iso(T0 + 2 * unit);
      expect(decide(history, cancel(at))).toEqual([cancelled(at)]);
      expect(fold([...history, cancelled(at)])).toMatchObject({ status: 'Cancelled', attempts: 2 });
      expect(kindOf(() => decide([...history, cancelled(at)], fire(3, iso(T0 + 60 * unit))))).toBe('conflict');
    });

    it.each([
      ['Firing', firing],
      ['Done', done],
      ['DeadLetter', deadLetter],
      ['Cancelled', cancelledJob],
    ])('given a %s job, when it is cancelled, then conflict', (_status, history) => {
      expect(kindOf(() => decide(history, cancel(iso(T0 + 5_000))))).toBe('conflict');
    });

    it('given a Firing job whose claim is lost, when it is cancelled, then JobCancelled, and neither the late outcome nor a new claim is taken', () => {
      const at = iso(T0 + CLAIM_TIMEOUT_MS);
      expect(decide(firing, cancel(at))).toEqual([cancelled(at)]);
      const history = [...firing, cancelled(at)];
      expect(fold(history)).toMatchObject({ status: 'Cancelled', attempts: 1 });
      expect(kindOf(() => decide(history, record(1, iso(T0 + CLAIM_TIMEOUT_MS + 1), false)))).toBe('conflict');
      expect(kindOf(() => decide(history, fire(1, iso(T0 + 2 * CLAIM_TIMEOUT_MS))))).toBe('conflict');
    });

    it('given a Firing job one moment before its claim is lost, when it is cancelled, then conflict (its attempt is in flight)', () => {
      expect(kindOf(() => decide(firing, cancel(iso(T0 + CLAIM_TIMEOUT_MS - 1))))).toBe('conflict');
    });
  });

  describe('unknown and foreign jobs', () => {
    it('given no job, when any command but ScheduleJob comes, then not_found', () => {
      expect(kindOf(() => decide([], fire(1, iso(T0))))).toBe('not_found');
      expect(kindOf(() => decide([], record(1, iso(T0), true)))).toBe('not_found');
      expect(kindOf(() => decide([], record(1, iso(T0), false)))).toBe('not_found');
      expect(kindOf(() => decide([], cancel(iso(T0))))).toBe('not_found');
    });

    it.each([
      ['Pending', pending],
      ['Firing', firing],
      ['Done', done],
      ['DeadLetter', deadLetter],
      ['Cancelled', cancelledJob],
    ])('given a %s job, when a command names another workspace, then not_found (before any conflict)', (_status, history) => {
      const state = fold(history);
      const attempt = state.status === 'none' ? 1 : state.attempts;
      expect(kindOf(() => decide(history, fire(attempt + 1, iso(T0 + 5_000), other)))).toBe('not_found');
      expect(kindOf(() => decide(history, fire(attempt, iso(T0 + 10 * CLAIM_TIMEOUT_MS), other)))).toBe('not_found');
      expect(kindOf(() => decide(history, record(attempt, iso(T0 + 5_000), true, other)))).toBe('not_found');
      expect(kindOf(() => decide(history, record(attempt, iso(T0 + 5_000), false, other)))).toBe('not_found');
      expect(kindOf(() => decide(history, cancel(iso(T0 + 5_000), other)))).toBe('not_found');
    });

    it('given a job, when it is scheduled again under another workspace, then nothing (the stream already exists)', () => {
      expect(decide(pending, schedule(5, other))).toEqual([]);
    });
  });
});
