import { invalid } from './errors';

/**
 * JSON templates (webhook custom payloads, content action bodies and links). A string may
 * hold placeholders `{{path}}`, where path is a dot path starting at one of the template's
 * roots (`fields.title`). A string that is exactly one placeholder becomes the value itself,
 * of whatever JSON type; placeholders inside longer text are replaced by the value as text.
 * A missing value is null, or the empty string inside text.
 */
const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const WHOLE_PLACEHOLDER = /^\{\{\s*([^{}]*?)\s*\}\}$/;
const PATH = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_-]+)*$/;
const MAX_DEPTH = 20;

export interface TemplateProblem {
  /** JSON path below the template's own field, empty for the template itself: `.body.title`, `[2]`. */
  readonly path: string;
  readonly message: string;
}

/** Throws a 400 naming the JSON path of the first bad placeholder. */
export function validateTemplate(template: unknown, roots: readonly string[], field: string): void {
  const problem = findTemplateProblem(template, roots);
  if (problem) throw invalid(problem.message, `${field}${problem.path}`);
}

/** The first malformed placeholder, or one that starts at none of `roots`; null when there is none. */
export function findTemplateProblem(value: unknown, roots: readonly string[], path = '', depth = 0): TemplateProblem | null {
  if (depth > MAX_DEPTH) return { path, message: `nested more than ${MAX_DEPTH} levels` };
  if (typeof value === 'string') {
    const message = textProblem(value, roots);
    return message === null ? null : { path, message };
  }
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [`${path}[${index}]`, item])
    : value !== null && typeof value === 'object'
      ? Object.entries(value).map(([key, inner]) => [`${path}.${key}`, inner])
      : [];
  for (const [innerPath, inner] of entries) {
    const problem = findTemplateProblem(inner, roots, innerPath, depth + 1);
    if (problem) return problem;
  }
  return null;
}

function textProblem(text: string, roots: readonly string[]): string | null {
  for (const [, path] of text.matchAll(PLACEHOLDER)) {
    if (!PATH.test(path!)) return `placeholder {{${path}}} is not a dot path`;
    const root = path!.split('.')[0]!;
    if (!roots.includes(root)) return `placeholder {{${path}}} must start with one of ${roots.join(', ')}`;
  }
  return text.replace(PLACEHOLDER, '').includes('{{') ? 'a placeholder is not closed with }}' : null;
}

/** The template with its placeholders filled from `values`; assumes validateTemplate passed. */
export function renderTemplate(template: unknown, values: Readonly<Record<string, unknown>>): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(template);
    if (whole) return lookup(values, whole[1]!) ?? null;
    return renderText(template, values);
  }
  if (Array.isArray(template)) return template.map((item) => renderTemplate(item, values));
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([key, inner]) => [key, renderTemplate(inner, values)]));
  }
  return template;
}

/** Text with every placeholder replaced by its value as text, passed through `encode` (a URL encoder, say). */
export function renderText(text: string, values: Readonly<Record<string, unknown>>, encode: (value: string) => string = (value) => value): string {
  return text.replace(PLACEHOLDER, (_, path: string) => encode(asText(lookup(values, path))));
}

function lookup(values: Readonly<Record<string, unknown>>, path: string): unknown {
  let current: unknown = values;
  for (const segment of path.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
