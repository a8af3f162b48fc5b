// The totals item_counts answers, on PostgreSQL, for types of 1, 365 and 3,650 days of history among
// 200 other types' days: the total now (the head's count, queries/stage-totals.ts), the sum of every
// day (what a total at T adds up before its day, queries/published-totals.ts, at its longest) and a
// get by id of a one-row count (content_counts, published_versions version 4). All through the read
// store, alternated, one request at a time, with a type picked at random per request.
// Usage: npm run build && DATABASE_URL=postgres://... node bench/item-counts-sum.mjs [requests=2000]
import { PostgresReadStore } from '../dist/infra/readstore/postgres.js';
import { PgSqlClient } from '../dist/infra/sql/pg-client.js';
import { ITEM_COUNTS, itemCountHeadId, itemCountsProjector } from '../dist/projections/read-models/item-counts.js';
import { StageTotals } from '../dist/queries/stage-totals.js';
import { freshDatabase } from './lib.mjs';

const requests = Number(process.argv[2] ?? 2000);
if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set');
const DAY = 86_400_000;
const OTHER_TYPES = 200;
const ONE_ROW = 'one_row_counts';

const database = await freshDatabase(process.env.DATABASE_URL);
const client = await PgSqlClient.open(database.url, { maxConnections: 2 });
try {
  const store = await PostgresReadStore.open(client);
  const [definition] = itemCountsProjector.collections;
  await store.ensureCollection(ITEM_COUNTS, definition.indexes, definition.columns);
  await store.ensureCollection(ONE_ROW, []);
  const totals = new StageTotals(store, () => true);
  const pick = (items) => items[Math.floor(Math.random() * items.length)];

  for (const days of [1, 365, 3650]) {
    const types = Array.from({ length: OTHER_TYPES + 10 }, (_, index) => `T${days}_${index}`);
    for (const type of types) {
      const scope = `ws:${type}`;
      const documents = Array.from({ length: days }, (_, day) => ({ id: `${scope}:${day * DAY}`, scope, dayMs: day * DAY, served: 1 + (day % 3) }));
      documents[days - 1] = { ...documents[days - 1], id: itemCountHeadId(scope), servedNow: 2 * days, draftsNow: days };
      for (let from = 0; from < documents.length; from += 500) await store.apply(documents.slice(from, from + 500).map((document) => ({ kind: 'upsert', collection: ITEM_COUNTS, document })));
      await store.apply([{ kind: 'upsert', collection: ONE_ROW, document: { id: scope, draft: 1, published: 2 } }]);
    }
    await client.query(`vacuum analyze rm_${ITEM_COUNTS}`).catch(() => client.query('analyze'));
    const sumOfDays = () => store.aggregate(ITEM_COUNTS, { filter: { type: 'condition', field: 'scope', operator: 'e', value: `ws:${pick(types)}` }, field: 'served', operation: 'sum' });
    const measured = { 'total now (head)': [], 'sum of every day': [], 'one-row get': [] };
    const ways = { 'total now (head)': () => totals.of('ws', pick(types), pick(['draft', 'published'])), 'sum of every day': sumOfDays, 'one-row get': () => store.get(ONE_ROW, `ws:${pick(types)}`) };
    for (let round = 0; round < 4; round++) {
      for (const [name, way] of Object.entries(ways)) {
        for (let index = 0; index < requests / 4; index++) {
          const started = process.hrtime.bigint();
          await way();
          measured[name].push(Number(process.hrtime.bigint() - started) / 1e6);
        }
      }
    }
    const line = Object.entries(measured).map(([name, durations]) => {
      durations.sort((a, b) => a - b);
      const mean = durations.reduce((sum, value) => sum + value, 0) / durations.length;
      return `${name} mean ${mean.toFixed(3)} ms, p50 ${durations[Math.floor(durations.length / 2)].toFixed(3)}, p99 ${durations[Math.floor(durations.length * 0.99)].toFixed(3)}`;
    });
    console.log(`${days} days of history a type (${types.length} types): ${line.join(' | ')}`);
  }
} finally {
  await client.close();
  await database.drop();
}
