import type { z } from 'zod';

/** The command's arguments checked by `schema`; the first problem becomes the error, prefixed by the command. */
export function parseArguments<Schema extends z.ZodType>(command: string, schema: Schema, input: unknown): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new Error(`${command}: ${parsed.error.issues[0]!.message}`);
}
