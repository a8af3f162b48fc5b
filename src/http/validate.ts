import type { z } from 'zod';
import { badRequest, type FieldError } from './problem';

/** Parses input with a zod schema; failure is a 400 naming every offending field. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown, what = 'body'): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors: FieldError[] = result.error.issues.map((issue) => ({
    field: issue.path.length === 0 ? what : issue.path.map(String).join('.'),
    message: issue.message,
  }));
  throw badRequest(`invalid ${what}: ${errors.map((error) => `${error.field} ${error.message}`).join('; ')}`, errors);
}
