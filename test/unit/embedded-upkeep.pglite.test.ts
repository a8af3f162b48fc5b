import { DUE_TABLES } from '../../infra/sql/pglite-maintenance';
import type { PgliteSqlClient } from '../../infra/sql/pglite-client';
import { openMemoryPglite } from '../support/pglite-template';

describe('the embedded engine upkeep, on the engine', () => {
  let sql: PgliteSqlClient;
  /** The engine's counts of changed rows reach pg_stat_* when it next reports them. */
  const flushCounts = () => sql.query('select pg_stat_force_next_flush()');

  beforeAll(async () => {
    sql = await openMemoryPglite();
    await sql.query('create table upkept (id int primary key, shade int)');
    await sql.query('insert into upkept select n, n % 100 from generate_series(1, 10000) as n');
    await flushCounts();
    await sql.query('vacuum analyze upkept');
    await flushCounts();
  });

  afterAll(() => sql.close());

  const due = async () => {
    await flushCounts();
    return (await sql.query<{ name: string; vacuum: boolean; analyze: boolean }>(DUE_TABLES)).filter((table) => table.name === 'public.upkept');
  };
  const update = (rows: number) => sql.query('update upkept set shade = shade + 1 where id in (select id from upkept order by id limit $1)', [rows]);

  it('scales what is due with the size the catalog keeps, so a restart (its counts at zero) makes no large table due for a few changes', async () => {
    // What the engine's statistics collector holds after a start.
    await sql.query('select pg_stat_reset()');
    await flushCounts();
    await update(100);
    expect(await due()).toEqual([]);
    // 50 + 10% of 10,000 rows changed since the last analyze; 50 + 20% dead for a vacuum.
    await update(1000);
    expect(await due()).toEqual([{ name: 'public.upkept', vacuum: false, analyze: true }]);
  });

  it('analyzes from a sample of 3,000 rows (statistics target 10), not 30,000: the analyze holds the engine every statement waits for', async () => {
    await sql.query('analyze upkept');
    const [column] = await sql.query<{ common: number; bounds: number }>(
      `select coalesce(cardinality(most_common_vals::text::int[]), 0) as common, coalesce(cardinality(histogram_bounds::text::int[]), 0) as bounds
       from pg_stats where tablename = 'upkept' and attname = 'shade'`,
    );
    // At PostgreSQL's default of 100, the sample holds every one of the column's 100 values, and all are common values.
    expect(column!.common).toBeLessThanOrEqual(10);
    expect(column!.bounds).toBe(11);
  });
});
