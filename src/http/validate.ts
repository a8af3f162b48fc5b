import type { RequestHandler } from 'express';
import { z } from 'zod';
import { inputSentence, unknownMemberSentence } from './input-sentences';
import { badRequest, type FieldError } from './problem';

/** What a request without a JSON body is told (also one whose Content-Type is not JSON: it was not read). */
const MISSING_BODY = 'is missing: send a JSON object with Content-Type: application/json';

/** Parses input with a zod schema; failure is a 400 naming every offending field, each with a sentence that says what to send. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown, what = 'body'): z.output<Schema> {
  const result = schema.safeParse(input, { error: inputSentence });
  if (result.success) return result.data;
  const errors: FieldError[] = result.error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: [...path, echoed(key)].join('.'), message: unknownMemberSentence(issue, key, issue.message) }));
    }
    if (path.length > 0) return [{ field: path.join('.'), message: issue.message }];
    return [{ field: what, message: input === undefined && what === 'body' ? MISSING_BODY : issue.message }];
  });
  throw badRequest(`invalid ${what}: ${errors.map((error) => `${error.field} ${error.message}`).join('; ')}`, errors);
}

/** Names a client made up are echoed this long at most. */
const MAX_ECHOED_NAME = 100;

const echoed = (name: string) => (name.length > MAX_ECHOED_NAME ? `${name.slice(0, MAX_ECHOED_NAME)}…` : name);

const NO_QUERY = z.strictObject({});

/** For routes that take no query parameters: any one sent is refused, naming it. */
export const takesNoQuery: RequestHandler = (req, _res, next) => {
  parseInput(NO_QUERY, req.query, 'query');
  next();
};
