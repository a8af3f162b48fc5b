/**
 * JSON Merge Patch (RFC 7396): the patch's members replace the target's, `null` removes a
 * member, objects merge recursively and anything else (arrays included) replaces whole.
 * Written here because no merge-patch library is among the dependencies; the RFC's own
 * algorithm is eight lines. Neither argument is modified. It recurses: request bodies reach it
 * only after the body-shape check has bounded their nesting (src/http/body-shape.ts).
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
