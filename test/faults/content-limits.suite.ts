import { TOKENS } from '../../src/container';
import { MAX_TEXT_LENGTH } from '../../src/domain/content/values';
import { type ContentTableDocument, MAX_TYPED_FIELDS, tableGeneration } from '../../projections/content-tables/schema';
import { CONTENT_TABLES } from '../../projections/read-models/content-tables';
import { callKeepingBytes, client, type RequestOptions } from '../support/http';
import { seededRandom } from '../support/seeded-random';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';
import { openStoreSql } from '../support/store-sql';
import { type Bystander, createBystander, measureWhile, unheldP99 } from '../support/tenant-latency';

const MAX_FIELDS = 500;
/** The largest page a content query answers. */
const PAGE_MAX = 500;
const admin = { bearer: ADMIN_TOKEN };
const articleType = {
  name: 'Article',
  key: 'Article',
  fields: [
    { key: 'title', type: 'Text' },
    { key: 'body', type: 'RichText' },
  ],
};

/** Text of `length` UTF-16 units (the unit the limits count): letters, spaces and four-byte characters, as prose in any script. */
function text(length: number, seed: number): string {
  const random = seededRandom(seed);
  let result = '';
  while (result.length < length) {
    const roll = random.int(10);
    const next = roll < 6 ? String.fromCharCode(97 + random.int(26)) : roll < 8 ? ' ' : String.fromCodePoint(0x1f300 + random.int(0x300));
    if (result.length + next.length <= length) result += next;
    else result += 'x';
  }
  return result;
}

/**
 * Ordinary content at the limits the API accepts (docs/field-types.md, "Limits"): written through
 * the API, it is read, filtered and sorted like any other, no read model sets it aside, and
 * another workspace's reads and writes go on as before. Earlier releases stopped every
 * projection of every workspace on one such value (an index entry over the whole value).
 */
