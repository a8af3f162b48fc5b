// A/B of PostgresReadStore.find and list between two builds on one PostgreSQL database, alternated
// in one process: 10,000 documents of about 1 KB (typed columns, documents apart; AB_LAYOUT=plain: documents
// in the rows), pages of 20 with a new random filter value per call, four at a time. Prints each round's
// rate and the median ratio B/A.
// Usage: build both (npm run build; a git worktree for the other), create an empty database, then
// [AB_LAYOUT=plain] node bench/readstore-ab.mjs postgres://…/db <distA> <distB> [rounds=6] [calls=1500]
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
const require = createRequire(import.meta.url);
const [url, distA, distB] = process.argv.slice(2, 5);
const rounds = Number(process.argv[5] ?? 6);
const queries = Number(process.argv[6] ?? 1500);
const open = async (dist) => {
  const { PgSqlClient } = require(`${dist}/infra/sql/pg-client.js`);
  const { PostgresReadStore } = require(`${dist}/infra/readstore/postgres.js`);
  const client = await PgSqlClient.open(url);
  return { client, store: await PostgresReadStore.open(client) };
};
const a = await open(distA);
const b = await open(distB);
const plain = process.env.AB_LAYOUT === 'plain';
const collection = plain ? 'findab_plain' : 'findab';
const columns = [{ path: 'stage', type: 'text' }, { path: 'category', type: 'text' }, { path: 'price', type: 'number' }];
// No index declared: the pages are read as a user who declared none gets them.
await a.store.ensureCollection(collection, [], columns, plain ? {} : { documentsApart: true });
const existing = await a.store.count(collection, {});
if (existing === 0) {
  const body = 'lorem ipsum '.repeat(80);
  for (let start = 0; start < 10000; start += 1000) {
    await a.store.apply(Array.from({ length: 1000 }, (_, k) => {
      const i = start + k;
      return { kind: 'upsert', collection, document: { id: `d${i}`, stage: i % 2 ? 'draft' : 'published', category: `c${i % 50}`, price: i % 1000, body } };
    }));
  }
  await a.store.analyzeCollection(collection);
}
const where = (field, operator, value) => ({ type: 'condition', field, operator, value });
const query = () => {
  const low = Math.floor(Math.random() * 900);
  return { filter: { type: 'and', conditions: [where('stage', 'e', 'published'), where('category', 'e', `c${2 * Math.floor(Math.random() * 25)}`), where('price', 'gte', low)] }, sort: [{ field: 'price', direction: 'asc' }], limit: 20 };
};
const time = async (store, method) => {
  const started = performance.now();
  let n = 0;
  // 4 at a time, as a loaded service would
  await Promise.all(Array.from({ length: 4 }, async () => { while (n < queries) { n++; await store[method](collection, query()); } }));
  return queries / ((performance.now() - started) / 1000);
};
for (const method of ['find', 'list']) {
  const ratios = [];
  for (let round = 0; round < rounds; round++) {
    const first = round % 2 === 0 ? a : b;
    const second = round % 2 === 0 ? b : a;
    const r1 = await time(first.store, method);
    const r2 = await time(second.store, method);
    const [ra, rb] = round % 2 === 0 ? [r1, r2] : [r2, r1];
    ratios.push(rb / ra);
    console.log(`${method} round ${round}: A ${ra.toFixed(0)}/s, B ${rb.toFixed(0)}/s, B/A ${(rb / ra).toFixed(2)}`);
  }
  ratios.sort();
  console.log(`${method} median B/A ${ratios[Math.floor(ratios.length / 2)].toFixed(2)}`);
}
await a.client.close();
await b.client.close();
