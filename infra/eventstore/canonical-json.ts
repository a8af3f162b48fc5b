/**
 * RFC 8785 JSON Canonicalization Scheme (JCS) for values that came out of JSON: object keys
 * sorted by UTF-16 code units, no whitespace, numbers and strings as ECMAScript's
 * JSON.stringify writes them (which is what JCS specifies). PostgreSQL's jsonb keeps neither
 * key order nor spacing, so a hash over the stored text would not survive a round trip.
 */
export function canonicalJson(value: unknown): string {
  // As JSON.stringify does: a Date (or anything with toJSON) is written as what toJSON answers.
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return canonicalJson((value as { toJSON: () => unknown }).toJSON());
  }
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error('canonical JSON: numbers must be finite');
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) throw new Error(`canonical JSON: ${typeof value} is not a JSON value`);
    return text;
  }
  if (Array.isArray(value)) return `[${value.map((element) => canonicalJson(element === undefined ? null : element)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    // Default sort compares UTF-16 code units, exactly what JCS asks for.
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
}
