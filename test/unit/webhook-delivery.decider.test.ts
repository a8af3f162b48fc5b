import { foldEvents } from '../../src/domain/decider';
import { DELIVERY_CLAIM_TIMEOUT_MS, webhookDeliveryDecider, type WebhookDeliveryCommand, type WebhookDeliveryState } from '../../src/domain/webhook-delivery/decider';
import { webhookDeliveryEvent, type WebhookDeliveryEvent, type WebhookDeliveryQueuedData } from '../../src/domain/webhook-delivery/events';
import { MAX_ATTEMPTS, RETRY_DELAYS_IN_UNITS, nextAttemptAt } from '../../src/domain/webhook-delivery/schedule';
import { givenWhenThen, kindOf } from './decider-spec';

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
const claim = (attempt: number, at: string, overrides: Partial<typeof ref> = {}): WebhookDeliveryCommand => ({
  type: 'ClaimAttempt',
  data: { ...ref, ...overrides, attempt, at },
});
const started = (attempt: number, at: string): WebhookDeliveryEvent => ({ type: 'WebhookDeliveryStarted', data: { ...ref, attempt, at } });
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
const attemptsIn = (events: WebhookDeliveryEvent[]) => events.filter((event) => event.type === 'WebhookDeliveryAttempted').length;

/** `history` with the next attempt claimed at `at`, through the decider. */
function claimed(history: WebhookDeliveryEvent[], at: string): WebhookDeliveryEvent[] {
  return [...history, ...decide(history, claim(attemptsIn(history) + 1, at))];
}