export function describeContentLimits(engine: Engine): void {
  describe(`content at its limits (${engine})`, () => {
    let service: TestService;
    let bystander: Bystander;
    let api: ReturnType<typeof client>;
    let write: RequestOptions;
    let read: RequestOptions;

    beforeAll(async () => {
      service = await startTestService(engine);
      api = client(service.url);
      write = { key: service.writeKey };
      read = { key: service.readKey };
      bystander = await createBystander(service.url);
      expect((await api('PUT', '/content-types', { ...write, body: articleType })).status).toBe(200);
      expect((await api('PUT', '/content-types', { key: bystander.writeKey, body: { name: 'Note', key: 'Note', fields: [{ key: 'title', type: 'Text' }] } })).status).toBe(200);
      await typedTableServes('Article');
    }, 180_000);

    afterAll(() => service?.close());

    /** Waits until the type's typed table serves (content queries read it, not the JSON documents). */
    async function typedTableServes(contentType: string): Promise<void> {
      for (const started = Date.now(); Date.now() - started < 120_000; await new Promise((resolve) => setTimeout(resolve, 200))) {
        const status = await api('GET', '/admin/projections', admin);
        const table = status.body.contentTables.tables.find((entry: { contentType: string }) => entry.contentType === contentType);
        if (table?.state === 'serving') return;
      }
      throw new Error(`the typed table of ${contentType} was not built within 120 s`);
    }

    /** The bystander's write, read back at once: it waits for the read models (read-your-writes). */
    async function bystanderRoundTrip(title: string): Promise<number> {
      const startedAt = performance.now();
      const saved = await api('PUT', '/v2/preview-contents/Note', { key: bystander.writeKey, body: { fields: { title } } });
      expect(saved.status).toBe(200);
      const found = await api('POST', '/v2/preview-contents/Note', { key: bystander.readKey, body: { filter: { type: 'condition', fieldKey: 'title', operator: 'e', value: title } } });
      expect(found.body.items.map((item: { id: string }) => item.id)).toEqual([saved.body.id]);
      return performance.now() - startedAt;
    }

    async function expectNothingQuarantined(): Promise<void> {
      const quarantine = await api('GET', '/admin/projections/quarantine', admin);
      expect(quarantine.status).toBe(200);
      expect(quarantine.body.entries).toEqual([]);
    }

    it('saves, publishes, reads, filters and sorts a Text of 10,000 and a RichText of 100,000 characters while another workspace goes on', async () => {
      const title = text(MAX_TEXT_LENGTH.Text, 1);
      const body = text(MAX_TEXT_LENGTH.RichText, 2);
      // Same first 5,000 characters: only the whole value tells them apart.
      const twin = `${title.slice(0, 5_000)}${text(MAX_TEXT_LENGTH.Text - 5_000, 3)}`;
      const probe = { path: '/content-types', key: bystander.readKey };
      const baseline = await measureWhile(service.url, probe, () => Promise.resolve(), 1000);
      const baselineRoundTrip = await bystanderRoundTrip('before');

      const { attack: saved, latency } = await measureWhile(service.url, probe, async () => {
        const first = await api('PUT', '/v2/contents/Article', { ...write, body: { fields: { title, body } } });
        const second = await api('PUT', '/v2/contents/Article', { ...write, body: { fields: { title: twin, body: twin } } });
        return [first, second];
      }, 1000);

      expect(saved.map((answer) => answer.status)).toEqual([200, 200]);
      const [first, second] = saved.map((answer) => answer.body.id as string);
      expect(latency.statuses.filter((status) => status !== 200)).toEqual([]);
      expect(latency.p99Ms).toBeLessThanOrEqual(unheldP99(baseline.latency));
      expect(await bystanderRoundTrip('after')).toBeLessThan(Math.max(2 * baselineRoundTrip, baselineRoundTrip + 500));

      const search = (filter: unknown, order?: unknown) => api('POST', '/v2/contents/Article', { ...read, body: { filter, ...(order ? { order } : {}) } });
      const ids = async (filter: unknown, order?: unknown) => (await search(filter, order)).body.items.map((item: { id: string }) => item.id);
      expect((await api('GET', `/v2/contents/Article/${first}`, read)).body.fields).toEqual({ title, body });
      expect(await ids({ type: 'condition', fieldKey: 'title', operator: 'e', value: title })).toEqual([first]);
      expect(await ids({ type: 'condition', fieldKey: 'title', operator: 'e', value: twin })).toEqual([second]);
      expect(await ids({ type: 'condition', fieldKey: 'body', operator: 'start', value: title.slice(0, 150) })).toEqual([second]);
      expect(await ids({ type: 'condition', fieldKey: 'body', operator: 'contains', value: body.slice(60_000, 60_100) })).toEqual([first]);
      const ascending = await ids({ type: 'condition', fieldKey: 'title', operator: 'nnoe' }, { fieldKey: 'title' });
      expect(ascending).toEqual(title < twin ? [first, second] : [second, first]);
      expect(await ids({ type: 'condition', fieldKey: 'title', operator: 'gt', value: title < twin ? title : twin })).toEqual([title < twin ? second : first]);
      await expectNothingQuarantined();
      expect((await api('GET', '/health', {})).status).toBe(200);
    });

    it(`keeps a type of ${MAX_FIELDS} fields (the most a type may have), typed columns for the first ${MAX_TYPED_FIELDS}, the rest read from the document`, async () => {
      const fields = Array.from({ length: MAX_FIELDS }, (_, index) => ({ key: `f${String(index).padStart(3, '0')}`, type: index % 10 === 9 ? 'Number' : 'Text' }));
      expect((await api('PUT', '/content-types', { ...write, body: { name: 'Wide', key: 'Wide', fields } })).status).toBe(200);
      // Every field holds a value long enough to be stored out of line: a row of 500 such columns would not fit a page.
      const values = Object.fromEntries(fields.map((field, index) => [field.key, field.type === 'Number' ? index : text(1_500, 100 + index)]));
      const probe = { path: '/content-types', key: bystander.readKey };
      const baseline = await measureWhile(service.url, probe, () => Promise.resolve(), 1000);
      // About 675,000 characters, read, written, hashed and answered in slices: the other workspace is answered meanwhile.
      const { attack: saved, latency } = await measureWhile(service.url, probe, () => api('PUT', '/v2/contents/Wide', { ...write, body: { fields: values } }), 1000);
      expect(saved.status).toBe(200);
      expect(latency.statuses.filter((status) => status !== 200)).toEqual([]);
      expect(latency.p99Ms).toBeLessThanOrEqual(unheldP99(baseline.latency));
      await typedTableServes('Wide');
      const ids = async (filter: unknown) => (await api('POST', '/v2/contents/Wide', { ...read, body: { filter } })).body.items.map((item: { id: string }) => item.id);
      expect(await ids({ type: 'condition', fieldKey: 'f000', operator: 'e', value: values.f000 })).toEqual([saved.body.id]);
      expect(await ids({ type: 'condition', fieldKey: 'f498', operator: 'e', value: values.f498 })).toEqual([saved.body.id]);
      expect(await ids({ type: 'condition', fieldKey: 'f499', operator: 'gte', value: 499 })).toEqual([saved.body.id]);
      expect((await api('GET', `/v2/contents/Wide/${saved.body.id}`, read)).body.fields).toEqual(values);
      await expectNothingQuarantined();
      expect(await bystanderRoundTrip('wide type done')).toBeGreaterThan(0);
    });

    it('sets aside an event a read model cannot apply (injected in the store), keeps every other read model and workspace going, and lets an operator rebuild it', async () => {
      // A trigger refuses one title in content_items only, as a store refuses a value it cannot hold.
      await service.service.close();
      const sql = await openStoreSql(engine, service.environment);
      await sql.query(`create function refuse_poison() returns trigger language plpgsql as $$
        begin
          if new.doc #>> '{fields,title}' = 'poison' then raise exception 'refused by the test'; end if;
          return new;
        end $$`);
      await sql.query('create trigger refuse_poison before insert or update on rm_content_items for each row execute function refuse_poison()');
      await sql.close();
      service = await service.restart();
      api = client(service.url);
      const probe = { path: '/content-types', key: bystander.readKey };
      const baseline = await measureWhile(service.url, probe, () => Promise.resolve(), 1000);
      const baselineRoundTrip = await bystanderRoundTrip('before the poison');

      const { attack: poisoned, latency } = await measureWhile(service.url, probe, () => api('PUT', '/v2/preview-contents/Article', { ...write, body: { fields: { title: 'poison' } } }), 1000);

      expect(poisoned.status).toBe(200);
      expect(latency.statuses.filter((status) => status !== 200)).toEqual([]);
      expect(latency.p99Ms).toBeLessThanOrEqual(unheldP99(baseline.latency));
      expect(await bystanderRoundTrip('after the poison')).toBeLessThan(Math.max(2 * baselineRoundTrip, baselineRoundTrip + 500));
      // The same workspace's other writes go on too, and a key issued now works at once.
      expect((await api('PUT', '/v2/preview-contents/Article', { ...write, body: { fields: { title: 'after' } } })).status).toBe(200);
      const issued = await api('POST', `/admin/workspaces/${service.workspaceId}/api-keys`, { ...admin, body: { name: 'new reader', policies: ['ReadAccess'] } });
      expect((await api('GET', '/content-types', { key: issued.body.key })).status).toBe(200);
      expect((await api('GET', '/health', {})).status).toBe(200);

      const quarantine = await api('GET', '/admin/projections/quarantine', admin);
      expect(quarantine.body.entries).toEqual([
        expect.objectContaining({ projection: 'content_items', eventType: 'ContentDraftSaved', workspaceId: service.workspaceId, error: expect.stringMatching(/refused by the test/), resolution: null }),
      ]);
      const metrics = await api('GET', '/metrics', {});
      expect(String(metrics.body)).toMatch(/projection_quarantined_events\{projection="content_items"\} 1/);

      // The cause fixed, an operator rebuilds the read model: the event is applied and the entry resolved.
      const sqlAgain = await openStoreSqlBeside(engine, service);
      await sqlAgain.query('drop trigger refuse_poison on rm_content_items');
      await sqlAgain.close();
      service = await service.restart();
      api = client(service.url);
      const [entry] = (await api('GET', '/admin/projections/quarantine', admin)).body.entries;
      const retried = await api('POST', `/admin/projections/quarantine/${encodeURIComponent(entry.id)}/retry`, admin);
      expect(retried.status).toBe(202);
      for (let state = retried.body.state; state === 'running'; await new Promise((resolve) => setTimeout(resolve, 200))) state = (await api('GET', '/admin/projections/rebuild', admin)).body.state;
      expect((await api('GET', '/admin/projections/rebuild', admin)).body.state).toBe('succeeded');
      expect((await api('GET', `/v2/preview-contents/Article/${poisoned.body.id}`, read)).body.fields).toEqual({ title: 'poison' });
      expect((await api('GET', '/admin/projections/quarantine', admin)).body.entries).toEqual([]);
      const all = await api('GET', '/admin/projections/quarantine?state=all', admin);
      expect(all.body.entries).toEqual([expect.objectContaining({ id: entry.id, resolution: expect.objectContaining({ outcome: 'rebuilt' }) })]);
      const feed = await api('GET', `/admin/workspaces/${service.workspaceId}/audit?type=QuarantinedEventRetried`, admin);
      expect(feed.body.items).toEqual([expect.objectContaining({ type: 'QuarantinedEventRetried', actorKind: 'admin' })]);
    });

    it("builds each type's table on its own: one whose build fails holds up no other, is reported and tried again", async () => {
      // Any table of the type Broken is refused when created, as a store refuses what it cannot build.
      const broken = `rm_${tableGeneration(service.workspaceId, 'Broken', []).collection.split('_').slice(0, 2).join('_')}_`;
      const sql = await openStoreSqlBeside(engine, service);
      await sql.query(`create function refuse_broken() returns event_trigger language plpgsql as $$
        begin
          if exists (select 1 from pg_event_trigger_ddl_commands() where command_tag = 'CREATE TABLE' and object_identity like '%${broken}%') then
            raise exception 'refused by the test';
          end if;
        end $$`);
      await sql.query('create event trigger refuse_broken on ddl_command_end execute function refuse_broken()');
      await sql.close();
      service = await service.restart();
      api = client(service.url);
      const fields = [{ key: 'title', type: 'Text' }];
      expect((await api('PUT', '/content-types', { ...write, body: { name: 'Broken', key: 'Broken', fields } })).status).toBe(200);
      expect((await api('PUT', '/content-types', { ...write, body: { name: 'Fine', key: 'Fine', fields } })).status).toBe(200);
      const saved = await api('PUT', '/v2/contents/Broken', { ...write, body: { fields: { title: 'still found' } } });

      await typedTableServes('Fine');
      const status = (await api('GET', '/admin/projections', admin)).body.contentTables;
      expect(status.failures).toEqual([expect.objectContaining({ contentType: `${service.workspaceId}:Broken`, attempts: expect.any(Number), error: expect.stringMatching(/refused by the test/) })]);
      expect(status.tables.find((entry: { contentType: string }) => entry.contentType === 'Broken').state).toBe('building');
      // Its queries read the JSON documents meanwhile.
      const found = await api('POST', '/v2/contents/Broken', { ...read, body: { filter: { type: 'condition', fieldKey: 'title', operator: 'e', value: 'still found' } } });
      expect(found.body.items.map((item: { id: string }) => item.id)).toEqual([saved.body.id]);

      const fix = await openStoreSqlBeside(engine, service);
      await fix.query('drop event trigger refuse_broken');
      await fix.close();
      service = await service.restart();
      api = client(service.url);
      await typedTableServes('Broken');
      expect((await api('GET', '/admin/projections', admin)).body.contentTables.failures).toEqual([]);
    });

    it('recovers a store whose log holds a value an earlier release could not index, with no edit of the log', async () => {
      const { container } = service.service;
      const saved = await api('PUT', '/v2/preview-contents/Article', { ...write, body: { fields: { title: 'long article', body: 'short for now' } } });
      expect(saved.status).toBe(200);
      // As an earlier release left it: its typed table keyed b-trees on whole values, and the projections stopped at such a value.
      await container.resolve(TOKENS.contentTables).stop();
      await container.resolve(TOKENS.projections).stop();
      const readStore = container.resolve(TOKENS.readStore);
      const registry = (await readStore.get<ContentTableDocument>(CONTENT_TABLES, `${service.workspaceId}:Article`))!;
      const earlierTable = `${registry.serving!.collection.slice(0, -8)}00000003`;
      await readStore.ensureCollection(earlierTable, [{ fields: ['stage', 'fields.body', 'id'] }], [{ path: 'stage', type: 'text' }, { path: 'fields.body', type: 'text' }]);
      const earlier = { ...registry.serving!, collection: earlierTable };
      await readStore.apply([{ kind: 'upsert', collection: CONTENT_TABLES, document: { ...registry, serving: earlier, wanted: earlier } }]);
      const body = text(5_000, 7);
      // Saved, but with the projections stopped no read shows it: answered 503, not 200.
      const lengthened = await api('PUT', '/v2/preview-contents/Article', { ...write, body: { id: saved.body.id, fields: { title: 'long article', body } } });
      expect(lengthened).toMatchObject({ status: 503, body: { detail: expect.stringContaining('the change was saved') } });

      service = await service.restart();
      api = client(service.url);
      expect(await bystanderRoundTrip('after the upgrade')).toBeGreaterThan(0);
      await typedTableServes('Article');
      const status = await api('GET', '/admin/projections', admin);
      expect(status.body.contentTables.tables.find((entry: { contentType: string }) => entry.contentType === 'Article').servingTable).not.toBe(earlierTable);
      const found = await api('POST', '/v2/preview-contents/Article', { ...read, body: { filter: { type: 'condition', fieldKey: 'body', operator: 'e', value: body } } });
      expect(found.body.items.map((item: { id: string }) => item.id)).toEqual([saved.body.id]);
      // The earlier table could not take the value: set aside for it, listed until an operator skips it (the new table holds it).
      const [entry, ...more] = (await api('GET', '/admin/projections/quarantine', admin)).body.entries;
      expect(more).toEqual([]);
      expect(entry).toMatchObject({ projection: 'content_tables', eventId: expect.any(String), resolution: null });
      expect((await api('POST', `/admin/projections/quarantine/${encodeURIComponent(entry.id)}/skip`, { ...admin, body: {} })).status).toBe(400);
      const skipped = await api('POST', `/admin/projections/quarantine/${encodeURIComponent(entry.id)}/skip`, { ...admin, body: { reason: 'the typed table of this layout holds it' } });
      expect(skipped.status).toBe(200);
      expect(skipped.body.resolution).toMatchObject({ outcome: 'skipped' });
      expect((await api('POST', `/admin/projections/quarantine/${encodeURIComponent(entry.id)}/skip`, { ...admin, body: { reason: 'again' } })).status).toBe(409);
      expect((await api('GET', '/admin/projections/quarantine', admin)).body.entries).toEqual([]);
      const feed = await api('GET', `/admin/workspaces/${service.workspaceId}/audit?type=QuarantinedEventSkipped`, admin);
      expect(feed.body.items).toEqual([expect.objectContaining({ type: 'QuarantinedEventSkipped' })]);
    });

    // Last: the 50 MB it stores would slow the restarts and rebuilds of the tests above.
    it('answers a page of 500 items of 100,000 characters (the largest answer, about 50 MB) while another workspace goes on', async () => {
      const longType = { name: 'Long', key: 'Long', fields: [{ key: 'body', type: 'RichText' }] };
      expect((await api('PUT', '/content-types', { ...write, body: longType })).status).toBe(200);
      // Saved while its table is still being built, each save waits for the build too: on PGlite under CI's load, past the 5 s a write waits to be readable.
      await typedTableServes('Long');
      const body = text(MAX_TEXT_LENGTH.RichText - 10, 11);
      const ids: string[] = [];
      for (let index = 0; index < PAGE_MAX; index += 4) {
        const saved = await Promise.all([0, 1, 2, 3].map((offset) => api('PUT', '/v2/contents/Long', { ...write, body: { fields: { body: `${String(index + offset).padStart(9, '0')} ${body}` } } })));
        expect(saved.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
        ids.push(...saved.map((answer) => answer.body.id as string));
      }
      const probe = { path: '/content-types', key: bystander.readKey };
      const baseline = await measureWhile(service.url, probe, () => Promise.resolve(), 1000);

      // The answer is parsed after the measurement: parsing 50 MB here would hold this thread, which measures.
      const { attack: answer, latency } = await measureWhile(service.url, probe, () => callKeepingBytes(service.url, 'POST', '/v2/contents/Long', { ...read, body: { pageSize: PAGE_MAX, order: { fieldKey: 'body' } } }), 1000);

      expect(answer.status).toBe(200);
      const page = answer.json();
      expect(page.items.map((item: { id: string }) => item.id)).toEqual(ids);
      expect(page.items[PAGE_MAX - 1].fields.body).toBe(`${String(PAGE_MAX - 1).padStart(9, '0')} ${body}`);
      expect(latency.statuses.filter((status) => status !== 200)).toEqual([]);
      expect(latency.p99Ms).toBeLessThanOrEqual(unheldP99(baseline.latency));
    }, 300_000);

    // Versions of an item have no limit: after a restart a save reads the item's headers and the few events its state keeps, not every value it ever held.
    it('decides on an item of 150 versions of 100,000 characters after a restart while another workspace goes on', async () => {
      const body = text(MAX_TEXT_LENGTH.RichText - 10, 12);
      const first = await api('PUT', '/v2/contents/Article', { ...write, body: { fields: { title: 'published once', body: `0 ${body}` } } });
      expect(first.status).toBe(200);
      const id = first.body.id as string;
      for (let version = 1; version < 150; version++) {
        expect((await api('PUT', '/v2/preview-contents/Article', { ...write, body: { id, fields: { title: `draft ${version}`, body: `${version} ${body}` } } })).status).toBe(200);
      }
      service = await service.restart();
      api = client(service.url);
      const probe = { path: '/content-types', key: bystander.readKey };
      const baseline = await measureWhile(service.url, probe, () => Promise.resolve(), 1000);

      const { attack: saved, latency } = await measureWhile(service.url, probe, () => api('PUT', '/v2/preview-contents/Article', { ...write, body: { id, fields: { title: 'draft 150', body: `150 ${body}` } } }), 1000);

      expect(saved.status).toBe(200);
      expect(latency.statuses.filter((status) => status !== 200)).toEqual([]);
      expect(latency.p99Ms).toBeLessThanOrEqual(unheldP99(baseline.latency));
      expect((await api('GET', `/v2/preview-contents/Article/${id}`, read)).body.fields).toEqual({ title: 'draft 150', body: `150 ${body}` });
      // The published version is the first one's, 151 events back: the state kept it, read from that one event.
      expect((await api('GET', `/v2/contents/Article/${id}`, read)).body.fields).toEqual({ title: 'published once', body: `0 ${body}` });
      expect((await api('PUT', `/preview-contents/Article/${id}/publish`, write)).status).toBe(200);
      expect((await api('GET', `/v2/contents/Article/${id}`, read)).body.fields.title).toBe('draft 150');
    }, 300_000);
  });
}

/** SQL on the store of a running service: on PGlite the service is closed first (one process per data directory). */
async function openStoreSqlBeside(engine: Engine, service: TestService) {
  if (engine === 'pglite') await service.service.close();
  return openStoreSql(engine, service.environment);
}
