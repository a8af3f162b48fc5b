import { RE2JS } from 're2js';

/**
 * `pattern` rules of Text fields run on RE2 (re2js, a port of RE2 to JavaScript): matching is
 * linear in the value's length, with no backtracking, so no pattern can take exponential or
 * polynomial time (JavaScript's RegExp takes 16 s for `\d*\d*x` on 3,000 digits). Linear is still
 * program size × value length, and a lazy DFA that keeps meeting new states costs about a
 * microsecond per step, so both are bounded: the pattern when the type is saved, the work of one
 * save when values are checked.
 */
export const MAX_PATTERN_LENGTH = 200;
/** RE2's program size: `[a-z0-9]+(?:-[a-z0-9]+)*` is 10, `(a|b){30}` about 100. */
export const MAX_PATTERN_PROGRAM = 100;
/** Program size × the longest value a field with a pattern takes (its maxLength, else the Text limit). */
export const MAX_PATTERN_WORK_PER_VALUE = 200_000;
/** Program size × value length, summed over the pattern checks of one save (translations included). */
export const MAX_PATTERN_WORK_PER_SAVE = 1_000_000;

/** The pattern compiled, or why it cannot be a field's pattern. */
export function compilePattern(pattern: string): { readonly compiled: RE2JS } | { readonly problem: string } {
  if (pattern.length > MAX_PATTERN_LENGTH) return { problem: `must be at most ${MAX_PATTERN_LENGTH} characters` };
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    return { problem: `is not a regular expression RE2 reads: ${(error as Error).message}` };
  }
  const size = compiled.programSize();
  if (size > MAX_PATTERN_PROGRAM) return { problem: `is too complex: its RE2 program has ${size} instructions, at most ${MAX_PATTERN_PROGRAM} are allowed (lower repetition counts such as {50})` };
  return { compiled };
}

/** The longest value a field with this pattern may take, so that checking one value stays within MAX_PATTERN_WORK_PER_VALUE. */
export function longestValueFor(compiled: RE2JS): number {
  return Math.floor(MAX_PATTERN_WORK_PER_VALUE / Math.max(1, compiled.programSize()));
}

/** One value to test against one pattern. */
export interface PatternCase {
  readonly pattern: string;
  readonly value: string;
}

export type PatternAnswer = boolean | 'over budget';

/** The work of testing `cases` one after another, as PatternTests counts it (a pattern that does not compile costs nothing). */
export function patternWork(cases: readonly PatternCase[]): number {
  const sizes = new Map<string, number>();
  let work = 0;
  for (const { pattern, value } of cases) {
    if (!sizes.has(pattern)) {
      const result = compilePattern(pattern);
      sizes.set(pattern, 'compiled' in result ? result.compiled.programSize() : 0);
    }
    work += sizes.get(pattern)! * (value.length + 1);
  }
  return work;
}

/**
 * Tests values of one save against their fields' patterns: each pattern compiled once, and the
 * work of all the tests bounded by MAX_PATTERN_WORK_PER_SAVE. Answers worked out beforehand
 * (on another thread: see infra/regex) are taken as they are and cost nothing here.
 */
export class PatternTests {
  private readonly compiled = new Map<string, RE2JS | null>();
  private work = 0;

  constructor(private readonly known: ReadonlyMap<string, PatternAnswer> = new Map()) {}

  /** The answers of `cases`, tested in order under one budget, keyed as `test` looks them up. */
  static answer(cases: readonly PatternCase[]): Map<string, PatternAnswer> {
    const tests = new PatternTests();
    const answers = new Map<string, PatternAnswer>();
    for (const { pattern, value } of cases) {
      const key = answerKey(pattern, value);
      if (!answers.has(key)) answers.set(key, tests.test(pattern, value));
    }
    return answers;
  }

  /** Whether `value` contains a match of `pattern` (unanchored: `^` and `$` anchor), or 'over budget'. A pattern that does not compile matches nothing: each is checked when its type is saved. */
  test(pattern: string, value: string): PatternAnswer {
    const known = this.known.get(answerKey(pattern, value));
    if (known !== undefined) return known;
    const compiled = this.compile(pattern);
    if (!compiled) return false;
    this.work += compiled.programSize() * (value.length + 1);
    if (this.work > MAX_PATTERN_WORK_PER_SAVE) return 'over budget';
    return compiled.test(value);
  }

  private compile(pattern: string): RE2JS | null {
    if (!this.compiled.has(pattern)) {
      const result = compilePattern(pattern);
      this.compiled.set(pattern, 'compiled' in result ? result.compiled : null);
    }
    return this.compiled.get(pattern) ?? null;
  }
}

function answerKey(pattern: string, value: string): string {
  return `${pattern}\u0000${value}`;
}
