import express, { type RequestHandler } from 'express';
import { badRequest, type FieldError } from './problem';

/**
 * JSON bodies nest at most this deep (the body itself is level 1). Handlers, validators and
 * serialisers walk values recursively; far deeper input (thousands of levels) would end in a
 * stack overflow and a 500.
 */
export const MAX_BODY_DEPTH = 64;
/** Paths echoed in an answer are cut at this length. */
const MAX_ECHOED_PATH = 200;

interface Node {
  readonly value: unknown;
  readonly depth: number;
  readonly parent: Node | null;
  readonly key: string;
}

/**
 * The first reason to refuse a parsed JSON body: nesting deeper than MAX_BODY_DEPTH, or a
 * `__proto__` key, which no field, parameter or name of this API uses and which plain objects
 * would take as their prototype. Walks the body without recursion.
 */
export function bodyShapeProblem(body: unknown): FieldError | null {
  const pending: Node[] = [{ value: body, depth: 1, parent: null, key: '' }];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node.value === null || typeof node.value !== 'object') continue;
    if (node.depth > MAX_BODY_DEPTH) return { field: pathOf(node), message: `nests deeper than ${MAX_BODY_DEPTH} levels` };
    for (const [key, value] of Object.entries(node.value)) {
      const child = { value, depth: node.depth + 1, parent: node, key };
      if (key === '__proto__' && !Array.isArray(node.value)) return { field: pathOf(child), message: '__proto__ is not accepted as a key' };
      pending.push(child);
    }
  }
  return null;
}

type JsonOptions = NonNullable<Parameters<typeof express.json>[0]>;

/**
 * express.json, refusing a body of the wrong shape (see bodyShapeProblem) with a 400 naming
 * where. Only a body this parser read is walked: one read by another parser before it (an
 * upload chunk's raw bytes, megabytes long) passes untouched. A body of JSON `null` is no body
 * (what a scheduled job without a payload sends); text, numbers and booleans are refused.
 * No `verify` of its own: with one, the parser keeps the body as bytes and decodes all of it at
 * once (5 ms for a 1.3 MB item), where without it each chunk is decoded as it arrives.
 */
export function jsonBody(options: JsonOptions): RequestHandler {
  const parse = express.json({ ...options, strict: false });
  return (req, res, next) => {
    const readBefore = req.readableEnded;
    parse(req, res, (error?: unknown) => {
      if (error || readBefore || !req.readableEnded) return next(error);
      if (req.body === null) req.body = undefined;
      if (req.body !== undefined && typeof req.body !== 'object') {
        return next(badRequest('the request body must be a JSON object (or null for none)', [{ field: 'body', message: 'must be a JSON object (or null for none)' }]));
      }
      const problem = bodyShapeProblem(req.body);
      next(problem ? badRequest(`the request body ${problem.message}`, [problem]) : undefined);
    });
  };
}

function pathOf(node: Node): string {
  const keys: string[] = [];
  for (let current: Node | null = node; current?.parent; current = current.parent) keys.push(current.key);
  const path = keys.reverse().join('.') || 'body';
  return path.length > MAX_ECHOED_PATH ? `${path.slice(0, MAX_ECHOED_PATH)}…` : path;
}
