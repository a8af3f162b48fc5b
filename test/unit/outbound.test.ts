import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutboundError, OutboundHttp, type OutboundRequest } from '../../infra/outbound/http';
import { SIGNATURE_HEADER, signatureHeader } from '../../infra/outbound/signature';
import { startHttpReceiver, startHttpsReceiver } from '../support/receivers';

const MEGABYTE = 1024 * 1024;

/** Routes: /status/<code>, /big (5 MB), /endless, /utf8, /redirect, /hang, /drip. */
function handle(req: http.IncomingMessage, res: http.ServerResponse, endlessClosed: (finished: boolean) => void): void {
  const path = req.url ?? '';
  const status = /^\/status\/(\d{3})$/.exec(path);
  if (status) {
    res.writeHead(Number(status[1]), { 'content-type': 'text/plain' }).end(`status ${status[1]}`);
  } else if (path === '/big' || path === '/endless') {
    const chunk = Buffer.alloc(64 * 1024, 'a');
    let sent = 0;
    const pump = () => {
      while (path === '/endless' || sent < 5 * MEGABYTE) {
        if (res.destroyed) return;
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    if (path === '/endless') res.on('close', () => endlessClosed(res.writableFinished));
    res.writeHead(200);
    pump();
  } else if (path === '/utf8') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('é'.repeat(100));
  } else if (path === '/redirect') {
    res.writeHead(302, { location: '/status/200' }).end('moved');
  } else if (path === '/drip') {
    res.writeHead(200).write('first bytes, then nothing');
  }
  // '/hang' never answers.
}

describe('OutboundHttp', () => {
  let server: http.Server;
  let base: string;
  let port: number;
  let connections = 0;
  let requests = 0;
  let endlessClosed: Promise<boolean>;
  const guarded = new OutboundHttp({ allowPrivateTargets: false });
  const open = new OutboundHttp({ allowPrivateTargets: true });

  beforeAll(async () => {
    let reportClosed: (finished: boolean) => void = () => undefined;
    endlessClosed = new Promise((resolve) => (reportClosed = resolve));
    server = http.createServer((req, res) => {
      requests++;
      handle(req, res, reportClosed);
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    guarded.close();
    open.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  async function failure(client: OutboundHttp, request: OutboundRequest): Promise<OutboundError> {
    const error: unknown = await client.send(request).then(
      () => undefined,
      (rejection: unknown) => rejection,
    );
    if (!(error instanceof OutboundError)) throw new Error(`expected an OutboundError, got ${String(error)}`);
    return error;
  }

  it('answers 2xx, 4xx and 5xx with their status and body', async () => {
    for (const status of [200, 204, 404, 500, 503]) {
      const response = await open.send({ url: `${base}/status/${status}`, method: 'GET' });
      expect(response).toMatchObject({ status, ok: status < 300, body: status === 204 ? '' : `status ${status}` });
      expect(response.durationMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('sends method, headers and body, and reuses a keep-alive connection', async () => {
    const receiver = await startHttpReceiver();
    const client = new OutboundHttp({ allowPrivateTargets: true });
    try {
      receiver.respondWith(201);
      const first = await client.send({ url: `${receiver.url}/hook?x=1`, headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
      const second = await client.send({ url: `${receiver.url}/hook`, method: 'PUT', body: 'two' });
      expect([first.status, second.status]).toEqual([201, 200]);
      const [one, two] = await receiver.waitFor(2);
      expect(one).toMatchObject({ method: 'POST', path: '/hook?x=1', body: '{"a":1}' });
      expect(one!.headers['content-type']).toBe('application/json');
      expect(two).toMatchObject({ method: 'PUT', path: '/hook', body: 'two' });
      expect(one!.headers.connection).toBe('keep-alive');
    } finally {
      client.close();
      await receiver.close();
    }
  });

  it('counts one connection for sequential requests', async () => {
    const client = new OutboundHttp({ allowPrivateTargets: true });
    const before = connections;
    try {
      for (let i = 0; i < 5; i++) await client.send({ url: `${base}/status/200` });
      expect(connections - before).toBe(1);
    } finally {
      client.close();
    }
  });

  it('keeps at most maxResponseBytes of a 5 MB body', async () => {
    const response = await open.send({ url: `${base}/big`, method: 'GET', maxResponseBytes: 1000 });
    expect(response.status).toBe(200);
    expect(response.body).toBe('a'.repeat(1000));
    expect((await open.send({ url: `${base}/big`, method: 'GET' })).body).toHaveLength(65_536);
  });

  it('stops reading an endless body at the bound and drops the connection', async () => {
    const response = await open.send({ url: `${base}/endless`, method: 'GET', maxResponseBytes: 10, timeoutMs: 5000 });
    expect(response.body).toBe('aaaaaaaaaa');
    expect(await endlessClosed).toBe(false);
  });

  it('never splits a character when it cuts the body', async () => {
    const response = await open.send({ url: `${base}/utf8`, method: 'GET', maxResponseBytes: 5 });
    expect(response.body).toBe('éé');
    expect((await open.send({ url: `${base}/utf8`, method: 'GET' })).body).toBe('é'.repeat(100));
  });

  it('returns a redirect without following it', async () => {
    const before = requests;
    const response = await open.send({ url: `${base}/redirect`, method: 'GET' });
    expect(response).toMatchObject({ status: 302, ok: false, body: 'moved' });
    expect(requests - before).toBe(1);
  });

  it('times out when the server never answers, or never finishes the body', async () => {
    for (const path of ['/hang', '/drip']) {
      const error = await failure(open, { url: `${base}${path}`, timeoutMs: 200 });
      expect(error).toMatchObject({ code: 'timeout', message: 'timed out after 200 ms' });
      expect(error.durationMs).toBeGreaterThanOrEqual(190);
      expect(error.durationMs).toBeLessThan(2000);
    }
  });

  it('reports a refused connection as a network error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failure(open, { url: `http://127.0.0.1:${closedPort}/` });
    expect(error.code).toBe('network');
    expect(error.message).toMatch(/ECONNREFUSED/);
  });

  it('refuses loopback, private, link-local and mapped targets without connecting', async () => {
    const before = connections;
    const targets = [
      [`http://127.0.0.1:${port}/status/200`, 'refused: 127.0.0.1 is a loopback address'],
      [`http://localhost:${port}/status/200`, /^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address \(/],
      [`http://[::1]:${port}/`, 'refused: ::1 is a loopback address'],
      ['http://10.1.2.3/', 'refused: 10.1.2.3 is a private address'],
      ['http://192.168.1.1/', 'refused: 192.168.1.1 is a private address'],
      ['http://169.254.169.254/latest/meta-data/', 'refused: 169.254.169.254 is a link-local address'],
      [`http://[::ffff:127.0.0.1]:${port}/`, /^refused: ::ffff:7f00:1 is a loopback address \(/],
      ['https://[fd00::1]/', 'refused: fd00::1 is a unique local address'],
      ['http://0.0.0.0/', 'refused: 0.0.0.0 is an unspecified address'],
      ['http://100.64.0.1/', 'refused: 100.64.0.1 is a carrier-grade NAT address'],
      [`http://2130706433:${port}/`, 'refused: 127.0.0.1 is a loopback address'],
    ] as const;
    for (const [url, message] of targets) {
      const error = await failure(guarded, { url, headers: { [SIGNATURE_HEADER]: 't=1,s=secret-bearing' } });
      expect(error.code).toBe('refused');
      expect(error.message).toMatch(message);
      expect(error.message).toContain('ALLOW_PRIVATE_TARGETS=true');
      expect(error.message).not.toContain('secret-bearing');
    }
    expect(connections).toBe(before);
  });

  it('refuses other schemes and invalid URLs, even when private targets are allowed', async () => {
    const before = connections;
    for (const url of [`ftp://127.0.0.1:${port}/`, 'file:///etc/passwd', `ws://127.0.0.1:${port}/`]) {
      const error = await failure(open, { url });
      expect(error).toMatchObject({ code: 'refused' });
      expect(error.message).toMatch(/^refused: [a-z]+: is not http: or https:$/);
    }
    expect(await failure(open, { url: '/relative/path' })).toMatchObject({ code: 'refused', message: 'refused: not a valid absolute URL' });
    expect(connections).toBe(before);
  });

  it('fails a request Node will not build as invalid, and nothing throws when its timeout would have passed', async () => {
    const uncaught: unknown[] = [];
    const keep = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', keep);
    try {
      const before = requests;
      const unbuildable: OutboundRequest[] = [
        { url: `${base}/status/200`, headers: { 'x-token': 'line\r\nInjected: yes' } },
        { url: `${base}/status/200`, headers: { 'x-token': 'nul\u0000' } },
        { url: `${base}/status/200`, headers: { 'x-token': 'del\u007f' } },
        { url: `${base}/status/200`, headers: { 'x-token': 'wide \u0100 secret-bearing' } },
        { url: `${base}/status/200`, headers: { 'bad name': 'value' } },
        { url: `http://%ff@127.0.0.1:${port}/status/200` },
      ];
      for (const request of unbuildable) {
        const error = await failure(open, { ...request, timeoutMs: 20 });
        expect(error).toMatchObject({ code: 'invalid' });
        expect(error.message).toMatch(/^refused: the request could not be built: /);
        expect(error.message).not.toContain('secret-bearing');
      }
      // The timeout of each would have fired by now.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(uncaught).toEqual([]);
      expect(requests).toBe(before);
    } finally {
      process.off('uncaughtException', keep);
    }
  });

  it('reaches loopback targets when private targets are allowed', async () => {
    expect((await open.send({ url: `http://localhost:${port}/status/200` })).status).toBe(200);
    expect((await open.send({ url: `http://127.0.0.1:${port}/status/200` })).status).toBe(200);
  });

  it('signs a body so that the receiver can verify it', async () => {
    const receiver = await startHttpReceiver();
    try {
      const body = JSON.stringify({ event: 'entry.published', id: 'é-1' });
      const t = 1_700_000_000;
      await open.send({ url: receiver.url, headers: { [SIGNATURE_HEADER]: signatureHeader('whsec', body, t), 'content-type': 'application/json' }, body });
      const [request] = await receiver.waitFor(1);
      const match = /^t=(\d+),s=([0-9a-f]{64})$/.exec(String(request!.headers['svc-signature']));
      expect(match).not.toBeNull();
      expect(Number(match![1])).toBe(t);
      expect(match![2]).toBe(createHmac('sha256', 'whsec').update(`${t}.${request!.body}`).digest('hex'));
    } finally {
      await receiver.close();
    }
  });

  it('trusts a self-signed HTTPS server only when its certificate is given', async () => {
    const receiver = await startHttpsReceiver();
    const trusting = new OutboundHttp({ allowPrivateTargets: true, extraCaCertificates: receiver.caCertificate });
    try {
      const error = await failure(open, { url: `${receiver.url}/hook` });
      expect(error.code).toBe('network');
      expect(error.message).toMatch(/self[- ]signed/i);
      expect(receiver.requests).toHaveLength(0);

      const response = await trusting.send({ url: `${receiver.url}/hook`, body: 'over tls' });
      expect(response).toMatchObject({ status: 200, ok: true });
      expect((await receiver.waitFor(1))[0]).toMatchObject({ path: '/hook', body: 'over tls' });
      expect((await trusting.send({ url: `${receiver.url.replace('localhost', '127.0.0.1')}/ip` })).status).toBe(200);
    } finally {
      trusting.close();
      await receiver.close();
    }
  });
});
