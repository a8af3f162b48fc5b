// Preloaded into the service by bench/release-publish.mjs (BENCH_NODE_ARGS=--require ...): counts
// the SQL statements the service sends, by their first words, and writes the counts so far to
// STATEMENT_COUNTS_FILE on SIGUSR2 and when the process exits.
const { writeFileSync } = require('node:fs');
const pg = require('pg');

const counts = new Map();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(config, ...rest) {
  const text = typeof config === 'string' ? config : (config?.text ?? '');
  const key = text.replace(/\s+/g, ' ').trim().slice(0, 70);
  counts.set(key, (counts.get(key) ?? 0) + 1);
  return query.call(this, config, ...rest);
};
const write = () => writeFileSync(process.env.STATEMENT_COUNTS_FILE, JSON.stringify(Object.fromEntries(counts)));
process.on('SIGUSR2', write);
// Also on the way out, so a bench that only stops the service (bench/queries.mjs) gets the counts of its whole run.
process.on('exit', write);
