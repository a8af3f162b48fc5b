import { foldEvents } from '../../src/domain/decider';
import { DomainError } from '../../src/domain/errors';
import { webhookDeliveryDecider, type WebhookDeliveryCommand } from '../../src/domain/webhook-delivery/decider';
import { webhookDeliveryEvent, type WebhookDeliveryEvent, type WebhookDeliveryQueuedData } from '../../src/domain/webhook-delivery/events';
import { MAX_ATTEMPTS, RETRY_DELAYS_IN_UNITS, nextAttemptAt } from '../../src/domain/webhook-delivery/schedule';
import { givenWhenThen } from './decider-spec';

const decide = givenWhenThen(webhookDeliveryDecider);
const unit = 60_000;
const ref = { deliveryId: 'd1', webhookId: 'wh-1', workspaceId: 'ws' };
const queuedData: WebhookDeliveryQueuedData = {
  ...ref,
  eventType: 0,
  contentType: 'Article',
  contentId: 'item-1',
  fields: { title: 'Hello' },
  translations: { title: { de: 'Hallo' } },
  customPayload: null,
  occurredAt: '2024-05-01T12:00:00.000Z',
  sourceEventId: 'evt-1',
};
const queued: WebhookDeliveryEvent = { type: 'WebhookDeliveryQueued', data: queuedData };
const T0 = Date.parse('2024-05-01T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

const outcome = (success: boolean) => ({ statusCode: success ? 200 : 500, success, message: success ? 'OK' : 'Internal Server Error', durationMs: 42 });
const record = (attempt: number, at: string, success: boolean, overrides: Partial<typeof ref> = {}): WebhookDeliveryCommand => ({
  type: 'RecordAttempt',
  data: { ...ref, ...overrides, ...outcome(success), attempt, at, retryUnitMs: unit },
});
const attempted = (attempt: number, at: string, success: boolean, next: string | null): WebhookDeliveryEvent => ({
  type: 'WebhookDeliveryAttempted',
  data: { ...ref, ...outcome(success), attempt, at, nextAttemptAt: next },
});
const retry = (at: string, overrides: Partial<typeof ref> = {}): WebhookDeliveryCommand => ({ type: 'RequestRetry', data: { ...ref, ...overrides, at } });
const retried = (at: string): WebhookDeliveryEvent => ({ type: 'WebhookDeliveryRetryRequested', data: { ...ref, at } });
const kindOf = (run: () => unknown) => {
  try {
    run();
    return 'ok';
  } catch (error) {
    return error instanceof DomainError ? error.kind : 'not a DomainError';
  }
};

/** Runs `count` failed attempts from `history`, each at the previous nextAttemptAt, starting at `startMs`. */
function failRepeatedly(history: WebhookDeliveryEvent[], count: number, startMs: number): WebhookDeliveryEvent[] {
  const events = [...history];
  let at = startMs;
  for (let i = 0; i < count; i++) {
    const total = events.filter((event) => event.type === 'WebhookDeliveryAttempted').length;
    const [event] = decide(events, record(total + 1, iso(at), false));
    events.push(event!);
    if (event?.type === 'WebhookDeliveryAttempted' && event.data.nextAttemptAt !== null) at = Date.parse(event.data.nextAttemptAt);
  }
  return events;
}

describe('webhook delivery schedule', () => {
  it('has five delays and six attempts', () => {
    expect(RETRY_DELAYS_IN_UNITS).toEqual([1, 5, 25, 125, 625]);
    expect(MAX_ATTEMPTS).toBe(6);
  });

  it.each([
    [1, 1],
    [2, 5],
    [3, 25],
    [4, 125],
    [5, 625],
  ])('after failed attempt %i of a streak, waits %i units', (attemptInStreak, units) => {
    expect(nextAttemptAt(new Date(T0), attemptInStreak, unit)).toEqual(new Date(T0 + units * unit));
    expect(nextAttemptAt(new Date(T0), attemptInStreak, 10)).toEqual(new Date(T0 + units * 10));
  });

  it('gives up after the sixth attempt of a streak', () => {
    expect(nextAttemptAt(new Date(T0), 6, unit)).toBeNull();
    expect(nextAttemptAt(new Date(T0), 7, unit)).toBeNull();
  });
});

describe('webhook delivery decider', () => {
  describe('QueueDelivery', () => {
    it('given no delivery, when it is queued, then WebhookDeliveryQueued', () => {
      const events = decide([], { type: 'QueueDelivery', data: queuedData });
      expect(events).toEqual([queued]);
      expect(webhookDeliveryEvent.parse(events[0])).toEqual(queued);
      expect(foldEvents(webhookDeliveryDecider, events)).toEqual({ status: 'waiting', workspaceId: 'ws', webhookId: 'wh-1', attempts: 0, attemptsInStreak: 0 });
    });

    it('given a queued delivery, when it is queued again, then nothing (idempotent)', () => {
      expect(decide([queued], { type: 'QueueDelivery', data: queuedData })).toEqual([]);
      const sent = attempted(1, iso(T0), true, null);
      expect(decide([queued, sent], { type: 'QueueDelivery', data: queuedData })).toEqual([]);
    });
  });

  describe('RecordAttempt', () => {
    it('given a waiting delivery, when the first attempt succeeds, then no next attempt and the entry is sent', () => {
      const events = decide([queued], record(1, iso(T0), true));
      expect(events).toEqual([attempted(1, iso(T0), true, null)]);
      expect(webhookDeliveryEvent.parse(events[0])).toEqual(events[0]);
      expect(foldEvents(webhookDeliveryDecider, [queued, ...events])).toMatchObject({ status: 'sent', attempts: 1, attemptsInStreak: 1 });
    });

    it.each([1, 2, 3, 4, 5])('given the earlier attempts failed, when attempt %i fails, then the next attempt is scheduled by the retry delays', (n) => {
      const history = failRepeatedly([queued], n - 1, T0);
      const at = iso(T0 + 1_000_000 * n);
      const [event] = decide(history, record(n, at, false));
      const expected = iso(Date.parse(at) + RETRY_DELAYS_IN_UNITS[n - 1]! * unit);
      expect(event).toEqual(attempted(n, at, false, expected));
      expect(foldEvents(webhookDeliveryDecider, [...history, event!])).toMatchObject({ status: 'waiting', attempts: n, attemptsInStreak: n });
    });

    it('schedules 1, 5, 25, 125 and 625 minutes after each failure (explicit ISO strings)', () => {
      const events = failRepeatedly([queued], 5, T0);
      const next = events.flatMap((event) => (event.type === 'WebhookDeliveryAttempted' ? [event.data.nextAttemptAt] : []));
      expect(next).toEqual([
        '2024-05-01T12:01:00.000Z',
        '2024-05-01T12:06:00.000Z',
        '2024-05-01T12:31:00.000Z',
        '2024-05-01T14:36:00.000Z',
        '2024-05-02T01:01:00.000Z',
      ]);
    });

    it('given five failures, when the sixth attempt fails, then no next attempt and the entry is in error', () => {
      const history = failRepeatedly([queued], MAX_ATTEMPTS - 1, T0);
      const at = '2024-05-02T01:01:00.000Z';
      const events = decide(history, record(MAX_ATTEMPTS, at, false));
      expect(events).toEqual([attempted(6, at, false, null)]);
      expect(foldEvents(webhookDeliveryDecider, [...history, ...events])).toMatchObject({ status: 'error', attempts: 6, attemptsInStreak: 6 });
    });

    it('given five failures, when the sixth attempt succeeds, then the entry is sent', () => {
      const history = failRepeatedly([queued], 5, T0);
      const events = decide(history, record(6, iso(T0), true));
      expect(events).toEqual([attempted(6, iso(T0), true, null)]);
      expect(foldEvents(webhookDeliveryDecider, [...history, ...events])).toMatchObject({ status: 'sent' });
    });

    it('given a waiting delivery, when an attempt with the wrong number is recorded, then conflict', () => {
      expect(kindOf(() => decide([queued], record(2, iso(T0), false)))).toBe('conflict');
      expect(kindOf(() => decide([queued], record(0, iso(T0), false)))).toBe('conflict');
      const once = failRepeatedly([queued], 1, T0);
      expect(kindOf(() => decide(once, record(1, iso(T0), false)))).toBe('conflict');
      expect(kindOf(() => decide(once, record(3, iso(T0), false)))).toBe('conflict');
    });

    it('given a sent delivery, when another attempt is recorded, then conflict', () => {
      const sent = [queued, attempted(1, iso(T0), true, null)];
      expect(kindOf(() => decide(sent, record(2, iso(T0), false)))).toBe('conflict');
      expect(kindOf(() => decide(sent, record(2, iso(T0), true)))).toBe('conflict');
    });

    it('given a delivery in error, when another attempt is recorded, then conflict', () => {
      const failed = failRepeatedly([queued], 6, T0);
      expect(kindOf(() => decide(failed, record(7, iso(T0), false)))).toBe('conflict');
    });
  });

  describe('RequestRetry', () => {
    it('given a delivery in error, when a retry is requested, then WebhookDeliveryRetryRequested and it waits again', () => {
      const failed = failRepeatedly([queued], 6, T0);
      const at = '2024-05-03T00:00:00.000Z';
      const events = decide(failed, retry(at));
      expect(events).toEqual([retried(at)]);
      expect(webhookDeliveryEvent.parse(events[0])).toEqual(retried(at));
      expect(foldEvents(webhookDeliveryDecider, [...failed, ...events])).toMatchObject({ status: 'waiting', attempts: 6, attemptsInStreak: 0 });
    });

    it('given a retried delivery, then the schedule starts again while the attempt numbers keep counting', () => {
      const failed = failRepeatedly([queued], 6, T0);
      const history = [...failed, retried('2024-05-03T00:00:00.000Z')];
      const at = '2024-05-03T00:00:05.000Z';
      expect(kindOf(() => decide(history, record(1, at, false)))).toBe('conflict');
      const [seventh] = decide(history, record(7, at, false));
      expect(seventh).toEqual(attempted(7, at, false, '2024-05-03T00:01:05.000Z'));
      const [eighth] = decide([...history, seventh!], record(8, '2024-05-03T00:01:05.000Z', false));
      expect(eighth).toEqual(attempted(8, '2024-05-03T00:01:05.000Z', false, '2024-05-03T00:06:05.000Z'));
    });

    it('given a retried delivery, when six more attempts fail, then it is in error again after attempt 12', () => {
      const history = failRepeatedly([...failRepeatedly([queued], 6, T0), retried(iso(T0))], 6, T0);
      const last = history.at(-1)!;
      expect(last).toMatchObject({ type: 'WebhookDeliveryAttempted', data: { attempt: 12, nextAttemptAt: null } });
      expect(foldEvents(webhookDeliveryDecider, history)).toMatchObject({ status: 'error', attempts: 12, attemptsInStreak: 6 });
    });

    it('given a waiting delivery, when a retry is requested, then nothing', () => {
      expect(decide([queued], retry(iso(T0)))).toEqual([]);
      expect(decide(failRepeatedly([queued], 3, T0), retry(iso(T0)))).toEqual([]);
    });

    it('given a sent delivery, when a retry is requested, then it is sent again (the decider allows re-sending)', () => {
      const sent = [queued, attempted(1, iso(T0), true, null)];
      expect(decide(sent, retry(iso(T0)))).toEqual([retried(iso(T0))]);
    });
  });

  describe('unknown and foreign deliveries', () => {
    it('given no delivery, when an attempt or a retry comes, then not_found', () => {
      expect(kindOf(() => decide([], record(1, iso(T0), true)))).toBe('not_found');
      expect(kindOf(() => decide([], retry(iso(T0))))).toBe('not_found');
    });

    it.each([
      ['workspace', { workspaceId: 'other' }],
      ['webhook', { webhookId: 'wh-other' }],
    ])('given a delivery, when the command names another %s, then not_found', (_name, overrides) => {
      expect(kindOf(() => decide([queued], record(1, iso(T0), true, overrides)))).toBe('not_found');
      const failed = failRepeatedly([queued], 6, T0);
      expect(kindOf(() => decide(failed, retry(iso(T0), overrides)))).toBe('not_found');
    });
  });
});
