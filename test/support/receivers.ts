import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { SMTPServer } from 'smtp-server';

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  readonly at: number;
}

export interface Receiver {
  readonly url: string;
  readonly requests: ReceivedRequest[];
  /** Next responses to give, in order; after they run out, `fallback`. */
  respondWith(...statuses: number[]): void;
  fallback: number;
  /** The body of every response; empty by default. */
  replyBody: string;
  /** The first `count` requests, once that many arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

export interface MailMessage {
  readonly from: string;
  readonly to: string[];
  readonly raw: string;
}

export interface MailServer {
  /** smtp://127.0.0.1:<port> */
  readonly url: string;
  readonly messages: MailMessage[];
  /** The first `count` messages, once that many arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<MailMessage[]>;
  close(): Promise<void>;
}

/** An array that can be awaited until it holds `count` items. */
function collector<T>(noun: string) {
  const items: T[] = [];
  const waiters = new Set<() => void>();
  return {
    items,
    add(item: T) {
      items.push(item);
      for (const wake of waiters) wake();
    },
    waitFor(count: number, timeoutMs = 5000): Promise<T[]> {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (items.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(items.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} ${noun} within ${timeoutMs} ms, got ${items.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

async function receive(server: http.Server | https.Server, scheme: 'http' | 'https', host: string): Promise<Receiver> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const received = collector<ReceivedRequest>('requests');
  const queued: number[] = [];
  const receiver: Receiver = {
    url: `${scheme}://${host}:${(server.address() as AddressInfo).port}`,
    requests: received.items,
    respondWith: (...statuses) => void queued.push(...statuses),
    fallback: 200,
    replyBody: '',
    waitFor: received.waitFor,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.add({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      res.writeHead(queued.shift() ?? receiver.fallback).end(receiver.replyBody);
    });
  });
  return receiver;
}

/** http://127.0.0.1:<port> */
export function startHttpReceiver(): Promise<Receiver> {
  return receive(http.createServer(), 'http', '127.0.0.1');
}

/** A self-signed certificate for localhost, 127.0.0.1 and ::1. */
async function selfSignedCertificate(): Promise<{ key: string; cert: string }> {
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

/** https://localhost:<port>, serving a self-signed certificate; `caCertificate` is its PEM, to trust it. */
export async function startHttpsReceiver(): Promise<Receiver & { readonly caCertificate: string }> {
  const { key, cert } = await selfSignedCertificate();
  const receiver = await receive(https.createServer({ key, cert }), 'https', 'localhost');
  return Object.assign(receiver, { caCertificate: cert });
}

/** smtp://127.0.0.1:<port>, no authentication required, no TLS. */
export async function startMailServer(): Promise<MailServer> {
  const received = collector<MailMessage>('messages');
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    closeTimeout: 100,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const { mailFrom, rcptTo } = session.envelope;
        received.add({ from: mailFrom ? mailFrom.address : '', to: rcptTo.map((to) => to.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    messages: received.items,
    waitFor: received.waitFor,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Recomputes a request's `Svc-Signature` (`t={seconds},s={hex HMAC-SHA256 of "{t}.{body}"}`) as a receiver would. */
export function signedWith(request: ReceivedRequest, secret: string): boolean {
  const match = /^t=(\d+),s=([0-9a-f]{64})$/.exec(String(request.headers['svc-signature']));
  return match !== null && createHmac('sha256', secret).update(`${match[1]}.${request.body}`).digest('hex') === match[2];
}
