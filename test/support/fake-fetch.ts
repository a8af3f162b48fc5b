export interface SentRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  /** The JSON body, parsed; undefined when none was sent. */
  readonly body: any;
}

export interface FakeFetch {
  readonly fetch: typeof fetch;
  readonly sent: SentRequest[];
}

/** An answer, or how to answer from the request. */
export type FakeAnswer = Response | ((request: SentRequest) => Response);

/** A fetch that records each request and gives the answers in order (then 200 {}). */
export function fakeFetch(...answers: FakeAnswer[]): FakeFetch {
  const sent: SentRequest[] = [];
  const fake = async (url: string | URL | Request, init: RequestInit = {}) => {
    const request: SentRequest = {
      url: String(url),
      method: init.method ?? 'GET',
      headers: { ...(init.headers as Record<string, string>) },
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    sent.push(request);
    const answer = answers.shift() ?? jsonAnswer(200, {});
    return typeof answer === 'function' ? answer(request) : answer;
  };
  return { fetch: fake as typeof fetch, sent };
}

export function jsonAnswer(status: number, body: unknown, headers: Record<string, string> = {}, type = 'application/json'): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': type, ...headers } });
}

export function problemAnswer(status: number, detail: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}): Response {
  return jsonAnswer(status, { type: `https://httpstatuses.io/${status}`, title: 'Problem', status, detail, ...extra }, headers, 'application/problem+json');
}
