import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bodyInPlace } from '../../src/http/body-in-place';

/** A server that answers what it received: the body's length and first bytes, or the error's status. */
async function serve(limit: number, parserAfter: boolean): Promise<{ url: URL; seen: (string | number)[]; close: () => Promise<void> }> {
  const seen: (string | number)[] = [];
  const app = express();
  app.post('/in', bodyInPlace(limit), ...(parserAfter ? [express.raw({ type: () => true, limit })] : []), (req, res) => {
    const body = req.body as Buffer;
    seen.push(body.length);
    res.json({ length: body.length, head: body.subarray(0, 8).toString('latin1') });
  });
  app.use((error: { status?: number; message: string }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    seen.push(`error ${error.status ?? 500}: ${error.message}`);
    res.status(error.status ?? 500).json({ detail: error.message });
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/in`);
  return {
    url,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function post(url: URL, headers: http.OutgoingHttpHeaders, pieces: Buffer[], endEarly = false): Promise<{ status: number; body: string } | 'left'> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers }, (response) => {
      let body = '';
      response.on('data', (piece) => (body += piece));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', (error) => (endEarly ? resolve('left') : reject(error)));
    (async () => {
      for (const piece of pieces) {
        request.write(piece);
        await new Promise((next) => setTimeout(next, 5));
      }
      if (endEarly) request.destroy();
      else request.end();
    })().catch(reject);
  });
}

describe('bodyInPlace', () => {
  it('gathers a body sent in many pieces into one buffer of its Content-Length, the bytes in order', async () => {
    // No parser after it: the body is its work alone.
    const server = await serve(1024 * 1024, false);
    const pieces = Array.from({ length: 20 }, (_, index) => Buffer.alloc(10_000, 65 + index));
    const answer = await post(server.url, { 'content-length': 200_000 }, pieces);
    expect(answer).toEqual({ status: 200, body: JSON.stringify({ length: 200_000, head: 'AAAAAAAA' }) });
    await server.close();
  });

  it('leaves a chunked body, a compressed one and one over the limit to the parser after it', async () => {
    const server = await serve(1000, true);
    expect(await post(server.url, { 'transfer-encoding': 'chunked' }, [Buffer.from('abc'), Buffer.from('def')])).toEqual({ status: 200, body: JSON.stringify({ length: 6, head: 'abcdef' }) });
    const tooLarge = await post(server.url, { 'content-length': 2000 }, [Buffer.alloc(2000)]);
    expect(tooLarge).toMatchObject({ status: 413 });
    const deflated = await post(server.url, { 'content-length': 3, 'content-encoding': 'deflate' }, [Buffer.from('abc')]);
    expect(deflated).toMatchObject({ status: 400 });
    await server.close();
  });

  it('ends the request with an error when the client leaves mid-body', async () => {
    const server = await serve(1024 * 1024, false);
    expect(await post(server.url, { 'content-length': 100_000 }, [Buffer.alloc(10_000)], true)).toBe('left');
    for (let waited = 0; waited < 100 && server.seen.length === 0; waited++) await new Promise((next) => setTimeout(next, 10));
    expect(server.seen).toEqual(['error 400: the client left before the body ended']);
    await server.close();
  });
});
