import { START } from '../../infra/eventstore/port';
import { SharedTail, type TailPage } from '../../infra/eventstore/postgres-subscription';
import type { SqlClient } from '../../infra/sql/client';

/** A log read that answers when the test says so, and the SQL client's LISTEN, both recorded. */
function harness() {
  const reads: { resolve: (page: TailPage) => void }[] = [];
  const listeners: (() => void)[] = [];
  let unlistened = 0;
  const sql = {
    listen: (_channel: string, onNotify: () => void) => {
      listeners.push(onNotify);
      return Promise.resolve(async () => {
        unlistened++;
      });
    },
  } as unknown as SqlClient;
  const tail = new SharedTail(sql, () => new Promise((resolve) => reads.push({ resolve })));
  return { tail, reads, listeners, unlistened: () => unlistened };
}

describe('SharedTail', () => {
  it('answers subscriptions at one position from one read when they woke before it started', async () => {
    const { tail, reads } = harness();
    const wokeUp = tail.current;
    const first = tail.read(START, 500, wokeUp);
    const second = tail.read(START, 500, wokeUp);
    expect(reads).toHaveLength(1);
    reads[0]!.resolve({ events: [], cut: false });
    expect(await first).toBe(await second);
  });

  it('starts a read of its own for a subscription woken after the read in flight started', () => {
    const { tail, reads } = harness();
    void tail.read(START, 500, tail.current);
    const timer = tail.timerFired();
    void tail.read(START, 500, timer);
    expect(reads).toHaveLength(2);
    // Woken by the same timer as the second read: that one may answer it.
    void tail.read(START, 500, timer);
    expect(reads).toHaveLength(2);
  });

  it('does not share reads of other positions or page sizes, nor a read that has settled', async () => {
    const { tail, reads } = harness();
    const wokeUp = tail.current;
    void tail.read(START, 500, wokeUp);
    void tail.read({ commit: 1n, prepare: 7n }, 500, wokeUp);
    void tail.read(START, 100, wokeUp);
    expect(reads).toHaveLength(3);
    reads[0]!.resolve({ events: [], cut: false });
    await Promise.resolve();
    await Promise.resolve();
    void tail.read(START, 500, wokeUp);
    expect(reads).toHaveLength(4);
  });

  it('holds one LISTEN for every subscription, numbers each NOTIFY as a wake-up, and unlistens after the last', async () => {
    const { tail, listeners, unlistened } = harness();
    const heard: string[] = [];
    const stopFirst = await tail.listen(() => heard.push('first'));
    const stopSecond = await tail.listen(() => heard.push('second'));
    expect(listeners).toHaveLength(1);
    const before = tail.current;
    listeners[0]!();
    expect(heard).toEqual(['first', 'second']);
    expect(tail.current).toBe(before + 1);
    await stopFirst();
    expect(unlistened()).toBe(0);
    await stopSecond();
    expect(unlistened()).toBe(1);
  });
});
