import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import pino from 'pino';
import { LEASE_APPLICATION_NAME } from '../../infra/lease/postgres';
import { loadConfig } from '../../src/config';
import { type RunningService, startService } from '../../src/server';
import { call } from '../support/http';
import { ADMIN_TOKEN, startTestService, type TestService } from '../support/service';
import { eventually } from '../support/waiting';

const ENCRYPTION_KEY = randomBytes(32).toString('base64');
/** The old holder checks its lease only after the test: it stands for a holder that lost it without knowing yet (a pause, a check not yet due). */
const UNAWARE_MS = '120000';

type Checkpoints = Map<string, bigint>;

/**
 * Two instances on one PostgreSQL database. The projecting instance's lease connection is killed
 * (pg_terminate_backend), the other takes the lease, and the old holder, still unaware, projects a
 * write of its own: the fence refuses that late batch and no read model goes back.
 */
describe('fencing: a holder that lost its lease unknowingly cannot write the read models (PostgreSQL)', () => {
  let old: TestService;
  let next: RunningService;
  let nextDataDir: string;
  let database: Client;

  beforeAll(async () => {
    old = await startTestService('postgres', { ENCRYPTION_KEY, LEASE_CHECK_MS: UNAWARE_MS });
    nextDataDir = await mkdtemp(join(tmpdir(), 'cms-fence-'));
    const config = loadConfig({ ...old.environment, DATA_DIR: nextDataDir, PORT: '0', LOG_LEVEL: 'silent', ENCRYPTION_KEY, LEASE_CHECK_MS: '200' });
    next = await startService(config, pino({ level: 'silent' }));
    database = new Client({ connectionString: old.environment.DATABASE_URL });
    await database.connect();
  }, 30_000);

  afterAll(async () => {
    await database?.end();
    await next?.close();
    await old?.close();
    if (nextDataDir) await rm(nextDataDir, { recursive: true, force: true });
  });

  const projecting = async (url: string) => (await call(url, 'GET', '/admin/projections', { bearer: ADMIN_TOKEN })).body?.running === true;
  const checkpoints = async (): Promise<Checkpoints> =>
    new Map((await database.query<{ name: string; commit: string }>('select name, commit::text as commit from readstore_checkpoints')).rows.map((row) => [row.name, BigInt(row.commit)]));
  const fenced = async (url: string) => {
    const text = String((await call(url, 'GET', '/metrics')).body);
    return Number(/^read_model_writes_fenced_total (\d+)/m.exec(text)?.[1] ?? 'NaN');
  };

  it('refuses the late batch of the old holder, counts it, and keeps every checkpoint moving forward', async () => {
    expect(await projecting(old.url)).toBe(true);
    expect(await projecting(next.url)).toBe(false);
    expect((await call(old.url, 'PUT', '/content-types', { key: old.writeKey, body: { name: 'Note', key: 'Note', fields: [{ key: 'title', type: 'Text' }] } })).status).toBe(200);
    const created = await call(old.url, 'PUT', '/v2/preview-contents/Note', { key: old.writeKey, body: { fields: { title: 'v1' } } });
    expect(created.status).toBe(200);
    expect(await fenced(old.url)).toBe(0);

    // Only the holder's lease connection holds an advisory lock; its pool connections live on.
    const killed = await database.query(
      `select pg_terminate_backend(a.pid) from pg_stat_activity a
        where a.datname = current_database() and a.application_name = $1
          and exists (select 1 from pg_locks l where l.pid = a.pid and l.locktype = 'advisory' and l.granted)`,
      [LEASE_APPLICATION_NAME],
    );
    expect(killed.rowCount).toBe(1);
    await eventually(() => projecting(next.url), 10_000);
    const before = await checkpoints();

    // The old holder still projects: its own write is projected by it first, and refused.
    const late = await call(old.url, 'PUT', '/v2/preview-contents/Note', { key: old.writeKey, body: { id: created.body.id, fields: { title: 'v2' } } });
    expect([200, 503]).toContain(late.status);
    await eventually(async () => (await fenced(old.url)) >= 1, 10_000);
    expect(await fenced(next.url)).toBe(0);

    // The new holder projected the write; no checkpoint went back, none was lost.
    await eventually(async () => (await call(next.url, 'GET', `/v2/preview-contents/Note/${created.body.id}`, { key: old.readKey })).body?.fields?.title === 'v2', 10_000);
    const after = await checkpoints();
    for (const [name, commit] of before) expect({ name, commit: after.get(name)! >= commit }).toEqual({ name, commit: true });
    expect(await projecting(next.url)).toBe(true);
  }, 30_000);
});
