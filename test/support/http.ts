export interface Answer<Body = unknown> {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Body;
}

export interface RequestOptions {
  /** A workspace or app key, sent as X-Api-Key unless `bearer` is set. */
  readonly key?: string;
  readonly bearer?: string;
  readonly body?: unknown;
  /** Sent as-is, for malformed-body tests. */
  readonly rawBody?: string;
  readonly headers?: Record<string, string>;
}

function requestInit(method: string, options: RequestOptions): RequestInit {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['x-api-key'] = options.key;
  if (options.bearer) headers.authorization = `Bearer ${options.bearer}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    headers['content-type'] ??= 'application/json';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  return { method, headers, body };
}

/** One HTTP call over a real socket; JSON bodies are parsed. */
export async function call<Body = any>(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<Answer<Body>> {
  const response = await fetch(`${baseUrl}${path}`, requestInit(method, options));
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const parsed = type.includes('json') && text !== '' ? JSON.parse(text) : text;
  return { status: response.status, headers: response.headers, body: parsed as Body };
}

/**
 * One call whose answer is kept as the pieces that arrived, joined and parsed by `json()` only: a
 * test measuring latency on this thread while a large answer arrives (50 MB: a second of decoding
 * and parsing) measures the service, not its own client.
 */
export async function callKeepingBytes(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<{ readonly status: number; json: <Body = any>() => Body }> {
  const response = await fetch(`${baseUrl}${path}`, requestInit(method, options));
  const pieces: Uint8Array[] = [];
  for await (const piece of response.body ?? []) pieces.push(piece);
  return { status: response.status, json: () => JSON.parse(Buffer.concat(pieces).toString('utf8')) };
}

/** A client bound to one base URL. */
export function client(baseUrl: string) {
  return <Body = any>(method: string, path: string, options?: RequestOptions) => call<Body>(baseUrl, method, path, options);
}
