/**
 * The value `record` holds under `key` itself, never one it inherits: client-chosen keys such
 * as `constructor`, `toString` or `__proto__` index plain objects, and `record[key]` would
 * answer Object.prototype's members for them.
 */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
