const { statSync } = require('node:fs');
const Sequencer = require('@jest/test-sequencer').default;

/** `X.pglite.test.ts` runs `X.suite.ts`: the suite's size, not the three-line file's, says how long it runs. */
function weight(path) {
  const suite = path.replace(/\.[a-z]+\.test\.ts$/, '.suite.ts');
  const size = (file) => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  };
  // The fault suites start services, flood them and wait on them: far slower per line than the others.
  const faults = path.includes('/test/faults/') ? 3 : 1;
  return faults * Math.max(size(path), suite === path ? 0 : size(suite));
}

/**
 * Runs the longest suites first, so that no worker is left alone with a long one at the end.
 * Jest does that from the durations it cached; a fresh clone (CI) has none, and jest's fallback,
 * the test file's size, would start every engine wrapper of a shared suite last.
 */
class LongestFirst extends Sequencer {
  sort(tests) {
    if (tests.every((test) => this.time(test) != null)) return super.sort(tests);
    return [...tests].sort((a, b) => weight(b.path) - weight(a.path));
  }
}

module.exports = LongestFirst;
