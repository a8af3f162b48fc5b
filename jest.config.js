/**
 * Suites for servers that cannot run on every machine are collected only when their
 * address is set; otherwise they are listed here as not run, never counted as passed.
 */
const serverSuites = [
  { variable: 'DATABASE_URL', pattern: '\\.postgres\\.test\\.ts$', name: 'PostgreSQL' },
  { variable: 'EVENTSTORE_URL', pattern: '\\.eventstoredb\\.test\\.ts$', name: 'EventStoreDB' },
  { variable: 'MONGODB_URL', pattern: '\\.mongodb\\.test\\.ts$', name: 'MongoDB' },
  // A streaming standby of DATABASE_URL's server: scripts/standby.sh (CI sets it up).
  { variable: 'REPLICA_DATABASE_URL', pattern: '\\.replica\\.postgres\\.test\\.ts$', name: 'PostgreSQL standby' },
];

const notRun = serverSuites.filter((suite) => !process.env[suite.variable]);
if (notRun.length > 0 && !process.env.JEST_WORKER_ID) {
  for (const suite of notRun) {
    console.log(`NOT RUN: ${suite.name} suites (${suite.variable} is not set)`);
  }
}

// The browser suite needs Chromium; CI installs it (.ci/run) and must run it, so only a machine outside CI may lack it.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const browserMissing = !process.env.CI && !require('node:fs').existsSync(chromium);
if (browserMissing && !process.env.JEST_WORKER_ID) {
  console.log(`NOT RUN: browser suites (no Chromium at ${chromium}: apt-get install chromium, or set CHROMIUM_PATH)`);
}

/**
 * `npm test` runs every suite but the fault and attack suites of test/faults, which start built
 * services, flood them and measure other workspaces (about five minutes more on 2 cores):
 * `npm run test:faults` runs those, and CI runs both. Jest run directly (`npx jest <path>`) finds any.
 */
const faultSuites = '/test/faults/';
const script = process.env.npm_lifecycle_event;
const onlyFaults = script === 'test:faults';
const withoutFaults = script === 'test';

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: [onlyFaults ? '<rootDir>/test/faults' : '<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...notRun.map((suite) => suite.pattern), ...(browserMissing ? ['-browser\\.'] : []), ...(withoutFaults ? [faultSuites] : [])],
  // Transpile only: types are checked once by `npm run typecheck`, not per test file.
  transform: { '^.+\\.ts$': 'ts-jest' },
  // Creates the embedded database every embedded store of the tests starts from (test/support/pglite-template.ts).
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  // Longest suites first also on a fresh clone, where jest has no durations cached.
  testSequencer: '<rootDir>/test/support/sequencer.js',
  // Generous: PGlite services start in seconds alone, but the suites with built services and image renders share 2 cores.
  testTimeout: 60000,
  maxWorkers: 2,
};
