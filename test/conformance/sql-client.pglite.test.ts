import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PgliteSqlClient } from '../../infra/sql/pglite-client';
import { startedWorkers } from '../support/recorded-workers';
import { jsonParamSuite } from './json-param.suite';

jest.mock('node:worker_threads', () => jest.requireActual<typeof import('../support/recorded-workers')>('../support/recorded-workers').recordingWorkerThreads());

const RESTART_INTERVAL_MS = 1000;
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PGlite client (engine in a worker thread)', () => {
  let dataDir: string;
  let sql: PgliteSqlClient;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cms-sql-pglite-'));
    sql = await PgliteSqlClient.open(dataDir);
    await sql.query('create table kept (v text)');
    await sql.query('insert into kept values ($1)', ['before the crash']);
  }, 60_000);

  afterAll(async () => {
    await sql.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  const stopEngine = async () => {
    await startedWorkers.at(-1)!.terminate();
  };

  jsonParamSuite(() => sql);

  it('runs statements off the calling thread: a long statement does not stall its event loop', async () => {
    let longestGapMs = 0;
    let last = Date.now();
    const ticker = setInterval(() => {
      longestGapMs = Math.max(longestGapMs, Date.now() - last);
      last = Date.now();
    }, 5);
    const started = Date.now();
    await sql.query('select count(*) from generate_series(1, $1::int) as g where md5(g::text) like $2', [1_000_000, '0%']);
    const statementMs = Date.now() - started;
    clearInterval(ticker);
    longestGapMs = Math.max(longestGapMs, Date.now() - last);

    expect(statementMs).toBeGreaterThan(300);
    expect(longestGapMs).toBeLessThan(Math.min(200, statementMs / 2));
  });

  it('binds a statement asked to run with its generic plan under force_generic_plan, and puts the setting back even when it fails', async () => {
    const mode = `select current_setting('plan_cache_mode') as mode, $1::int as n`;
    await expect(sql.query(mode, [1], { prepare: 'generic' })).resolves.toEqual([{ mode: 'force_generic_plan', n: 1 }]);
    await expect(sql.query(mode, [2])).resolves.toEqual([{ mode: 'force_custom_plan', n: 2 }]);
    await expect(sql.query('select 1 / $1::int as n', [0], { prepare: 'generic' })).rejects.toMatchObject({ code: '22012' });
    await expect(sql.query(mode, [3])).resolves.toEqual([{ mode: 'force_custom_plan', n: 3 }]);
    await expect(sql.query('select 1 / $1::int as n', [1], { prepare: 'generic' })).resolves.toEqual([{ n: 1 }]);
  });

  it('keeps at most 256 statements prepared, closing the least recently used', async () => {
    for (let index = 0; index < 300; index++) {
      expect(await sql.query<{ n: number }>(`select $1::int + ${index} as n`, [1])).toEqual([{ n: index + 1 }]);
    }
    const [prepared] = await sql.query<{ count: number }>('select count(*)::int as count from pg_prepared_statements');
    expect(prepared!.count).toBeGreaterThan(200);
    expect(prepared!.count).toBeLessThanOrEqual(256);
  });

  it('fails the statements in flight with SQLSTATE 08006 when its engine stops, and the next statement starts it again on the same data', async () => {
    await delay(RESTART_INTERVAL_MS);
    const inFlight = sql.query('select count(*) from generate_series(1, 2000000)');
    await stopEngine();
    await expect(inFlight).rejects.toMatchObject({ code: '08006' });
    expect(await sql.query('select v from kept')).toEqual([{ v: 'before the crash' }]);
  });

  it('starts the engine at most once a second: stopped again meanwhile, statements fail at once with 08006', async () => {
    await delay(RESTART_INTERVAL_MS);
    await sql.query('select 1');
    await stopEngine();
    expect(await sql.query('select v from kept')).toEqual([{ v: 'before the crash' }]);
    await stopEngine();

    const started = Date.now();
    await expect(sql.query('select v from kept')).rejects.toMatchObject({ code: '08006' });
    expect(Date.now() - started).toBeLessThan(100);
    await delay(RESTART_INTERVAL_MS);
    expect(await sql.query('select v from kept')).toEqual([{ v: 'before the crash' }]);
  });

  it('fails a transaction open when its engine stops, and the engine started again is not held by it', async () => {
    await delay(RESTART_INTERVAL_MS);
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const outcome = sql
      .transaction(async (tx) => {
        await tx.query('insert into kept values ($1)', ['never committed']);
        entered();
        await delay(RESTART_INTERVAL_MS + 200);
        await tx.query('insert into kept values ($1)', ['after the crash']);
      })
      .then(
        () => 'committed',
        (error: unknown) => error,
      );
    await inside;
    await stopEngine();
    await delay(RESTART_INTERVAL_MS);

    // Started again by this statement while the transaction's callback still runs: it must not wait for that transaction.
    expect(await sql.query('select v from kept order by v')).toEqual([{ v: 'before the crash' }]);
    expect(await outcome).toMatchObject({ code: '08006' });
    expect(await sql.query('select v from kept order by v')).toEqual([{ v: 'before the crash' }]);
  });

  it('listens again after the engine starts again, telling each listener with an empty payload', async () => {
    await delay(RESTART_INTERVAL_MS);
    const heard: string[] = [];
    const stop = await sql.listen('probe', (payload) => heard.push(payload));
    await sql.query(`select pg_notify('probe', 'before')`);
    expect(heard).toEqual(['before']);

    await stopEngine();
    await delay(RESTART_INTERVAL_MS);
    await sql.query(`select pg_notify('probe', 'after')`);
    expect(heard).toEqual(['before', '', 'after']);
    await stop();
  });
});
