import type { AddressInfo } from 'node:net';
import express from 'express';
import { concurrencyGate } from '../../src/http/concurrency-gate';

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
