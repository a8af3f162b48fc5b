/**
 * JSON Merge Patch (RFC 7396): the patch's members replace the target's, `null` removes a
 * member, objects merge recursively and anything else (arrays included) replaces whole.
 * Written here because no merge-patch library is among the dependencies; the RFC's own
 * algorithm is eight lines. Neither argument is modified.
 */
export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    // Defined, not assigned: a member named __proto__ is data, never the result's prototype.
    else Object.defineProperty(result, name, { value: applyMergePatch(Object.hasOwn(result, name) ? result[name] : undefined, value), enumerable: true, writable: true, configurable: true });
  }
  return result;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How deep a patch may nest: far beyond any content, well within the stack `applyMergePatch` recurses on. */
export const MAX_MERGE_PATCH_DEPTH = 100;

/** True when objects or arrays in `value` nest deeper than `limit` levels; iterative, so any input is safe to measure. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}
