/**
 * JSON templates (webhook custom payloads, content action bodies and links). A string may
 * hold placeholders `{{path}}`, where path is a dot path starting at one of the template's
 * roots (`fields.title`). A string that is exactly one placeholder becomes the value itself,
 * of whatever JSON type; placeholders inside longer text are replaced by the value as text.
 * A missing value is null, or the empty string inside text.
 */
const PATH = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_-]+)*$/;
const MAX_DEPTH = 20;
const OPEN_BRACE = '{'.charCodeAt(0);
const CLOSE_BRACE = '}'.charCodeAt(0);

export interface TemplateProblem {
  /** JSON path below the template's own field, empty for the template itself: `.body.title`, `[2]`. */
  readonly path: string;
  readonly message: string;
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
  const { literals, placeholders } = scanText(text);
  for (const { path } of placeholders) {
    if (!PATH.test(path)) return `placeholder {{${path}}} is not a dot path`;
    const root = path.split('.')[0]!;
    if (!roots.includes(root)) return `placeholder {{${path}}} must start with one of ${roots.join(', ')}`;
  }
  return literals.join('').includes('{{') ? 'a placeholder is not closed with }}' : null;
}

/** The template with its placeholders filled from `values`; assumes findTemplateProblem found none. */
export function renderTemplate(template: unknown, values: Readonly<Record<string, unknown>>): unknown {
  if (typeof template === 'string') {
    const { placeholders } = scanText(template);
    const only = placeholders.length === 1 ? placeholders[0]! : null;
    if (only && only.start === 0 && only.end === template.length) return lookup(values, only.path) ?? null;
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
  const { literals, placeholders } = scanText(text);
  let rendered = literals[0]!;
  placeholders.forEach((placeholder, index) => {
    rendered += encode(asText(lookup(values, placeholder.path))) + literals[index + 1]!;
  });
  return rendered;
}

interface Placeholder {
  /** The dot path between the braces, surrounding whitespace trimmed. */
  readonly path: string;
  readonly start: number;
  readonly end: number;
}

/**
 * The placeholders of `text` and the literal text around them (one more literal than
 * placeholders). A placeholder is `{{`, then text holding no brace, then `}}`; the leftmost
 * one wins, as a global regular expression would find them, but in one pass: a pattern
 * such as /\{\{\s*([^{}]*?)\s*\}\}/ backtracks cubically on `{{` followed by spaces.
 */
function scanText(text: string): { literals: string[]; placeholders: Placeholder[] } {
  const literals: string[] = [];
  const placeholders: Placeholder[] = [];
  let literalStart = 0;
  let candidate = text.indexOf('{{');
  while (candidate !== -1) {
    const brace = nextBrace(text, candidate + 2);
    if (brace === -1) break;
    if (text.startsWith('}}', brace)) {
      literals.push(text.slice(literalStart, candidate));
      placeholders.push({ path: text.slice(candidate + 2, brace).trim(), start: candidate, end: brace + 2 });
      literalStart = brace + 2;
      candidate = text.indexOf('{{', literalStart);
    } else {
      // No placeholder starts between the candidate and the brace, which holds none; `{{{` may start one at the second brace.
      candidate = text.indexOf('{{', brace === candidate + 2 ? candidate + 1 : brace);
    }
  }
  literals.push(text.slice(literalStart));
  return { literals, placeholders };
}

/** The index of the first `{` or `}` at or after `from`, or -1. */
function nextBrace(text: string, from: number): number {
  for (let index = from; index < text.length; index++) {
    const character = text.charCodeAt(index);
    if (character === OPEN_BRACE || character === CLOSE_BRACE) return index;
  }
  return -1;
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
