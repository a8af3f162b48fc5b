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

/** One HTTP call over a real socket; JSON bodies are parsed. */
export async function call<Body = any>(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<Answer<Body>> {
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
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  const parsed = type.includes('json') && text !== '' ? JSON.parse(text) : text;
  return { status: response.status, headers: response.headers, body: parsed as Body };
}

/** A client bound to one base URL. */
export function client(baseUrl: string) {
  return <Body = any>(method: string, path: string, options?: RequestOptions) => call<Body>(baseUrl, method, path, options);
}
