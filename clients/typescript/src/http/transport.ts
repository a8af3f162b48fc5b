import type { Operations } from '../generated/api-types';
import type { OperationId, Route } from '../operations/route';
import { CmsError } from './cms-error';
import { fillPathTemplate, queryString } from './path-template';

export interface ClientOptions {
  /** Where the service answers, e.g. `https://cms.example.com` (a path prefix is kept). */
  readonly baseUrl: string;
  /** Defaults to Node's global fetch; pass another for tests, proxies or retries. */
  readonly fetch?: typeof fetch;
  /** Aborts a call that has not answered after this many milliseconds. */
  readonly timeoutMs?: number;
  /** Sent with every call, e.g. `{ 'X-Request-Id': ... }`. */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface CallInput<Id extends OperationId> {
  readonly path?: Operations[Id]['pathParams'];
  readonly query?: Operations[Id]['query'];
  readonly headers?: Operations[Id]['headers'];
  readonly body?: Operations[Id]['body'];
  /** Statuses besides 2xx that the operation documents as answers rather than errors (a 404 with body null). */
  readonly answerStatuses?: readonly number[];
}

/** Operations answering files or images: their result is the fetch Response, to stream. */
export type BinaryOperationId = { [Id in OperationId]: Operations[Id]['response'] extends Response ? Id : never }[OperationId];
export type TextOperationId = { [Id in OperationId]: Operations[Id]['response'] extends string ? Id : never }[OperationId];

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  return (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
}

function definedHeaders(...sources: (Readonly<Record<string, string | undefined>> | undefined)[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const source of sources) for (const [name, value] of Object.entries(source ?? {})) if (value !== undefined) headers[name] = value;
  return headers;
}

/** Sends the calls of one client: its base address, its credential, and errors as CmsError. */
export class Transport {
  private readonly baseUrl: string;

  constructor(
    private readonly options: ClientOptions,
    private readonly credentialHeaders: Readonly<Record<string, string>>,
  ) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** The absolute address of an operation, without sending anything. */
  url<Id extends OperationId>(route: Route<Id>, input: Pick<CallInput<Id>, 'path' | 'query'> = {}): string {
    return `${this.baseUrl}${fillPathTemplate(route.path, input.path)}${queryString(input.query)}`;
  }

  async json<Id extends OperationId>(route: Route<Id>, input: CallInput<Id> = {}): Promise<Operations[Id]['response']> {
    return (await readBody(await this.send(route, input))) as Operations[Id]['response'];
  }

  async text<Id extends TextOperationId>(route: Route<Id>, input: CallInput<Id> = {}): Promise<string> {
    return (await this.send(route, input)).text();
  }

  async binary<Id extends BinaryOperationId>(route: Route<Id>, input: CallInput<Id> = {}): Promise<Response> {
    return this.send(route, input);
  }

  private async send<Id extends OperationId>(route: Route<Id>, input: CallInput<Id>): Promise<Response> {
    const method = route.method.toUpperCase();
    const hasBody = input.body !== undefined;
    const response = await (this.options.fetch ?? fetch)(this.url(route, input), {
      method,
      headers: definedHeaders(this.options.headers, this.credentialHeaders, input.headers, hasBody ? { 'content-type': route.bodyMediaType ?? 'application/json' } : undefined),
      body: hasBody ? JSON.stringify(input.body) : undefined,
      signal: this.options.timeoutMs === undefined ? undefined : AbortSignal.timeout(this.options.timeoutMs),
    });
    if (response.ok || input.answerStatuses?.includes(response.status)) return response;
    throw new CmsError({ method, path: fillPathTemplate(route.path, input.path), status: response.status, body: await readBody(response), headers: response.headers });
  }
}
