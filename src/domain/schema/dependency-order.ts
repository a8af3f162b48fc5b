/**
 * `items` ordered so that each comes after the items it depends on (named by `nameOf`); names
 * outside `items` are ignored, and a cycle is broken where it closes. Otherwise the given order.
 */
export function dependencyOrder<T>(items: readonly T[], nameOf: (item: T) => string, dependsOn: (item: T) => readonly string[]): T[] {
  const byName = new Map(items.map((item) => [nameOf(item), item]));
  const seen = new Set<string>();
  const ordered: T[] = [];
  // Iterative depth-first walk: a long chain of fallbacks or relations must not exhaust the stack.
  for (const root of items) {
    const stack: { item: T; dependencies: readonly string[]; next: number }[] = [];
    const enter = (item: T) => {
      seen.add(nameOf(item));
      stack.push({ item, dependencies: dependsOn(item), next: 0 });
    };
    if (!seen.has(nameOf(root))) enter(root);
    while (stack.length > 0) {
      const top = stack.at(-1)!;
      if (top.next < top.dependencies.length) {
        const dependency = byName.get(top.dependencies[top.next++]!);
        if (dependency !== undefined && !seen.has(nameOf(dependency))) enter(dependency);
        continue;
      }
      stack.pop();
      ordered.push(top.item);
    }
  }
  return ordered;
}
