import { validateHeaderName, validateHeaderValue } from 'node:http';
import { urlToHttpOptions } from 'node:url';
import { z } from 'zod';

/**
 * The rules every URL, header name and header value that the service will later send
 * (webhook endpoints, scheduled job callbacks, content actions) must pass when it is saved.
 * Node's own checks are the ground truth: what passes here, `http.request()` accepts.
 */

export const MAX_OUTBOUND_URL_LENGTH = 2000;
export const MAX_HEADER_NAME_LENGTH = 200;
export const MAX_HEADER_VALUE_LENGTH = 4000;
export const MAX_CUSTOM_HEADERS = 50;
export type OutboundScheme = 'http:' | 'https:';
export const HTTP_SCHEMES: readonly OutboundScheme[] = ['https:', 'http:'];

/** Header names the service sets itself, or that would corrupt the request. */
const RESERVED_HEADER = /^(svc-.*|host|content-length|connection|transfer-encoding)$/i;

/** What is wrong with `value` as a URL to call, or null when nothing is. */
export function outboundUrlProblem(value: string, schemes: readonly OutboundScheme[] = HTTP_SCHEMES): string | null {
  if (value.length > MAX_OUTBOUND_URL_LENGTH) return `must be at most ${MAX_OUTBOUND_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (!(schemes as readonly string[]).includes(url.protocol)) return schemes.length === 1 ? `must be an ${schemes[0]!.slice(0, -1)} URL` : 'must be an http or https URL';
  try {
    // What http.request() does with a URL: it decodes the user name and password.
    urlToHttpOptions(url);
  } catch {
    return 'must have a user name and password in valid percent-encoding';
  }
  return null;
}

export function headerNameProblem(name: string): string | null {
  if (name.length > MAX_HEADER_NAME_LENGTH) return `must be at most ${MAX_HEADER_NAME_LENGTH} characters`;
  try {
    validateHeaderName(name);
  } catch {
    return 'must be an HTTP header name (letters, digits and !#$%&\'*+-.^_`|~)';
  }
  return RESERVED_HEADER.test(name) ? 'is set by the service' : null;
}

/** Also for ids the service sends as header values (idempotency and correlation ids). */
export function headerValueProblem(value: string): string | null {
  if (value.length > MAX_HEADER_VALUE_LENGTH) return `must be at most ${MAX_HEADER_VALUE_LENGTH} characters`;
  try {
    validateHeaderValue('x', value);
  } catch {
    return 'must hold only printable characters up to U+00FF, spaces and tabs (no line breaks or control characters)';
  }
  return null;
}

const refined = (problem: (value: string) => string | null) =>
  z.string().superRefine((value, context) => {
    const message = problem(value);
    if (message) context.addIssue({ code: 'custom', message });
  });

/** A URL the service will call. */
export const outboundUrl = (schemes: readonly OutboundScheme[] = HTTP_SCHEMES) => refined((value) => outboundUrlProblem(value, schemes));

/** A value the service will send in a header. */
export const headerValue = refined(headerValueProblem);

/** Custom headers the service will send; each problem names its header (`headers.X-Token`). */
export const customHeaders = z.record(z.string(), z.string()).superRefine((headers, context) => {
  const names = Object.keys(headers);
  if (names.length > MAX_CUSTOM_HEADERS) context.addIssue({ code: 'custom', message: `must have at most ${MAX_CUSTOM_HEADERS} headers` });
  for (const name of names) {
    const message = headerNameProblem(name) ?? headerValueProblem(headers[name]!);
    if (message) context.addIssue({ code: 'custom', path: [name], message });
  }
});
