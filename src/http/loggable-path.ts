/**
 * Path segments that are secrets: a shared-access key (revoked by its value) and the
 * operation id of an action callback (the callback's only credential). Matched on the raw
 * path, so a request refused before routing (rate limit, unknown route) is redacted too.
 */
const SECRET_SEGMENTS: readonly RegExp[] = [/^(\/assets\/[^/]+\/shared-access-keys\/)[^/]+/i, /^(\/actions\/callback\/[^/]+\/)[^/]+/i];

/** The request path as it may be logged: secret segments replaced. The query string is never logged. */
export function loggablePath(path: string): string {
  return SECRET_SEGMENTS.reduce((redacted, pattern) => redacted.replace(pattern, '$1[redacted]'), path);
}
