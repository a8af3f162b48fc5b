import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '../../infra/eventstore/postgres';
import type { RecordedEvent, Subscription } from '../../infra/eventstore/port';
import type { SqlClient } from '../../infra/sql/client';

/** Counts the log's tail reads (readAll's statement) and LISTENs that pass through `sql`. */
function counted(sql: SqlClient) {
  const counts = { tailReads: 0, listens: 0 };
  const proxy = new Proxy(sql, {
    get(inner, property, receiver) {
      if (property === 'query')
        return (text: string, ...rest: unknown[]) => {
          if (/\bwhere e\.xid < coalesce/.test(text) && /order by e\.xid, e\.position limit/.test(text)) counts.tailReads++;
          return (inner.query as (...args: unknown[]) => unknown)(text, ...rest);
        };
      if (property === 'listen') counts.listens++;
      return Reflect.get(inner, property, receiver);
    },
  });
  return { proxy, counts };
}

/**
 * The subscriptions of one store (the projection daemon's and every process manager's) share one
 * LISTEN and, when they stand at one position, one read of the log per NOTIFY.
 */
export function describeTailSharing(engine: string, open: () => Promise<{ sql: SqlClient; close: () => Promise<void> }>) {
  describe(`subscriptions sharing the log's tail on ${engine}`, () => {
    it('reads a new event once for every subscription at the head, and each gets it', async () => {
      const { sql, close } = await open();
      const { proxy, counts } = counted(sql);
      // A long poll interval: only the NOTIFY wakes the subscriptions here.
      const store = await PostgresEventStore.create(proxy, { pollIntervalMs: 60_000 });
      const subscriptions: Subscription[] = [];
      try {
        const head = await store.headPosition();
        const received = Array.from({ length: 4 }, () => [] as RecordedEvent[]);
        const caughtUp = received.map(() => 0);
        for (const [index, events] of received.entries()) {
          subscriptions.push(
            store.subscribeToAll({ after: head, onEvent: async (event) => void events.push(event), onCaughtUp: () => void caughtUp[index]!++ }),
          );
        }
        await waitUntil(() => caughtUp.every((times) => times === 1));
        expect(counts.listens).toBe(1);

        const readsBefore = counts.tailReads;
        const stream = `tail-${randomUUID()}`;
        await store.append(stream, [{ type: 'Probed', data: { n: 1 }, metadata: { workspaceId: null, actor: 'test', correlationId: randomUUID(), timestamp: new Date().toISOString() } }], 'no_stream');
        await waitUntil(() => received.every((events) => events.length === 1));
        expect(received.map((events) => events[0]!.stream)).toEqual([stream, stream, stream, stream]);
        expect(counts.tailReads - readsBefore).toBe(1);

        // One subscription behind the others reads on its own, and still gets every event.
        const late: RecordedEvent[] = [];
        subscriptions.push(store.subscribeToAll({ after: head, onEvent: async (event) => void late.push(event) }));
        await waitUntil(() => late.length === 1);
        expect(late[0]!.stream).toBe(stream);
      } finally {
        await Promise.all(subscriptions.map((subscription) => subscription.stop()));
        await store.close();
        await close();
      }
    });

    it('reads on at once after a page cut by its byte budget, and reports caught up only at the end of the log', async () => {
      const { sql, close } = await open();
      // A long poll interval: a cut page taken for the end of the log would wait it out.
      const store = await PostgresEventStore.create(sql, { pollIntervalMs: 60_000, pageBytes: 250_000 });
      let subscription: Subscription | null = null;
      try {
        const head = await store.headPosition();
        const metadata = { workspaceId: null, actor: 'test', correlationId: randomUUID(), timestamp: new Date().toISOString() };
        // Five events of 120,000 bytes: pages of three at most.
        const stream = `bytes-${randomUUID()}`;
        await store.append(stream, Array.from({ length: 5 }, (_, n) => ({ type: 'Large', data: { text: String(n).repeat(120_000) }, metadata })), 'no_stream');
        const received: RecordedEvent[] = [];
        const caughtUpWith: number[] = [];
        subscription = store.subscribeToAll({ after: head, onEvent: async (event) => void received.push(event), onCaughtUp: () => void caughtUpWith.push(received.length) });
        await waitUntil(() => caughtUpWith.length > 0);
        expect(received.map((event) => event.revision)).toEqual([0, 1, 2, 3, 4]);
        expect(caughtUpWith).toEqual([5]);
      } finally {
        await subscription?.stop();
        await store.close();
        await close();
      }
    });

    it('delivers a page of events in slices: timers run between subscribers that hold the thread', async () => {
      const { sql, close } = await open();
      const store = await PostgresEventStore.create(sql, { pollIntervalMs: 60_000 });
      let subscription: Subscription | null = null;
      const ticks: number[] = [];
      let delivered = 0;
      const ticking = setInterval(() => ticks.push(delivered), 0);
      try {
        const head = await store.headPosition();
        const metadata = { workspaceId: null, actor: 'test', correlationId: randomUUID(), timestamp: new Date().toISOString() };
        await store.append(`slices-${randomUUID()}`, Array.from({ length: 10 }, (_, n) => ({ type: 'Probed', data: { n }, metadata })), 'no_stream');
        // Each event holds the thread 3 ms, as checking and projecting one of 100,000 characters does.
        subscription = store.subscribeToAll({
          after: head,
          onEvent: async () => {
            for (const started = performance.now(); performance.now() - started < 3; );
            delivered++;
          },
        });
        await waitUntil(() => delivered === 10);
        // In one task (the page read at once, every onEvent awaited without a pause) no timer could run midway.
        expect(ticks.some((count) => count > 0 && count < 10)).toBe(true);
      } finally {
        clearInterval(ticking);
        await subscription?.stop();
        await store.close();
        await close();
      }
    });
  });
}

async function waitUntil(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
