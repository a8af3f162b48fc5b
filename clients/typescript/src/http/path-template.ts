/** The document's name for a wildcard route parameter: the one parameter that may hold slashes. */
const WILDCARD = 'path';

function encodeSegment(name: string, segment: string): string {
  // URL parsing resolves "." and ".." (even percent-encoded), which would send the call to another route.
  if (segment === '' || segment === '.' || segment === '..') throw new TypeError(`path parameter ${name} must not be empty, "." or ".."`);
  return encodeURIComponent(segment);
}

/** `/webhooks/{id}` with `{ id }` filled in, each value percent-encoded. */
export function fillPathTemplate(template: string, values: Readonly<Record<string, string | number>> = {}): string {
  return template.replace(/\{([^}]+)\}/g, (_placeholder, name: string) => {
    const value = values[name];
    if (value === undefined) throw new TypeError(`path parameter ${name} is missing for ${template}`);
    const text = String(value);
    return name === WILDCARD ? text.split('/').map((segment) => encodeSegment(name, segment)).join('/') : encodeSegment(name, text);
  });
}

export type QueryValue = string | number | boolean | null | undefined;

/** `?a=1&b=x`, leaving out absent values; empty when nothing is set. */
export function queryString(values: Readonly<Record<string, QueryValue>> = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value !== undefined && value !== null) search.append(name, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}
