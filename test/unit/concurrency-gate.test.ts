import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { concurrencyGate, KeyedConcurrencyGate } from '../../src/http/concurrency-gate';
import { errorHandler } from '../../src/http/problem';

describe('concurrencyGate', () => {
  it('lets max requests through at once, queues the rest in order, and frees the place of a client that left', async () => {
    let running = 0;
    let peak = 0;
    const order: string[] = [];
    const app = express();
    app.get('/slow/:name', concurrencyGate(1), async (req, res) => {
      running++;
      peak = Math.max(peak, running);
      order.push(String(req.params.name));
      await new Promise((resolve) => setTimeout(resolve, 100));
      running--;
      res.send('ok');
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const first = fetch(`${url}/slow/a`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const abandoned = new AbortController();
      const leaving = fetch(`${url}/slow/gone`, { signal: abandoned.signal }).catch(() => 'aborted');
      await new Promise((resolve) => setTimeout(resolve, 20));
      const second = fetch(`${url}/slow/b`);
      abandoned.abort();
      expect(await leaving).toBe('aborted');
      await Promise.all([first, second].map(async (answer) => (await answer).text()));
      expect(peak).toBe(1);
      expect(order).toEqual(['a', 'b']);
      // The gate is free again: a later request goes straight through.
      expect((await fetch(`${url}/slow/c`)).status).toBe(200);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('KeyedConcurrencyGate', () => {
  /** A server whose `/work/:key/:name` takes `ms` of work (not cut short by the client leaving) behind a gate of one place and one queued per key. */
  async function gatedServer(maxWaitMs: number) {
    const finished: string[] = [];
    const gate = new KeyedConcurrencyGate({ max: 1, queue: 1, maxWaitMs, subject: 'too many for this key (LIMIT=1)' });
    const app = express();
    app.get(
      '/work/:key/:name',
      (req, res, next) => {
        res.locals.key = req.params.key;
        next();
      },
      gate.gated(
        (res) => String(res.locals.key),
        async (req, res) => {
          await new Promise((resolve) => setTimeout(resolve, Number(req.query.ms ?? 200)));
          finished.push(String(req.params.name));
          res.send('ok');
        },
      ),
    );
    app.use(errorHandler(pino({ level: 'silent' })));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const close = async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    };
    return { url, finished, close };
  }
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('serves one per key at once, queues one, refuses the next with 503 and Retry-After; other keys are not held', async () => {
    const { url, close } = await gatedServer(10_000);
    try {
      const running = fetch(`${url}/work/a/1`);
      await pause(30);
      const queued = fetch(`${url}/work/a/2`);
      await pause(30);
      const refused = await fetch(`${url}/work/a/3`);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(((await refused.json()) as { detail: string }).detail).toBe('too many for this key (LIMIT=1): 1 are running and 1 more are waiting; retry after the Retry-After delay, or send fewer at once');
      const otherKeyStartedAt = performance.now();
      expect((await fetch(`${url}/work/b/1?ms=0`)).status).toBe(200);
      expect(performance.now() - otherKeyStartedAt).toBeLessThan(150);
      expect((await running).status).toBe(200);
      expect((await queued).status).toBe(200);
    } finally {
      await close();
    }
  });

  it('refuses a request that waited longer than maxWaitMs', async () => {
    const { url, close } = await gatedServer(100);
    try {
      const running = fetch(`${url}/work/a/1?ms=500`);
      await pause(30);
      const waited = await fetch(`${url}/work/a/2`);
      expect(waited.status).toBe(503);
      expect(((await waited.json()) as { detail: string }).detail).toContain('none finished within 100 ms');
      expect((await running).status).toBe(200);
    } finally {
      await close();
    }
  });

  it('frees the places of clients that disconnect: a queued one at once, a running one when its work ends', async () => {
    const { url, finished, close } = await gatedServer(10_000);
    try {
      const leaving = new AbortController();
      const requests = [fetch(`${url}/work/a/running?ms=300`, { signal: leaving.signal }), fetch(`${url}/work/a/queued`, { signal: leaving.signal })].map((request) => request.catch(() => 'aborted'));
      await pause(50);
      leaving.abort();
      expect(await Promise.all(requests)).toEqual(['aborted', 'aborted']);
      // The queued one gave its place in the queue up, so `next` may wait there; the running work keeps its
      // place until it ends (a client that leaves and asks again cannot stack work), then `next` is served.
      expect((await fetch(`${url}/work/a/next?ms=0`)).status).toBe(200);
      expect(finished).toEqual(['running', 'next']);
      // Nothing was lost: the place and the queue serve again.
      expect((await Promise.all([fetch(`${url}/work/a/again?ms=50`), fetch(`${url}/work/a/behind?ms=0`)])).map((answer) => answer.status)).toEqual([200, 200]);
    } finally {
      await close();
    }
  });
});
