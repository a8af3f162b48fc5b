import { randomBytes } from 'node:crypto';

/** About 136 KB of JSON that compression hardly shrinks, four-byte characters included: stored over 64 KB. */
export function incompressibleData(): { fields: Record<string, string> } {
  return { fields: Object.fromEntries(Array.from({ length: 100 }, (_, index) => [`f${index}`, `${randomBytes(1000).toString('base64')}\ud83c\udf0d\u00e9`])) };
}
