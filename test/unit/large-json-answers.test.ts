import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { jsonChunks } from '../../infra/json-chunks';
import { ThreadSlices } from '../../infra/thread-slices';
import { conditionalGet } from '../../src/http/conditional-get';
import { largeJsonAnswers } from '../../src/http/large-json-answers';
import { errorHandler } from '../../src/http/problem';

/** A page of items whose keys are not in sorted order, about 1.4 MB of UTF-8 with four-byte characters. */
const page = () => ({
  total: 30,
  items: Array.from({ length: 30 }, (_, item) => ({ zeta: item, id: `item-${item}`, fields: Object.fromEntries(Array.from({ length: 20 }, (_, field) => [`f${20 - field}`, { en: `${'\ud83c\udf0d'.repeat(100)}${'prose '.repeat(80)}` }])) })),
});

describe('largeJsonAnswers', () => {
  it("writes a large answer as JSON.stringify's text, with res.json's type, status, ETag and 304; a small one as res.json does", async () => {
    const large = page();
    const app = express();
    app.set('etag', false);
    app.use(conditionalGet);
    app.use(largeJsonAnswers);
    app.get('/large', (_req, res) => {
      res.json(large);
    });
    app.post('/large', (_req, res) => {
      res.status(201).json(large);
    });
    app.get('/small', (_req, res) => {
      res.json({ b: 1, a: [true] });
    });
    app.get('/refused', (_req, res) => {
      res.json({ ...large, count: 1n });
    });
    app.use(errorHandler(pino({ level: 'silent' })));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const got = await fetch(`${url}/large`);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await got.text()).toBe(JSON.stringify(large));
      const tag = got.headers.get('etag');
      // Taken as the answer was written, it is the tag of its bytes, as conditionalGet takes it of a small answer.
      expect(tag).toBe(`"${createHash('sha256').update(JSON.stringify(large)).digest('base64url').slice(0, 27)}"`);
      expect(got.headers.get('content-length')).toBe(String(Buffer.byteLength(JSON.stringify(large))));
      const unchanged = await fetch(`${url}/large`, { headers: { 'if-none-match': tag! } });
      expect(unchanged.status).toBe(304);
      expect(unchanged.headers.get('content-type')).toBeNull();
      expect(await unchanged.text()).toBe('');
      const head = await fetch(`${url}/large`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.headers.get('etag')).toBe(tag);
      expect(head.headers.get('content-length')).toBe(got.headers.get('content-length'));

      const created = await fetch(`${url}/large`, { method: 'POST' });
      expect(created.status).toBe(201);
      expect(created.headers.get('etag')).toBeNull();
      expect(await created.text()).toBe(JSON.stringify(large));

      const small = await fetch(`${url}/small`);
      expect(small.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await small.text()).toBe('{"b":1,"a":[true]}');

      // What JSON cannot hold fails the request, as res.json's throw would, and the service goes on.
      expect((await fetch(`${url}/refused`)).status).toBe(500);
      expect((await fetch(`${url}/small`)).status).toBe(200);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('jsonChunks', () => {
  it("writes JSON.stringify's text in chunks, letting other work run between them", async () => {
    const value = page();
    let others = 0;
    const other = setInterval(() => others++, 0);
    try {
      // One slice clock over enough rounds that its 4 ms are used up whatever the machine's speed.
      const slices = new ThreadSlices();
      for (let round = 0; round < 10; round++) {
        let text = '';
        for await (const chunk of jsonChunks(value, 5, slices)) text += chunk;
        expect(text).toBe(JSON.stringify(value));
      }
    } finally {
      clearInterval(other);
    }
    expect(others).toBeGreaterThan(0);
  });
});
