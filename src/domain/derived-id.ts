import { createHash } from 'node:crypto';

/**
 * A UUID-shaped digest of what makes something unique: the same parts always give the same
 * id, so a process that repeats its work (at-least-once) appends to the same stream.
 */
export function derivedId(...parts: readonly (string | number)[]): string {
  const hex = createHash('sha256').update(parts.join(':')).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
