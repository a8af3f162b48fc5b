import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { performance } from 'node:perf_hooks';
import { StringDecoder } from 'node:string_decoder';
import { rootCertificates } from 'node:tls';
import { guardedLookup, RefusedTargetError, refuseAddress } from './address-guard';

export const OUTBOUND_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type OutboundMethod = (typeof OUTBOUND_METHODS)[number];

export interface OutboundRequest {
  readonly url: string;
  /** Default POST. */
  readonly method?: OutboundMethod;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Whole exchange, connect to last body byte; default 10_000. */
  readonly timeoutMs?: number;
  /** Response body bytes kept; the rest is discarded (the socket is destroyed); default 65_536. */
  readonly maxResponseBytes?: number;
}

export interface OutboundResponse {
  readonly status: number;
  /** 2xx */
  readonly ok: boolean;
  /** UTF-8, at most maxResponseBytes bytes. */
  readonly body: string;
  readonly durationMs: number;
}

/** `invalid`: Node would not build the request (a header name or value, or the URL's userinfo, it rejects). */
export type OutboundErrorCode = 'refused' | 'invalid' | 'timeout' | 'network';

/**
 * The request never got an HTTP answer: refused target, a request Node would not build, DNS
 * failure, connect error, TLS error, timeout. The message is a short human text and never holds
 * request header values (they carry signatures and tokens).
 */
export class OutboundError extends Error {
  constructor(
    readonly code: OutboundErrorCode,
    message: string,
    readonly durationMs: number,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface OutboundOptions {
  readonly allowPrivateTargets: boolean;
  /** Extra trusted CA certificates (PEM), added to Node's default roots, e.g. an internal CA. */
  readonly extraCaCertificates?: string;
}

/**
 * The one sender of outbound HTTP. Redirects are never followed: a 3xx is the answer. Keep-alive
 * agents reuse connections at high delivery rates; unless private targets are allowed, their
 * sockets connect only to addresses the guard's lookup checked.
 */
export class OutboundHttp {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(private readonly options: OutboundOptions) {
    const agentOptions = { keepAlive: true, maxSockets: 256, ...(options.allowPrivateTargets ? {} : { lookup: guardedLookup }) };
    this.httpAgent = new http.Agent(agentOptions);
    this.httpsAgent = new https.Agent({
      ...agentOptions,
      ...(options.extraCaCertificates ? { ca: [...rootCertificates, options.extraCaCertificates] } : {}),
    });
  }

  send(request: OutboundRequest): Promise<OutboundResponse> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return Promise.reject(new OutboundError('refused', 'refused: not a valid absolute URL', 0));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return Promise.reject(new OutboundError('refused', `refused: ${url.protocol} is not http: or https:`, 0));
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const refused = !this.options.allowPrivateTargets && isIP(host) !== 0 ? refuseAddress(host) : null;
    if (refused) return Promise.reject(new OutboundError('refused', refused.message, 0));

    const timeoutMs = request.timeoutMs ?? 10_000;
    const maxBytes = request.maxResponseBytes ?? 65_536;
    return new Promise((resolve, reject) => {
      let done = false;
      // Unset until the request exists: a request Node refuses ends before any timer is armed.
      let timer: NodeJS.Timeout | undefined = undefined;
      let req: http.ClientRequest | undefined;
      const finish = (outcome: OutboundResponse | OutboundError) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (outcome instanceof OutboundError) {
          reject(outcome);
          req?.destroy();
        } else {
          resolve(outcome);
        }
      };
      const fail = (code: OutboundErrorCode, message: string) => finish(new OutboundError(code, message, elapsed()));

      const requestOptions = { method: request.method ?? 'POST', headers: request.headers, agent: url.protocol === 'https:' ? this.httpsAgent : this.httpAgent };
      try {
        // Node checks header names and values and decodes the URL's userinfo here, and throws at once.
        req = (url.protocol === 'https:' ? https : http).request(url, requestOptions, (res) => {
          const status = res.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let kept = 0;
          const answer = (complete: boolean) => {
            // A cut can split a character: only a complete body decodes its tail.
            const decoder = new StringDecoder('utf8');
            const body = decoder.write(Buffer.concat(chunks)) + (complete ? decoder.end() : '');
            finish({ status, ok: status >= 200 && status < 300, body, durationMs: elapsed() });
          };
          res.on('data', (chunk: Buffer) => {
            const room = maxBytes - kept;
            if (chunk.length > room) {
              chunks.push(chunk.subarray(0, room));
              answer(false);
              res.destroy();
              return;
            }
            chunks.push(chunk);
            kept += chunk.length;
          });
          res.on('end', () => answer(true));
          res.on('error', (error) => fail('network', error.message));
          res.on('close', () => fail('network', 'connection closed before the response ended'));
        });
        req.on('error', (error) => fail(error instanceof RefusedTargetError ? 'refused' : 'network', error.message));
        req.end(request.body);
      } catch (error) {
        fail('invalid', `refused: the request could not be built: ${unbuildableReason(error)}`);
        return;
      }
      // Armed only once the request exists, so that it always has something to destroy.
      timer = setTimeout(() => fail('timeout', `timed out after ${timeoutMs} ms`), timeoutMs);
    });
  }

  /** Destroys the keep-alive agents and their sockets. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

/** Why Node would not build a request, without the offending value (header values carry tokens). */
function unbuildableReason(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'ERR_INVALID_HTTP_TOKEN') return 'a header name is not a valid HTTP token';
  if (code === 'ERR_INVALID_CHAR' || code === 'ERR_HTTP_INVALID_HEADER_VALUE') return 'a header value holds a character HTTP does not allow';
  if (error instanceof URIError) return "the URL's user name or password is not valid percent-encoding";
  return typeof code === 'string' ? code : 'Node rejected it';
}
