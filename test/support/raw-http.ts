import http from 'node:http';

export interface RawRequest {
  readonly method: string;
  /** Sent exactly as given: no normalisation of `..`, no re-encoding. */
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
}

export interface RawAnswer {
  /** 0 when no answer came. */
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** Why no answer came, when none did. */
  readonly error?: string;
}

const ANSWER_TIMEOUT_MS = 15_000;

/**
 * node:http sends the body of a GET, HEAD, DELETE, OPTIONS or TRACE with neither Content-Length nor
 * chunked encoding, so the server rightly reads those bytes as the start of the next request on the
 * connection. Every body is framed here, as real clients frame it.
 */
function framedHeaders(request: RawRequest): Record<string, string> | undefined {
  if (request.body === undefined) return request.headers;
  const given = Object.keys(request.headers ?? {}).map((name) => name.toLowerCase());
  if (given.includes('content-length') || given.includes('transfer-encoding')) return request.headers;
  return { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) };
}

/**
 * One request over a real socket through node:http, which (unlike fetch) sends the path,
 * method and headers as given. An answer that arrives before the body is fully sent (a 413
 * to an oversize body) counts, even if the server then closes the connection.
 */
export function sendRaw(baseUrl: string, request: RawRequest, agent?: http.Agent): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    let settled = false;
    const settle = (answer: RawAnswer) => {
      if (settled) return;
      settled = true;
      resolve(answer);
    };
    let received: http.IncomingMessage | null = null;
    const chunks: Buffer[] = [];
    const answered = () => settle({ status: received!.statusCode ?? 0, headers: received!.headers, body: Buffer.concat(chunks).toString('utf8') });
    const outgoing = http.request(
      { host: hostname, port, method: request.method, path: request.path, headers: framedHeaders(request), agent, timeout: ANSWER_TIMEOUT_MS },
      (response) => {
        received = response;
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', answered);
        response.on('close', answered);
        response.on('error', answered);
      },
    );
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)));
    outgoing.on('error', (error) => (received ? answered() : settle({ status: 0, headers: {}, body: '', error: error.message })));
    outgoing.end(request.body);
  });
}

export interface SlowRequest {
  /** Resolves once the headers and the first half of the body are on the wire. */
  readonly started: Promise<void>;
  /** Sends the rest of the body. */
  finish(): void;
  readonly answer: Promise<RawAnswer>;
}

/** A request held in flight: half its body is sent at once, the rest only on `finish()`. */
export function startSlowRequest(baseUrl: string, request: RawRequest & { readonly body: Buffer }, agent?: http.Agent): SlowRequest {
  const { hostname, port } = new URL(baseUrl);
  const half = Math.floor(request.body.length / 2);
  let outgoing!: http.ClientRequest;
  const answer = new Promise<RawAnswer>((resolve) => {
    outgoing = http.request(
      { host: hostname, port, method: request.method, path: request.path, headers: { ...request.headers, 'content-length': String(request.body.length) }, agent },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    outgoing.on('error', (error) => resolve({ status: 0, headers: {}, body: '', error: error.message }));
  });
  const started = new Promise<void>((resolve) => {
    outgoing.flushHeaders();
    outgoing.write(request.body.subarray(0, half), () => resolve());
  });
  return { started, answer, finish: () => outgoing.end(request.body.subarray(half)) };
}
