import type { Request } from 'express';
import { z } from 'zod';
import { bodyShapeProblem } from './body-shape';
import { badRequest, type FieldError, ProblemError } from './problem';

/** The longest query string a GET query takes; a longer query goes in the body of its POST form. */
export const MAX_QUERY_STRING = 8192;

/** How a body member is written as a parameter: as it is, as a number, true/false, comma-separated, or as JSON. */
type QueryForm = 'text' | 'number' | 'boolean' | 'list' | 'json';

/**
 * The GET form of a POST query (docs/api.md, "GET queries"): each query parameter is the body
 * member of its name, written in the form of its type. Returns the body the query string
 * stands for, to parse with the POST body's schema (so a parameter the body does not take is
 * refused like a member, naming it). Parameters in `beside` are read by the route itself.
 */
export function queryBody(schema: z.ZodObject, beside: readonly string[]): (req: Request) => Record<string, unknown> {
  const forms = new Map(Object.entries(schema.shape).map(([name, member]) => [name, formOf(member as z.ZodType)]));
  return (req) => {
    const mark = req.originalUrl.indexOf('?');
    const queryString = mark === -1 ? '' : req.originalUrl.slice(mark + 1);
    if (queryString.length > MAX_QUERY_STRING) {
      throw new ProblemError(414, `the query string is ${queryString.length} characters long, more than ${MAX_QUERY_STRING}: send the same query as the JSON body of POST ${req.path}`);
    }
    const members: [string, unknown][] = [];
    const errors: FieldError[] = [];
    for (const [name, value] of Object.entries(req.query as Record<string, string | string[]>)) {
      if (beside.includes(name)) continue;
      if (typeof value !== 'string') {
        errors.push({ field: name, message: 'is given more than once: give it once' });
        continue;
      }
      const decoded = decode(name, value, forms.get(name) ?? 'text');
      if ('error' in decoded) errors.push(decoded.error);
      else members.push([name, decoded.value]);
    }
    if (errors.length > 0) throw badRequest(`invalid query: ${errors.map((error) => `${error.field} ${error.message}`).join('; ')}`, errors);
    // Own members whatever their names (`__proto__` too), for the schema to refuse those it does not take.
    return Object.fromEntries(members);
  };
}

/**
 * The query parameters of a GET query, for the OpenAPI document: the body's members, JSON ones
 * and lists as the text they are written in.
 */
export function queryParameters(schema: z.ZodObject): z.ZodObject {
  const parameters: Record<string, z.ZodType> = {};
  for (const [name, member] of Object.entries(schema.shape) as [string, z.ZodType][]) {
    const form = formOf(member);
    if (form === 'json') parameters[name] = z.string().optional().describe(`the body's ${name} as JSON (URL-encoded)`);
    else if (form === 'list') parameters[name] = z.string().optional().describe(`the body's ${name}, comma-separated`);
    else parameters[name] = member;
  }
  return z.object(parameters);
}

type Decoded = { readonly value: unknown } | { readonly error: FieldError };

function decode(name: string, text: string, form: QueryForm): Decoded {
  switch (form) {
    case 'number':
      // Anything else is left as text, for the schema to refuse with its own sentence.
      return { value: /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text };
    case 'boolean':
      return { value: text === 'true' ? true : text === 'false' ? false : text };
    case 'list':
      return { value: text === '' ? [] : text.split(',') };
    case 'json':
      return decodeJson(name, text);
    case 'text':
      return { value: text };
  }
}

function decodeJson(name: string, text: string): Decoded {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: { field: name, message: 'is not valid JSON: send it as the JSON of the body member, URL-encoded' } };
  }
  const problem = bodyShapeProblem(value);
  if (problem) return { error: { field: problem.field === 'body' ? name : `${name}.${problem.field}`, message: problem.message } };
  return { value };
}

/** The form of a member by its type, under optional, nullable, default and transforms. */
function formOf(member: z.ZodType): QueryForm {
  let type = member as z.core.$ZodType;
  for (;;) {
    const def = type._zod.def as { type: string; innerType?: z.core.$ZodType; in?: z.core.$ZodType };
    if (def.type === 'pipe') type = def.in!;
    else if (def.innerType) type = def.innerType;
    else break;
  }
  const kind = type._zod.def.type;
  if (kind === 'number') return 'number';
  if (kind === 'boolean') return 'boolean';
  if (kind === 'array') return 'list';
  if (kind === 'string' || kind === 'enum' || kind === 'literal') return 'text';
  return 'json';
}
