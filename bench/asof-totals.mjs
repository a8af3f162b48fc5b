// The unfiltered as-of total two ways on a store seeded by bench/asof.mjs, one statement at a
// time (no concurrency, so the figures depend less on the machine's load): counted (what a
// filtered total still does: every version served at T, in the type's versions table) and from
// item_counts (the days before T's day plus one day of events of the versions table). Both must agree at every time; the CPU time of the
// database per total is read from pg_stat_statements when it is installed, else wall time only.
// Usage: npm run build && node bench/asof-totals.mjs [samples=200]   (reads /tmp/$ASOF_DATABASE.json)
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PublishedTotals } from '../dist/queries/published-totals.js';
import { publishedVersionScope } from '../dist/projections/read-models/published-versions.js';
import { PostgresReadStore } from '../dist/infra/readstore/postgres.js';
import { PgSqlClient } from '../dist/infra/sql/pg-client.js';

const samples = Number(process.argv[2] ?? 200);
const state = JSON.parse(await readFile(join(tmpdir(), `${process.env.ASOF_DATABASE ?? 'cms_asof_100000'}.json`), 'utf8'));
const WINDOW_START = Date.parse('2026-01-01T00:00:00.000Z');
const WINDOW_END = WINDOW_START + 40 * 86_400_000;

const client = await PgSqlClient.open(state.databaseUrl, { maxConnections: 2 });
try {
  const store = await PostgresReadStore.open(client);
  // The type's typed versions table (the service built it after the seed: run bench/asof.mjs first).
  const [{ workspace, versions }] = await client.query("select doc->>'workspaceId' as workspace, doc->'serving'->>'versions' as versions from rm_content_tables where doc->>'contentType' = 'Product'");
  const scope = publishedVersionScope(workspace, 'Product');
  const totals = new PublishedTotals(store, () => true);
  const counted = (time) =>
    store.count(versions, {
      filter: {
        type: 'and',
        conditions: [
          { type: 'condition', field: 'validFromMs', operator: 'lte', value: time },
          { type: 'condition', field: 'validUntilMs', operator: 'gt', value: time },
        ],
      },
    });
  const times = Array.from({ length: samples }, () => WINDOW_START + Math.floor(Math.random() * (WINDOW_END - WINDOW_START)));
  const run = async (name, total) => {
    const answers = [];
    const durations = [];
    for (const time of times) {
      const started = process.hrtime.bigint();
      answers.push(await total(time));
      durations.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    durations.sort((a, b) => a - b);
    const mean = durations.reduce((sum, value) => sum + value, 0) / durations.length;
    console.log(`${name}: mean ${mean.toFixed(2)} ms, p50 ${durations[Math.floor(durations.length / 2)].toFixed(2)} ms, p99 ${durations[Math.floor(durations.length * 0.99)].toFixed(2)} ms`);
    return answers;
  };
  // Alternated twice, so that neither way profits from a cache the other warmed.
  await run('counted (warm-up)', counted);
  const fromCounts = await run('item_counts', (time) => totals.at(scope, versions, new Date(time)));
  const byCounting = await run('counted', counted);
  await run('item_counts (again)', (time) => totals.at(scope, versions, new Date(time)));
  const differing = times.filter((_, index) => fromCounts[index] !== byCounting[index]);
  console.log(`${samples} random times in the window: ${differing.length === 0 ? 'every total equal' : `${differing.length} totals differ, e.g. at ${new Date(differing[0]).toISOString()}`} (load average ${(await readFile('/proc/loadavg', 'utf8')).split(' ')[0]})`);
  if (differing.length > 0) process.exitCode = 1;
} finally {
  await client.close();
}
