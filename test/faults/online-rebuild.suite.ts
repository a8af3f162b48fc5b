import { randomUUID } from 'node:crypto';
import type { AppendRequest, NewEvent } from '../../infra/eventstore/port';
import type { SqlClient } from '../../infra/sql/client';
import { TOKENS } from '../../src/container';
import { client } from '../support/http';
import { eventually } from '../support/waiting';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';
import { openStoreSql } from '../support/store-sql';

const admin = { bearer: ADMIN_TOKEN };
/** Items copied into the log (two events each): enough for a rebuild of a few seconds, during which the writer writes. */
const ITEMS = 3000;
/** The read-your-writes limit of commands/aggregate.ts. */
const WAIT_LIMIT_MS = 5000;
/**
 * The first index build of the rebuild holds its transaction this long: as an index over a few
 * hundred thousand rows does, so that a write waiting behind it would wait out the limit.
 */
const SLOW_INDEX_BUILD_S = 8;

interface Write {
  readonly n: number;
  readonly status: number;
  readonly ms: number;
  readonly readBack: unknown;
  /** The read's answer when it was not 200. */
  readonly readAnswer?: unknown;
  readonly phase: string;
}

/** Appends `count` copies of the template item's events, each under a new item id, 500 items per append. */
async function copyItems(service: TestService, templateId: string, count: number): Promise<void> {
  const events = service.service.container.resolve(TOKENS.eventStore);
  const recorded = await events.readStream(`content-${service.workspaceId}-${templateId}`);
  const template = JSON.stringify(recorded.map(({ type, data, metadata }) => ({ type, data, metadata })));
  for (let first = 0; first < count; first += 500) {
    const requests: AppendRequest[] = Array.from({ length: Math.min(500, count - first) }, (_, offset) => {
      const itemId = randomUUID();
      const copy = JSON.parse(template.split(templateId).join(itemId).replace('"template"', `"item ${first + offset}"`)) as NewEvent[];
      return { stream: `content-${service.workspaceId}-${itemId}`, expectedRevision: 'no_stream', events: copy };
    });
    await events.appendMany(requests);
  }
  const projections = service.service.container.resolve(TOKENS.projections);
  expect(await projections.waitFor(await events.headPosition(), 120_000)).toBe(true);
}

/**
 * Makes the first index build on a rebuild collection hold its transaction (and its transaction
 * id) for SLOW_INDEX_BUILD_S seconds, once; `fired` tells whether it did.
 */
async function slowFirstRebuildIndex(sql: SqlClient): Promise<{ fired: () => Promise<boolean> }> {
  await sql.query('create table slow_index_build (at timestamptz not null)');
  await sql.query(`create function slow_index_build() returns event_trigger language plpgsql as $$
    begin
      if exists (select 1 from pg_event_trigger_ddl_commands() c where position('__rebuild' in c.object_identity) > 0)
         and not exists (select 1 from slow_index_build) then
        insert into slow_index_build values (now());
        perform pg_sleep(${SLOW_INDEX_BUILD_S});
      end if;
    end $$`);
  await sql.query(`create event trigger slow_index_build on ddl_command_end when tag in ('CREATE INDEX') execute function slow_index_build()`);
  return { fired: async () => (await sql.query('select 1 from slow_index_build')).length === 1 };
}

export function describeOnlineRebuild(engine: Engine): void {
  describe(`an online rebuild with a writer (${engine})`, () => {
    let service: TestService;
    let api: ReturnType<typeof client>;

    beforeAll(async () => {
      service = await startTestService(engine);
      api = client(service.url);
      const type = { name: 'Product', key: 'Product', fields: [{ key: 'title', type: 'Text' }, { key: 'price', type: 'Number' }] };
      expect((await api('PUT', '/content-types', { key: service.writeKey, body: type })).status).toBe(200);
      const template = await api('PUT', '/v2/contents/Product', { key: service.writeKey, body: { fields: { title: 'template', price: 1 } } });
      expect(template.status).toBe(200);
      await copyItems(service, template.body.id, ITEMS);
    }, 300_000);
    afterAll(() => service.close());

    it('answers every write made during the rebuild within the limit, and the next read shows it', async () => {
      // PGlite has one connection: a statement that runs long there holds every other, writes included, whatever the rebuild does.
      const sql = engine === 'postgres' ? await openStoreSql(engine, service.environment) : null;
      try {
        const slow = sql ? await slowFirstRebuildIndex(sql) : null;
        const item = await api('PUT', '/v2/contents/Product', { key: service.writeKey, body: { fields: { title: 'written 0', price: 0 } } });
        expect(item.status).toBe(200);
        const started = await api('POST', '/admin/projections/rebuild', { ...admin, body: {} });
        expect(started.status).toBe(202);

        const writes: Write[] = [];
        for (let n = 1, state = 'running'; state === 'running'; n++) {
          const before = Date.now();
          const written = await api('PUT', '/v2/contents/Product', { key: service.writeKey, body: { id: item.body.id, fields: { title: `written ${n}`, price: n } } });
          const ms = Date.now() - before;
          const read = await api('GET', `/v2/contents/Product/${item.body.id}`, { key: service.readKey });
          const status = (await api('GET', '/admin/projections/rebuild', admin)).body;
          state = status.state;
          writes.push({ n, status: written.status, ms, readBack: read.body.fields?.title, phase: status.phase, ...(read.status === 200 ? {} : { readAnswer: read.body }) });
        }

        expect((await api('GET', '/admin/projections/rebuild', admin)).body).toMatchObject({ state: 'succeeded' });
        if (slow) expect(await slow.fired()).toBe(true);
        expect(writes.length).toBeGreaterThan(3);
        // A write whose read models did not reach it within the limit is answered 503 (next test): 200 everywhere means
        // none waited it out. Its time is kept to read a failure by: the request's own time also counts the machine's load.
        expect(writes.filter((write) => write.status !== 200 || write.readBack !== `written ${write.n}`)).toEqual([]);
      } finally {
        await sql?.query('drop event trigger if exists slow_index_build');
        await sql?.close();
      }
    }, 300_000);

    it('answers 503 with Retry-After, not 200, for a write the read models have not reached within the limit; it shows once they have', async () => {
      const projections = service.service.container.resolve(TOKENS.projections);
      const item = await api('PUT', '/v2/contents/Product', { key: service.writeKey, body: { fields: { title: 'before the stall', price: 1 } } });
      await projections.pause();
      let resumed = false;
      try {
        const before = Date.now();
        const stalled = await api('PUT', '/v2/contents/Product', { key: service.writeKey, body: { id: item.body.id, fields: { title: 'during the stall', price: 2 } } });
        expect(Date.now() - before).toBeGreaterThanOrEqual(WAIT_LIMIT_MS - 100);
        expect(stalled.status).toBe(503);
        expect(stalled.headers.get('content-type')).toContain('application/problem+json');
        expect(stalled.headers.get('retry-after')).toBe('1');
        expect(stalled.body.detail).toMatch(/saved/);
        // Not readable yet: which is why it was not answered 200.
        expect((await api('GET', `/v2/contents/Product/${item.body.id}`, { key: service.readKey })).body.fields.title).toBe('before the stall');
        await projections.resume();
        resumed = true;
        // It was saved: it shows once the read models reach it, with no other write.
        await eventually(async () => (await api('GET', `/v2/contents/Product/${item.body.id}`, { key: service.readKey })).body.fields.title === 'during the stall');
      } finally {
        if (!resumed) await projections.resume();
      }
    }, 60_000);
  });
}
