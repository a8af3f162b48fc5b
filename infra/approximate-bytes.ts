/**
 * About the bytes `value` holds as JSON text: its strings' and keys' lengths, 8 a number; cheap
 * (no serialisation, no recursion, no spread of a large array). Stops counting once past
 * `stopAbove`, for callers that only ask whether a value is large.
 */
export function approximateBytes(value: unknown, stopAbove = Number.POSITIVE_INFINITY): number {
  let bytes = 0;
  const pending: unknown[] = [value];
  while (pending.length > 0 && bytes <= stopAbove) {
    const next = pending.pop();
    if (typeof next === 'string') bytes += next.length + 2;
    else if (typeof next === 'number' || typeof next === 'boolean') bytes += 8;
    else if (Array.isArray(next)) for (const member of next) pending.push(member);
    else if (next !== null && typeof next === 'object') {
      for (const [key, member] of Object.entries(next)) {
        bytes += key.length + 4;
        pending.push(member);
      }
    }
  }
  return bytes;
}
