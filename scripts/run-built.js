'use strict';
// `npm start` and `npm run cms`: runs dist/src/<entry>.js in this process, compiling first only
// when a source changed (scripts/build-if-stale.js).
const { join } = require('node:path');
const { buildIfStale } = require('./build-if-stale');

const ENTRIES = ['main', 'cli'];
const [node, , entry, ...args] = process.argv;
if (!ENTRIES.includes(entry)) {
  console.error(`usage: node scripts/run-built.js ${ENTRIES.join('|')} [arguments]`);
  process.exit(2);
}
buildIfStale();
const compiled = join(__dirname, '..', 'dist', 'src', `${entry}.js`);
// The entry reads its arguments as if started as `node dist/src/<entry>.js ...`.
process.argv = [node, compiled, ...args];
require(compiled);
