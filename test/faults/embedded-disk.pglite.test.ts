import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { PgliteSqlClient } from '../../infra/sql/pglite-client';
import { CONTENT_TABLES } from '../../projections/read-models/content-tables';
import type { ContentTableDocument } from '../../projections/content-tables/schema';
import { TOKENS } from '../../src/container';
import { client } from '../support/http';
import { startTestService, type TestService } from '../support/service';

/** The smallest interval: a modest load then writes several intervals of WAL. */
const CHECKPOINT_WAL_MB = 32;
const MB = 1024 * 1024;
const ITEMS = 450;
const CATEGORIES = ['light', 'heavy', 'misc'];
/** About 30 KB of text no compression shrinks, so that every copy of an item costs its size in WAL. */
const body = (index: number) => Array.from({ length: 6000 }, (_, word) => ((index * 7919 + word * 104729) % 999983).toString(36)).join(' ');
const price = (index: number) => [19.99, 0.1, 0.2, 5, 12.35][index % 5]!;
const category = (index: number) => CATEGORIES[index % CATEGORIES.length]!;

async function directoryBytes(directory: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    total += entry.isDirectory() ? await directoryBytes(path) : (await stat(path)).size;
  }
  return total;
}

describe('the embedded store on disk (PGlite)', () => {
  let service: TestService;
  let api: ReturnType<typeof client>;
  let pgWal: string;

  beforeAll(async () => {
    service = await startTestService('pglite', { EMBEDDED_CHECKPOINT_WAL_MB: String(CHECKPOINT_WAL_MB) });
    api = client(service.url);
    pgWal = join(service.environment.DATA_DIR!, 'pglite', 'pg_wal');
    const fields = [
      { key: 'title', type: 'Text' },
      { key: 'price', type: 'Number' },
      { key: 'category', type: 'Text' },
      // Held in the documents only (no column, no text index): it weighs on every copy of an item, and on nothing else.
      { key: 'attachment', type: 'Json' },
    ];
    expect((await api('PUT', '/content-types', { key: service.writeKey, body: { name: 'Product', key: 'Product', fields } })).status).toBe(200);
    const readStore = service.service.container.resolve(TOKENS.readStore);
    for (let waited = 0; !(await readStore.get<ContentTableDocument>(CONTENT_TABLES, `${service.workspaceId}:Product`))?.serving; waited += 100) {
      if (waited > 20_000) throw new Error('the typed table of Product was not built');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    let next = 0;
    const writer = async () => {
      for (let index = next++; index < ITEMS; index = next++) {
        const saved = await api('PUT', '/v2/contents/Product', { key: service.writeKey, body: { fields: { title: `item ${index}`, price: price(index), category: category(index), attachment: body(index) } } });
        expect(saved.status).toBe(200);
      }
    };
    await Promise.all(Array.from({ length: 6 }, writer));
  }, 300_000);

  afterAll(async () => {
    await rm(service.environment.DATA_DIR!, { recursive: true, force: true });
  });

  it('answers a grouped sum over a price range from the typed table, in exact decimals', async () => {
    const filter = { type: 'and', conditions: [{ type: 'condition', fieldKey: 'price', operator: 'gte', value: 0.1 }, { type: 'condition', fieldKey: 'price', operator: 'lt', value: 19.99 }] };
    const answer = await api('POST', '/v2/contents/Product/aggregategroup', { key: service.readKey, body: { fieldKey: 'price', aggregateType: 'Sum', groupByFieldKey: 'category', filter } });
    expect(answer.status).toBe(200);
    // Cents added as decimals: 0.1, 0.2, 5 and 12.35, each on 120 items, spread over the categories.
    const expected = CATEGORIES.map((group) => {
      let cents = 0;
      for (let index = 0; index < ITEMS; index++) if (category(index) === group && price(index) < 19.99) cents += Math.round(price(index) * 100);
      return { groupValue: group, aggregateValue: cents / 100 };
    }).sort((a, b) => a.groupValue.localeCompare(b.groupValue));
    expect(answer.body.items).toEqual(expected);
  });

  it('recycles its WAL: the WAL directory stays near two checkpoint intervals while the load wrote several, and statistics follow the load', async () => {
    // The worker looks at the WAL every second: once it has, the directory holds what the last checkpoint kept and what came since.
    const bound = 2 * CHECKPOINT_WAL_MB * MB + 16 * MB;
    let walBytes = await directoryBytes(pgWal);
    for (let waited = 0; walBytes > bound && waited < 15_000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      walBytes = await directoryBytes(pgWal);
    }
    // Every 10 s the worker analyzes the tables the load changed past the threshold, the most changed first: wait for a round.
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    const table = `rm_${(await service.service.container.resolve(TOKENS.readStore).get<ContentTableDocument>(CONTENT_TABLES, `${service.workspaceId}:Product`))!.serving!.collection}`;
    await service.service.close();

    const sql = await PgliteSqlClient.open(join(service.environment.DATA_DIR!, 'pglite'));
    try {
      const [written] = await sql.query<{ bytes: string }>(`select (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::text as bytes`);
      // Three intervals, not four: since layout 8 a write no longer copies its documents into the typed table (131 MB, not 140, were written).
      expect(Number(written!.bytes)).toBeGreaterThan(3 * CHECKPOINT_WAL_MB * MB);
      expect(walBytes).toBeLessThanOrEqual(bound);
      // Analyzed during the load, the planner knows rows of both stages of the items (it had planned for the empty table the
      // builder analyzed). Not necessarily all: under CI's load the round that would analyze the last ones can still be due
      // when the service stops (twice 760-764 of 900 rows, where the threshold of 50 rows and 10% would have allowed 772).
      const [statistics] = await sql.query<{ rows: number }>(`select reltuples::float8 as rows from pg_class where oid = $1::regclass`, [`"${table}"`]);
      expect(statistics!.rows).toBeGreaterThan(ITEMS);
    } finally {
      await sql.close();
    }
  }, 90_000);
});
