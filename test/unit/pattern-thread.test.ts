import { INLINE_PATTERN_WORK, PatternThread } from '../../infra/regex/pattern-thread';
import { MAX_PATTERN_WORK_PER_SAVE, type PatternCase, PatternTests, patternWork } from '../../src/domain/content/pattern';

/** A pattern whose lazy DFA keeps meeting new states (RE2's costliest kind of work), and values that fill one save's budget. */
const HARD = '[ab]*a[ab]{20}$';
function hardCases(): PatternCase[] {
  const cases: PatternCase[] = [];
  while (patternWork(cases) < MAX_PATTERN_WORK_PER_SAVE) {
    let value = '';
    for (let index = 0; index < 7_000; index++) value += Math.random() < 0.5 ? 'a' : 'b';
    cases.push({ pattern: HARD, value });
  }
  return cases;
}

/** The longest the event loop was held while `work` ran, in ms: the longest gap between ticks of a 1 ms timer, the time to its first tick included. */
async function longestHold(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  };
  const timer = setInterval(tick, 1);
  await work();
  await new Promise((resolve) => setTimeout(resolve, 2));
  clearInterval(timer);
  tick();
  return longest;
}

describe('pattern tests on their own thread', () => {
  const thread = new PatternThread();
  afterAll(() => thread.close());

  it('answers as the inline tests do, the budget included', async () => {
    const cases = [{ pattern: '^[a-z]+$', value: 'abc' }, { pattern: '^[a-z]+$', value: 'ABC' }, ...hardCases()];
    const inline = new PatternTests();
    const expected = cases.map(({ pattern, value }) => inline.test(pattern, value));
    expect(expected).toContain('over budget');
    const [tests] = await thread.tests([cases]);
    expect(cases.map(({ pattern, value }) => tests!.test(pattern, value))).toEqual(expected);
  });

  it('runs heavy work off the event loop: the loop is held far less than the same work inline holds it', async () => {
    const cases = hardCases();
    expect(patternWork(cases)).toBeGreaterThan(INLINE_PATTERN_WORK);
    await thread.tests([cases.slice(0, 1)]); // the thread started and its code compiled
    const inline = await longestHold(async () => {
      const tests = new PatternTests();
      for (const { pattern, value } of cases) tests.test(pattern, value);
    });
    const threaded = await longestHold(async () => {
      const [tests] = await thread.tests([cases]);
      for (const { pattern, value } of cases) tests!.test(pattern, value);
    });
    expect(threaded).toBeLessThan(inline / 2);
  });

  it('keeps light work where it is asked for, and starts again after the thread stops', async () => {
    const light = [{ pattern: '^[a-z]+$', value: 'abc' }];
    expect(patternWork(light)).toBeLessThanOrEqual(INLINE_PATTERN_WORK);
    const [tests] = await thread.tests([light]);
    expect(tests!.test('^[a-z]+$', 'abc')).toBe(true);
    await thread.close();
    const [again] = await thread.tests([hardCases()]);
    expect(again!.test(HARD, 'a'.repeat(30))).toBe(true);
  });
});
