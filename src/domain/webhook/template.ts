import { invalid } from '../errors';

/**
 * Custom payloads are JSON templates. A string may hold placeholders `{{path}}`, where path
 * starts at one of the envelope's fields (`contentId`, `fields.title`, `translations.title.de`).
 * A string that is exactly one placeholder becomes the value itself, of whatever JSON type;
 * placeholders inside longer text are replaced by the value as text. A missing value is
 * null, or the empty string inside text.
 */
export const TEMPLATE_ROOTS = [
  'eventType',
  'eventTypeCode',
  'deliveryId',
  'webhookId',
  'workspaceId',
  'contentType',
  'contentId',
  'fields',
  'translations',
  'occurredAt',
] as const;

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g;
const WHOLE_PLACEHOLDER = /^\{\{\s*([^{}]*?)\s*\}\}$/;
const PATH = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z0-9_-]+)*$/;
const MAX_DEPTH = 20;

/** Throws a 400 naming the JSON path of the first bad placeholder. */
export function validateTemplate(template: Record<string, unknown>, field = 'customPayload'): void {
  visit(template, field, 0);
}

function visit(value: unknown, field: string, depth: number): void {
  if (depth > MAX_DEPTH) throw invalid(`nested more than ${MAX_DEPTH} levels`, field);
  if (typeof value === 'string') return checkText(value, field);
  if (Array.isArray(value)) return value.forEach((item, index) => visit(item, `${field}[${index}]`, depth + 1));
  if (value !== null && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) visit(inner, `${field}.${key}`, depth + 1);
  }
}

function checkText(text: string, field: string): void {
  for (const [, path] of text.matchAll(PLACEHOLDER)) {
    if (!PATH.test(path!)) throw invalid(`placeholder {{${path}}} is not a dot path`, field);
    const root = path!.split('.')[0]!;
    if (!(TEMPLATE_ROOTS as readonly string[]).includes(root)) {
      throw invalid(`placeholder {{${path}}} must start with one of ${TEMPLATE_ROOTS.join(', ')}`, field);
    }
  }
  if (text.replace(PLACEHOLDER, '').includes('{{')) throw invalid('a placeholder is not closed with }}', field);
}

/** The template with its placeholders filled from `values`; assumes validateTemplate passed. */
export function renderTemplate(template: unknown, values: Readonly<Record<string, unknown>>): unknown {
  if (typeof template === 'string') {
    const whole = WHOLE_PLACEHOLDER.exec(template);
    if (whole) return lookup(values, whole[1]!) ?? null;
    return template.replace(PLACEHOLDER, (_, path: string) => asText(lookup(values, path)));
  }
  if (Array.isArray(template)) return template.map((item) => renderTemplate(item, values));
  if (template !== null && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([key, inner]) => [key, renderTemplate(inner, values)]));
  }
  return template;
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
