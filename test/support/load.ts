export interface LoadRequest {
  /** A label to group answers by (e.g. 'write', 'read'). */
  readonly kind: string;
  readonly method: string;
  readonly path: string;
  readonly key: string;
  readonly body?: unknown;
}

export interface Sample {
  readonly kind: string;
  readonly startedAt: number;
  readonly endedAt: number;
  /** 0 when no answer came (refused, reset or timed out). */
  readonly status: number;
  readonly contentType: string;
  readonly retryAfter: string | null;
  readonly body: string;
}

export interface Load {
  readonly samples: Sample[];
  /** Lets every client finish its request in flight, then stops them. */
  stop(): Promise<void>;
}

/** Gives up on one request after this long: a hang shows as status 0 and a long duration. */
const REQUEST_TIMEOUT_MS = 15_000;

/** `clients` loops, each sending the requests `next` makes, one after another, until stopped; every answer is kept. */
export function driveLoad(baseUrl: string, clients: number, next: (client: number, sequence: number) => LoadRequest): Load {
  const samples: Sample[] = [];
  let running = true;
  const loop = async (client: number) => {
    for (let sequence = 0; running; sequence++) {
      const request = next(client, sequence);
      const startedAt = Date.now();
      const headers: Record<string, string> = { 'x-api-key': request.key };
      if (request.body !== undefined) headers['content-type'] = 'application/json';
      try {
        const response = await fetch(`${baseUrl}${request.path}`, {
          method: request.method,
          headers,
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const body = await response.text();
        samples.push({
          kind: request.kind,
          startedAt,
          endedAt: Date.now(),
          status: response.status,
          contentType: response.headers.get('content-type') ?? '',
          retryAfter: response.headers.get('retry-after'),
          body,
        });
      } catch (error) {
        samples.push({ kind: request.kind, startedAt, endedAt: Date.now(), status: 0, contentType: '', retryAfter: null, body: String(error) });
      }
    }
  };
  const loops = Array.from({ length: clients }, (_, client) => loop(client));
  return {
    samples,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** The p-th percentile (0-100) of `values`, nearest rank; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
