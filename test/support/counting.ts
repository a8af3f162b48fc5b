/** Wraps `target` so that calls of the named methods are counted; the counts object updates live. */
export function countingCalls<T extends object, Name extends string>(target: T, names: readonly Name[]): { proxy: T; calls: Record<Name, number> } {
  const calls = Object.fromEntries(names.map((name) => [name, 0])) as Record<Name, number>;
  const proxy = new Proxy(target, {
    get(inner, property, receiver) {
      if (typeof property === 'string' && (names as readonly string[]).includes(property)) calls[property as Name]++;
      return Reflect.get(inner, property, receiver);
    },
  });
  return { proxy, calls };
}
