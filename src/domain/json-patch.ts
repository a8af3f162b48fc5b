/** One RFC 6902 operation; a diff needs no move, copy or test. */
export type PatchOperation = { readonly op: 'add' | 'replace'; readonly path: string; readonly value: unknown } | { readonly op: 'remove'; readonly path: string };

/**
 * Cells of the edit tables all array comparisons of one diff may fill together. An array's
 * changed middle (what is left after its common start and end) is aligned element by element
 * when its table fits in what is left, else it is replaced whole: the patch is then longer,
 * never wrong. Shared by every array of the value, so nesting cannot multiply it.
 */
export const ARRAY_ALIGNMENT_CELLS = 250_000;

/**
 * An RFC 6902 JSON Patch that turns `from` into `to`: objects member by member (removes, adds,
 * then changes, as the rfc6902 package wrote them), arrays by their common start and end and a
 * bounded alignment of the rest, anything else replaced. Time and memory grow linearly with the
 * values (times their nesting depth, which request bodies bound) plus ARRAY_ALIGNMENT_CELLS.
 */
export function createPatch(from: unknown, to: unknown, alignment: AlignmentBudget = { cellsLeft: ARRAY_ALIGNMENT_CELLS }): PatchOperation[] {
  const operations: PatchOperation[] = [];
  new Differ(operations, alignment).value(from, to, '');
  return operations;
}

/** The alignment cells left; one budget passed to many diffs bounds them together (an answer of many diffs). */
export interface AlignmentBudget {
  cellsLeft: number;
}

class Differ {
  constructor(
    private readonly operations: PatchOperation[],
    private readonly alignment: AlignmentBudget,
  ) {}

  value(from: unknown, to: unknown, path: string): void {
    if (Array.isArray(from) && Array.isArray(to)) this.arrays(from, to, path);
    else if (isObject(from) && isObject(to)) this.objects(from, to, path);
    else if (from !== to) this.operations.push({ op: 'replace', path, value: to });
  }

  private objects(from: Record<string, unknown>, to: Record<string, unknown>, path: string): void {
    const fromKeys = Object.keys(from);
    const toKeys = Object.keys(to);
    for (const key of fromKeys) if (!Object.hasOwn(to, key)) this.operations.push({ op: 'remove', path: pointer(path, key) });
    for (const key of toKeys) if (!Object.hasOwn(from, key)) this.operations.push({ op: 'add', path: pointer(path, key), value: to[key] });
    for (const key of toKeys) if (Object.hasOwn(from, key)) this.value(from[key], to[key], pointer(path, key));
  }

  private arrays(from: readonly unknown[], to: readonly unknown[], path: string): void {
    const [fromKeys, toKeys] = elementKeys(from, to);
    let start = 0;
    while (start < from.length && start < to.length && fromKeys[start] === toKeys[start]) start++;
    let fromEnd = from.length;
    let toEnd = to.length;
    while (fromEnd > start && toEnd > start && fromKeys[fromEnd - 1] === toKeys[toEnd - 1]) {
      fromEnd--;
      toEnd--;
    }
    const cells = (fromEnd - start + 1) * (toEnd - start + 1);
    if (cells > this.alignment.cellsLeft) {
      this.operations.push({ op: 'replace', path, value: to });
      return;
    }
    this.alignment.cellsLeft -= cells;
    const steps = alignment(fromKeys.slice(start, fromEnd), toKeys.slice(start, toEnd));
    // The array reads to[0..index) followed by the elements of `from` not handled yet.
    let index = start;
    let fromAt = start;
    let toAt = start;
    for (let step = 0; step < steps.length; ) {
      if (steps[step] === 'keep') {
        index++;
        fromAt++;
        toAt++;
        step++;
        continue;
      }
      let removed = 0;
      let added = 0;
      for (; step < steps.length && steps[step] !== 'keep'; step++) {
        if (steps[step] === 'remove') removed++;
        else added++;
      }
      // A removal next to an insertion is one element changed: diffed in place.
      const changed = Math.min(removed, added);
      for (let n = 0; n < changed; n++) this.value(from[fromAt++], to[toAt++], pointer(path, String(index++)));
      for (let n = changed; n < removed; n++, fromAt++) this.operations.push({ op: 'remove', path: pointer(path, String(index)) });
      for (let n = changed; n < added; n++) this.operations.push({ op: 'add', path: pointer(path, String(index++)), value: to[toAt++] });
    }
  }
}

type Step = 'keep' | 'remove' | 'add';

/** A longest-common-subsequence alignment of two key lists (dynamic programming over their (n+1)·(m+1) table). */
function alignment(from: readonly number[], to: readonly number[]): Step[] {
  const width = to.length + 1;
  // common[i * width + j]: length of the longest common subsequence of from[i..] and to[j..].
  const common = new Uint32Array((from.length + 1) * width);
  for (let i = from.length - 1; i >= 0; i--) {
    for (let j = to.length - 1; j >= 0; j--) {
      common[i * width + j] = from[i] === to[j] ? common[(i + 1) * width + j + 1]! + 1 : Math.max(common[(i + 1) * width + j]!, common[i * width + j + 1]!);
    }
  }
  const steps: Step[] = [];
  let i = 0;
  let j = 0;
  while (i < from.length || j < to.length) {
    if (i < from.length && j < to.length && from[i] === to[j]) {
      steps.push('keep');
      i++;
      j++;
    } else if (j >= to.length || (i < from.length && common[(i + 1) * width + j]! >= common[i * width + j + 1]!)) {
      steps.push('remove');
      i++;
    } else {
      steps.push('add');
      j++;
    }
  }
  return steps;
}

/** Equal numbers for elements that serialise alike (equal JSON values), so comparing elements is comparing numbers. */
function elementKeys(from: readonly unknown[], to: readonly unknown[]): [number[], number[]] {
  const numbers = new Map<string, number>();
  const keyOf = (element: unknown) => {
    const text = JSON.stringify(element) ?? 'undefined';
    let key = numbers.get(text);
    if (key === undefined) numbers.set(text, (key = numbers.size));
    return key;
  };
  return [from.map(keyOf), to.map(keyOf)];
}

/** `path` extended by one JSON Pointer token (RFC 6901: `~` and `/` escaped). */
function pointer(path: string, token: string): string {
  return `${path}/${token.replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
