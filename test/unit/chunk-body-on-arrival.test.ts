import express from 'express';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { chunkBodyOf, chunkBodyOnArrival } from '../../src/http/chunk-body-on-arrival';

/** A server that answers what it read: the chunk's fields, its bytes' length and first bytes, or the error's status. */
async function serve(limit: number, parserAfter: boolean): Promise<{ url: URL; seen: (string | number)[]; close: () => Promise<void> }> {
  const seen: (string | number)[] = [];
  const app = express();
  app.post('/in', chunkBodyOnArrival(limit), ...(parserAfter ? [express.raw({ type: () => true, limit })] : []), async (req, res, next) => {
    try {
      const { fields, bytes } = await chunkBodyOf(req);
      seen.push(bytes?.length ?? -1);
      res.json({ fields, length: bytes?.length, head: bytes?.subarray(0, 8).toString('latin1') });
    } catch (error) {
      next(error);
    }
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

const chunkJson = (stream: Buffer) => Buffer.from(JSON.stringify({ chunkIndex: 3, stream: stream.toString('base64'), title: 'a' }));

/** Cuts a body into pieces of the given sizes, in turn, so that keys, groups of base64 and escapes fall across pieces. */
function cut(body: Buffer, sizes: number[]): Buffer[] {
  const pieces: Buffer[] = [];
  for (let start = 0, turn = 0; start < body.length; turn++) {
    const size = sizes[turn % sizes.length]!;
    pieces.push(body.subarray(start, start + size));
    start += size;
  }
  return pieces;
}

describe('chunkBodyOnArrival', () => {
  it('decodes a chunk sent in many pieces as they arrive: its fields and its bytes, in order', async () => {
    // No parser after it: the body is its work alone.
    const server = await serve(1024 * 1024, false);
    const bytes = Buffer.concat(Array.from({ length: 20 }, (_, index) => Buffer.alloc(751, 65 + index)));
    const body = chunkJson(bytes);
    const answer = await post(server.url, { 'content-length': body.length }, cut(body, [1_000, 1, 2, 3, 497]));
    expect(answer).toEqual({ status: 200, body: JSON.stringify({ fields: { chunkIndex: 3, stream: null, title: 'a' }, length: bytes.length, head: 'AAAAAAAA' }) });
    await server.close();
  });

  it('reads the whole of a malformed body before answering 400', async () => {
    const server = await serve(1024 * 1024, false);
    const body = Buffer.from(`{"stream":"ab!d","title":"${'x'.repeat(50_000)}"}`);
    const answer = await post(server.url, { 'content-length': body.length }, cut(body, [10_000]));
    expect(answer).toMatchObject({ status: 400 });
    expect(server.seen).toEqual(['error 400: stream must be base64']);
    await server.close();
  });

  it('leaves a chunked body, a compressed one and one over the limit to the parser after it', async () => {
    const server = await serve(1000, true);
    const body = chunkJson(Buffer.from('abcdef'));
    expect(await post(server.url, { 'transfer-encoding': 'chunked' }, cut(body, [5]))).toEqual({ status: 200, body: JSON.stringify({ fields: { chunkIndex: 3, stream: null, title: 'a' }, length: 6, head: 'abcdef' }) });
    const tooLarge = await post(server.url, { 'content-length': 2000 }, [Buffer.alloc(2000)]);
    expect(tooLarge).toMatchObject({ status: 413 });
    const deflated = await post(server.url, { 'content-length': 3, 'content-encoding': 'deflate' }, [Buffer.from('abc')]);
    expect(deflated).toMatchObject({ status: 400 });
    await server.close();
  });

  it('ends the request with an error when the client leaves mid-body', async () => {
    const server = await serve(1024 * 1024, false);
    expect(await post(server.url, { 'content-length': 100_000 }, [Buffer.alloc(10_000)], true)).toBe('left');
    // Up to 5 s: under CI's load the server noticed the close later than the 1 s this waited before.
    for (let waited = 0; waited < 500 && server.seen.length === 0; waited++) await new Promise((next) => setTimeout(next, 10));
    expect(server.seen).toEqual(['error 400: the client left before the body ended']);
    await server.close();
  });
});