/** Runs `count` failed attempts from `history` (each claimed, then recorded), each at the previous nextAttemptAt, starting at `startMs`. */
function failRepeatedly(history: WebhookDeliveryEvent[], count: number, startMs: number): WebhookDeliveryEvent[] {
  let events = [...history];
  let at = startMs;
  for (let i = 0; i < count; i++) {
    events = claimed(events, iso(at));
    const [event] = decide(events, record(attemptsIn(events) + 1, iso(at), false));
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
      expect(foldEvents(webhookDeliveryDecider, events)).toEqual({ status: 'waiting', workspaceId: 'ws', webhookId: 'wh-1', attempts: 0, attemptsInStreak: 0, claimedAt: null });
    });

    it('given a queued delivery, when it is queued again, then nothing (idempotent)', () => {
      expect(decide([queued], { type: 'QueueDelivery', data: queuedData })).toEqual([]);
      expect(decide([queued, started(1, iso(T0))], { type: 'QueueDelivery', data: queuedData })).toEqual([]);
      const sent = [started(1, iso(T0)), attempted(1, iso(T0), true, null)];
      expect(decide([queued, ...sent], { type: 'QueueDelivery', data: queuedData })).toEqual([]);
    });
  });

  describe('ClaimAttempt', () => {
    it('given a waiting delivery, when the first attempt is claimed, then WebhookDeliveryStarted and it is processing', () => {
      const at = iso(T0);
      const events = decide([queued], claim(1, at));
      expect(events).toEqual([started(1, at)]);
      expect(webhookDeliveryEvent.parse(events[0])).toEqual(started(1, at));
      expect(foldEvents(webhookDeliveryDecider, [queued, ...events])).toEqual({
        status: 'processing',
        workspaceId: 'ws',
        webhookId: 'wh-1',
        attempts: 0,
        attemptsInStreak: 0,
        claimedAt: at,
      });
    });

    it('given a delivery waiting after a failure, when the next attempt is claimed, then WebhookDeliveryStarted for it', () => {
      const history = failRepeatedly([queued], 2, T0);
      const at = '2024-05-01T12:06:00.000Z';
      expect(decide(history, claim(3, at))).toEqual([started(3, at)]);
      expect(foldEvents(webhookDeliveryDecider, claimed(history, at))).toMatchObject({ status: 'processing', attempts: 2, attemptsInStreak: 2, claimedAt: at });
    });

    it('given a claimed attempt, when it is claimed again within the timeout, then conflict (of two instances only one sends)', () => {
      // Both instances read the waiting entry; A's Started is appended first, so B decides again on the new state.
      const [claimA] = decide([queued], claim(1, iso(T0)));
      expect(claimA).toEqual(started(1, iso(T0)));
      const history = [queued, claimA!];
      expect(kindOf(() => decide(history, claim(1, iso(T0))))).toBe('conflict');
      expect(kindOf(() => decide(history, claim(1, iso(T0 + 1_000))))).toBe('conflict');
      expect(kindOf(() => decide(history, claim(1, iso(T0 + DELIVERY_CLAIM_TIMEOUT_MS - 1))))).toBe('conflict');
      // A claim stamped before the current one is no lost claim either.
      expect(kindOf(() => decide(history, claim(1, iso(T0 - 10 * DELIVERY_CLAIM_TIMEOUT_MS))))).toBe('conflict');
      // A records its outcome; B still may not claim attempt 1.
      const done = [...history, ...decide(history, record(1, iso(T0 + 500), true))];
      expect(kindOf(() => decide(done, claim(1, iso(T0 + 1_000))))).toBe('conflict');
      expect(done.filter((event) => event.type === 'WebhookDeliveryAttempted')).toHaveLength(1);
    });

    it('has a claim timeout of 60 seconds', () => {
      expect(DELIVERY_CLAIM_TIMEOUT_MS).toBe(60_000);
    });

    it('given a claimed attempt, when it is claimed again after the timeout (a lost claim), then WebhookDeliveryStarted with the same attempt', () => {
      const history = [queued, started(1, iso(T0))];
      const at = iso(T0 + DELIVERY_CLAIM_TIMEOUT_MS);
      const events = decide(history, claim(1, at));
      expect(events).toEqual([started(1, at)]);
      expect(decide(history, claim(1, iso(T0 + 10 * DELIVERY_CLAIM_TIMEOUT_MS)))).toEqual([started(1, iso(T0 + 10 * DELIVERY_CLAIM_TIMEOUT_MS))]);
      const reclaimed = [...history, ...events];
      expect(foldEvents(webhookDeliveryDecider, reclaimed)).toMatchObject({ status: 'processing', attempts: 0, attemptsInStreak: 0, claimedAt: at });
      // The timeout now runs from the new claim.
      expect(kindOf(() => decide(reclaimed, claim(1, iso(T0 + DELIVERY_CLAIM_TIMEOUT_MS + 1_000))))).toBe('conflict');
      // The new claimant records attempt 1; the lost claimant's late record is then a conflict.
      const [outcomeEvent] = decide(reclaimed, record(1, at, false));
      expect(outcomeEvent).toEqual(attempted(1, at, false, iso(Date.parse(at) + unit)));
      const after = [...reclaimed, outcomeEvent!];
      expect(foldEvents(webhookDeliveryDecider, after)).toMatchObject({ status: 'waiting', attempts: 1, attemptsInStreak: 1, claimedAt: null });
      expect(kindOf(() => decide(after, record(1, iso(T0 + 2 * DELIVERY_CLAIM_TIMEOUT_MS), true)))).toBe('conflict');
    });

    it('given a claimed attempt, when another attempt number is claimed after the timeout, then conflict', () => {
      const history = [queued, started(1, iso(T0))];
      const late = iso(T0 + 2 * DELIVERY_CLAIM_TIMEOUT_MS);
      expect(kindOf(() => decide(history, claim(2, late)))).toBe('conflict');
      expect(kindOf(() => decide(history, claim(0, late)))).toBe('conflict');
    });

    it('given a waiting delivery, when an attempt with the wrong number is claimed, then conflict', () => {
      expect(kindOf(() => decide([queued], claim(0, iso(T0))))).toBe('conflict');
      expect(kindOf(() => decide([queued], claim(2, iso(T0))))).toBe('conflict');
      const once = failRepeatedly([queued], 1, T0);
      expect(kindOf(() => decide(once, claim(1, iso(T0 + unit))))).toBe('conflict');
      expect(kindOf(() => decide(once, claim(3, iso(T0 + unit))))).toBe('conflict');
      expect(decide(once, claim(2, iso(T0 + unit)))).toEqual([started(2, iso(T0 + unit))]);
    });

    it('given a sent delivery, when an attempt is claimed, then conflict', () => {
      const sent = [queued, started(1, iso(T0)), attempted(1, iso(T0), true, null)];
      expect(kindOf(() => decide(sent, claim(2, iso(T0))))).toBe('conflict');
      expect(kindOf(() => decide(sent, claim(2, iso(T0 + 10 * DELIVERY_CLAIM_TIMEOUT_MS))))).toBe('conflict');
      expect(kindOf(() => decide(sent, claim(1, iso(T0))))).toBe('conflict');
    });

    it('given a delivery in error, when an attempt is claimed, then conflict', () => {
      const failed = failRepeatedly([queued], 6, T0);
      expect(foldEvents(webhookDeliveryDecider, failed)).toMatchObject({ status: 'error' });
      expect(kindOf(() => decide(failed, claim(7, '2024-05-03T00:00:00.000Z')))).toBe('conflict');
      expect(kindOf(() => decide(failed, claim(6, '2024-05-03T00:00:00.000Z')))).toBe('conflict');
    });
  });

  describe('RecordAttempt', () => {
    it('given a claimed first attempt, when it succeeds, then no next attempt and the entry is sent', () => {
      const history = [queued, started(1, iso(T0))];
      const events = decide(history, record(1, iso(T0), true));
      expect(events).toEqual([attempted(1, iso(T0), true, null)]);
      expect(webhookDeliveryEvent.parse(events[0])).toEqual(events[0]);
      expect(foldEvents(webhookDeliveryDecider, [...history, ...events])).toMatchObject({ status: 'sent', attempts: 1, attemptsInStreak: 1, claimedAt: null });
    });

    it.each([1, 2, 3, 4, 5])('given the earlier attempts failed, when attempt %i fails, then the next attempt is scheduled by the retry delays', (n) => {
      const at = iso(T0 + 1_000_000 * n);
      const history = claimed(failRepeatedly([queued], n - 1, T0), at);
      const [event] = decide(history, record(n, at, false));
      const expected = iso(Date.parse(at) + RETRY_DELAYS_IN_UNITS[n - 1]! * unit);
      expect(event).toEqual(attempted(n, at, false, expected));
      expect(foldEvents(webhookDeliveryDecider, [...history, event!])).toMatchObject({ status: 'waiting', attempts: n, attemptsInStreak: n, claimedAt: null });
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
      // Every attempt was claimed just before it was recorded.
      const sequence = events.map((event) => (event.type === 'WebhookDeliveryStarted' || event.type === 'WebhookDeliveryAttempted' ? `${event.type}:${event.data.attempt}` : event.type));
      expect(sequence).toEqual(['WebhookDeliveryQueued', ...[1, 2, 3, 4, 5].flatMap((n) => [`WebhookDeliveryStarted:${n}`, `WebhookDeliveryAttempted:${n}`])]);
    });

    it('given five failures, when the sixth attempt fails, then no next attempt and the entry is in error', () => {
      const at = '2024-05-02T01:01:00.000Z';
      const history = claimed(failRepeatedly([queued], MAX_ATTEMPTS - 1, T0), at);
      const events = decide(history, record(MAX_ATTEMPTS, at, false));
      expect(events).toEqual([attempted(6, at, false, null)]);
      expect(foldEvents(webhookDeliveryDecider, [...history, ...events])).toMatchObject({ status: 'error', attempts: 6, attemptsInStreak: 6, claimedAt: null });
    });

    it('given five failures, when the sixth attempt succeeds, then the entry is sent', () => {
      const history = claimed(failRepeatedly([queued], 5, T0), iso(T0));
      const events = decide(history, record(6, iso(T0), true));
      expect(events).toEqual([attempted(6, iso(T0), true, null)]);
      expect(foldEvents(webhookDeliveryDecider, [...history, ...events])).toMatchObject({ status: 'sent' });
    });

    it('given a claimed attempt, when an attempt with the wrong number is recorded, then conflict', () => {
      const first = [queued, started(1, iso(T0))];
      expect(kindOf(() => decide(first, record(2, iso(T0), false)))).toBe('conflict');
      expect(kindOf(() => decide(first, record(0, iso(T0), false)))).toBe('conflict');
      const once = claimed(failRepeatedly([queued], 1, T0), iso(T0 + unit));
      expect(kindOf(() => decide(once, record(1, iso(T0), false)))).toBe('conflict');
      expect(kindOf(() => decide(once, record(3, iso(T0), false)))).toBe('conflict');
    });

    it('given a waiting (unclaimed) delivery, when an attempt is recorded, then conflict', () => {
      expect(kindOf(() => decide([queued], record(1, iso(T0), true)))).toBe('conflict');
      expect(kindOf(() => decide([queued], record(1, iso(T0), false)))).toBe('conflict');
      const once = failRepeatedly([queued], 1, T0);
      expect(kindOf(() => decide(once, record(2, iso(T0 + unit), false)))).toBe('conflict');
      const retriedHistory = [...failRepeatedly([queued], 6, T0), retried('2024-05-03T00:00:00.000Z')];
      expect(kindOf(() => decide(retriedHistory, record(7, '2024-05-03T00:00:05.000Z', true)))).toBe('conflict');
    });

    it('given a sent delivery, when another attempt is recorded, then conflict', () => {
      const sent = [queued, started(1, iso(T0)), attempted(1, iso(T0), true, null)];
      expect(kindOf(() => decide(sent, record(2, iso(T0), false)))).toBe('conflict');
      expect(kindOf(() => decide(sent, record(2, iso(T0), true)))).toBe('conflict');
      expect(kindOf(() => decide(sent, record(1, iso(T0), true)))).toBe('conflict');
    });

    it('given a delivery in error, when another attempt is recorded, then conflict', () => {
      const failed = failRepeatedly([queued], 6, T0);
      expect(kindOf(() => decide(failed, record(7, iso(T0), false)))).toBe('conflict');
      expect(kindOf(() => decide(failed, record(6, iso(T0), false)))).toBe('conflict');
    });
  });

  describe('RequestRetry', () => {
    it('given a delivery in error, when a retry is requested, then WebhookDeliveryRetryRequested and it waits again', () => {
      const failed = failRepeatedly([queued], 6, T0);
      const at = '2024-05-03T00:00:00.000Z';
      const events = decide(failed, retry(at));
      expect(events).toEqual([retried(at)]);
      expect(webhookDeliveryEvent.parse(events[0])).toEqual(retried(at));
      expect(foldEvents(webhookDeliveryDecider, [...failed, ...events])).toMatchObject({ status: 'waiting', attempts: 6, attemptsInStreak: 0, claimedAt: null });
    });

    it('given a retried delivery, then the schedule starts again while the attempt numbers keep counting', () => {
      const failed = failRepeatedly([queued], 6, T0);
      const history = [...failed, retried('2024-05-03T00:00:00.000Z')];
      const at = '2024-05-03T00:00:05.000Z';
      expect(kindOf(() => decide(history, claim(1, at)))).toBe('conflict');
      expect(decide(history, claim(7, at))).toEqual([started(7, at)]);
      const claimed7 = [...history, started(7, at)];
      expect(kindOf(() => decide(claimed7, record(1, at, false)))).toBe('conflict');
      const [seventh] = decide(claimed7, record(7, at, false));
      expect(seventh).toEqual(attempted(7, at, false, '2024-05-03T00:01:05.000Z'));
      const claimed8 = claimed([...claimed7, seventh!], '2024-05-03T00:01:05.000Z');
      expect(claimed8.at(-1)).toEqual(started(8, '2024-05-03T00:01:05.000Z'));
      const [eighth] = decide(claimed8, record(8, '2024-05-03T00:01:05.000Z', false));
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

    it('given a processing delivery, when a retry is requested, then nothing', () => {
      expect(decide([queued, started(1, iso(T0))], retry(iso(T0)))).toEqual([]);
      expect(decide(claimed(failRepeatedly([queued], 3, T0), iso(T0)), retry(iso(T0 + 10 * DELIVERY_CLAIM_TIMEOUT_MS)))).toEqual([]);
    });

    it('given a sent delivery, when a retry is requested, then it is sent again (the decider allows re-sending)', () => {
      const sent = [queued, started(1, iso(T0)), attempted(1, iso(T0), true, null)];
      expect(decide(sent, retry(iso(T0)))).toEqual([retried(iso(T0))]);
      const again = [...sent, retried(iso(T0))];
      expect(foldEvents(webhookDeliveryDecider, again)).toMatchObject({ status: 'waiting', attempts: 1, attemptsInStreak: 0, claimedAt: null });
      expect(decide(again, claim(2, iso(T0 + unit)))).toEqual([started(2, iso(T0 + unit))]);
    });
  });

  describe('evolve', () => {
    const waiting: WebhookDeliveryState = { status: 'waiting', workspaceId: 'ws', webhookId: 'wh-1', attempts: 2, attemptsInStreak: 1, claimedAt: null };

    it('WebhookDeliveryStarted sets status processing and claimedAt, and leaves the counts', () => {
      const at = iso(T0 + 5_000);
      expect(webhookDeliveryDecider.evolve(waiting, started(3, at))).toEqual({ ...waiting, status: 'processing', claimedAt: at });
    });

    it('a second WebhookDeliveryStarted (a reclaimed attempt) moves claimedAt on', () => {
      const first = webhookDeliveryDecider.evolve(waiting, started(3, iso(T0)));
      const later = iso(T0 + DELIVERY_CLAIM_TIMEOUT_MS);
      expect(webhookDeliveryDecider.evolve(first, started(3, later))).toEqual({ ...waiting, status: 'processing', claimedAt: later });
    });

    it('WebhookDeliveryStarted without a delivery leaves the state as it is', () => {
      expect(webhookDeliveryDecider.evolve({ status: 'none' }, started(1, iso(T0)))).toEqual({ status: 'none' });
    });

    it('WebhookDeliveryAttempted clears claimedAt', () => {
      const processing = webhookDeliveryDecider.evolve(waiting, started(3, iso(T0)));
      expect(webhookDeliveryDecider.evolve(processing, attempted(3, iso(T0), false, iso(T0 + 5 * unit)))).toEqual({
        ...waiting,
        status: 'waiting',
        attempts: 3,
        attemptsInStreak: 2,
        claimedAt: null,
      });
      expect(webhookDeliveryDecider.evolve(processing, attempted(3, iso(T0), true, null))).toMatchObject({ status: 'sent', claimedAt: null });
    });
  });

  describe('emitted events', () => {
    it('all parse with the event schema', () => {
      const emitted: WebhookDeliveryEvent[] = [];
      const run = (history: WebhookDeliveryEvent[], command: WebhookDeliveryCommand) => {
        const events = decide(history, command);
        emitted.push(...events);
        return [...history, ...events];
      };
      let history = run([], { type: 'QueueDelivery', data: queuedData });
      let at = T0;
      for (let n = 1; n <= MAX_ATTEMPTS; n++) {
        history = run(history, claim(n, iso(at)));
        if (n === 2) history = run(history, claim(n, iso(at + DELIVERY_CLAIM_TIMEOUT_MS))); // a lost claim taken over
        history = run(history, record(n, iso(at + 1_000), false));
        const last = history.at(-1)!;
        if (last.type === 'WebhookDeliveryAttempted' && last.data.nextAttemptAt !== null) at = Date.parse(last.data.nextAttemptAt);
      }
      history = run(history, retry('2024-05-03T00:00:00.000Z'));
      history = run(history, claim(7, '2024-05-03T00:00:01.000Z'));
      history = run(history, record(7, '2024-05-03T00:00:02.000Z', true));
      history = run(history, retry('2024-05-03T00:00:03.000Z'));

      expect(foldEvents(webhookDeliveryDecider, history)).toMatchObject({ status: 'waiting', attempts: 7, attemptsInStreak: 0 });
      expect(new Set(emitted.map((event) => event.type))).toEqual(
        new Set(['WebhookDeliveryQueued', 'WebhookDeliveryStarted', 'WebhookDeliveryAttempted', 'WebhookDeliveryRetryRequested']),
      );
      expect(emitted).toHaveLength(1 + 7 + 1 + 7 + 2);
      for (const event of emitted) expect(webhookDeliveryEvent.parse(event)).toEqual(event);
    });
  });

  describe('unknown and foreign deliveries', () => {
    it('given no delivery, when a claim, an attempt or a retry comes, then not_found', () => {
      expect(kindOf(() => decide([], claim(1, iso(T0))))).toBe('not_found');
      expect(kindOf(() => decide([], record(1, iso(T0), true)))).toBe('not_found');
      expect(kindOf(() => decide([], retry(iso(T0))))).toBe('not_found');
    });

    it.each([
      ['workspace', { workspaceId: 'other' }],
      ['webhook', { webhookId: 'wh-other' }],
    ])('given a delivery, when the command names another %s, then not_found', (_name, overrides) => {
      expect(kindOf(() => decide([queued], claim(1, iso(T0), overrides)))).toBe('not_found');
      expect(kindOf(() => decide([queued, started(1, iso(T0))], record(1, iso(T0), true, overrides)))).toBe('not_found');
      const failed = failRepeatedly([queued], 6, T0);
      expect(kindOf(() => decide(failed, retry(iso(T0), overrides)))).toBe('not_found');
    });
  });
});
