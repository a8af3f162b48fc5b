import { comparePositions } from '../../infra/eventstore/port';
import { TOKENS } from '../../src/container';
import { client } from '../support/http';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';
import { deleteCheckpointEverywhere, resolvedCheckpointList } from '../../projections/group-checkpoint';
import { checkpointName } from '../../projections/projector';
import { rebuildReadModels } from '../../projections/rebuild';
import { openStoreSql } from '../support/store-sql';

const admin = { bearer: ADMIN_TOKEN };

async function seed(api: ReturnType<typeof client>, writeKey: string): Promise<void> {
  for (let index = 0; index < 15; index++) {
    await api('PUT', '/content-types', { key: writeKey, body: { name: `Type ${index}`, key: `Type${index}`, sortIndex: index % 4, fields: [{ key: 'title', type: 'Text' }] } });
  }
  await api('DELETE', '/content-types/Type3', { key: writeKey });
  await api('PUT', '/content-types', { key: writeKey, body: { name: 'Renamed', key: 'Type4', fields: [] } });
  await api('PUT', '/locales', { key: writeKey, body: { code: 'en', name: 'English' } });
  await api('PUT', '/locales', { key: writeKey, body: { code: 'fr', fallbackCode: 'en' } });
  await api('PUT', '/locales', { key: writeKey, body: { code: 'fr', default: true } });
  for (let index = 0; index < 10; index++) {
    const saved = await api('PUT', '/v2/contents/Type1', { key: writeKey, body: { fields: { title: `Item ${index}` } } });
    if (index % 3 === 0) await api('PUT', `/contents/Type1/${saved.body.id}/unpublish`, { key: writeKey });
    if (index % 4 === 0) await api('PUT', '/v2/preview-contents/Type1', { key: writeKey, body: { id: saved.body.id, fields: { title: `Item ${index} edited` } } });
    // A restore (ContentRestored) is a draft save to the read models, on rebuild too.
    if (index % 5 === 0) expect((await api('POST', `/v2/preview-contents/Type1/${saved.body.id}/versions/1/restore`, { key: writeKey, body: { reason: 'seed' } })).status).toBe(200);
  }
}

async function snapshot(api: ReturnType<typeof client>, readKey: string) {
  return {
    types: (await api('GET', '/content-types', { key: readKey })).body,
    type4: (await api('GET', '/content-types/Type4', { key: readKey })).body,
    locales: (await api('GET', '/locales', { key: readKey })).body,
    workspaces: (await api('GET', '/admin/workspaces', admin)).body,
    published: (await api('POST', '/v2/contents/Type1', { key: readKey, body: { order: { fieldKey: 'title' }, pageSize: 100 } })).body,
    drafts: (await api('POST', '/v2/preview-contents/Type1', { key: readKey, body: { order: { fieldKey: 'title' }, pageSize: 100 } })).body,
  };
}

async function waitForRebuild(api: ReturnType<typeof client>) {
  for (;;) {
    const status = await api('GET', '/admin/projections/rebuild', admin);
    if (status.body.state !== 'running') return status.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function describeRebuildAndRestart(engine: Engine): void {
  describe(`rebuilding read models and restarting (${engine})`, () => {
    let service: TestService;
    let api: ReturnType<typeof client>;

    beforeAll(async () => {
      service = await startTestService(engine);
      api = client(service.url);
      await seed(api, service.writeKey);
    });
    afterAll(() => service.close());

    it('rebuilds dropped read models from the log and answers exactly as before', async () => {
      const before = await snapshot(api, service.readKey);
      expect(before.types).toHaveLength(14);
      expect(before.published.total).toBe(6);
      expect(before.drafts.items.filter((item: { fields: { title: string } }) => item.fields.title.endsWith('edited'))).toHaveLength(2);

      const readStore = service.service.container.resolve(TOKENS.readStore);
      const projections = service.service.container.resolve(TOKENS.projections);
      await projections.stop();
      for (const projector of projections.projectors) {
        for (const collection of projector.collections) await readStore.dropCollection(collection.name);
        await deleteCheckpointEverywhere(readStore, projector.name);
      }
      await projections.start();

      const started = await api('POST', '/admin/projections/rebuild', { ...admin, body: {} });
      expect(started.status).toBe(202);
      const finished = await waitForRebuild(api);
      expect(finished).toMatchObject({ state: 'succeeded', phase: 'done', fraction: 1 });
      expect(finished.eventsProcessed).toBeGreaterThan(20);

      expect(await snapshot(api, service.readKey)).toEqual(before);
      const status = await api('GET', '/admin/projections', admin);
      expect(status.body.projections.every((projection: { atHead: boolean }) => projection.atHead)).toBe(true);
    });

    it('backfills a read model that is new to the populated store apart: no other read model goes back, reads stay current, writes are not held', async () => {
      const readStore = service.service.container.resolve(TOKENS.readStore);
      const projections = service.service.container.resolve(TOKENS.projections);
      const item = await api('PUT', '/v2/contents/Type1', { key: service.writeKey, body: { fields: { title: 'Before upgrade' } } });
      await api('PUT', '/v2/contents/Type1', { key: service.writeKey, body: { id: item.body.id, fields: { title: 'Latest before upgrade' } } });
      const checkpointsBefore = resolvedCheckpointList(await readStore.listCheckpoints());

      // As an upgrade that adds the search read model would find the store: its collections and checkpoint absent.
      await projections.stop();
      const added = projections.projectors.find((projector) => projector.name === 'content_search')!;
      for (const collection of added.collections) await readStore.dropCollection(collection.name);
      await deleteCheckpointEverywhere(readStore, checkpointName(added));
      await service.service.container.resolve(TOKENS.rebuilds).startProjections();

      const writeStartedAt = Date.now();
      const during = await api('PUT', '/v2/contents/Type1', { key: service.writeKey, body: { id: item.body.id, fields: { title: 'Written during the backfill' } } });
      expect(during.status).toBe(200);
      expect(Date.now() - writeStartedAt).toBeLessThan(2000);
      expect((await api('GET', `/v2/contents/Type1/${item.body.id}`, { key: service.readKey })).body.fields.title).toBe('Written during the backfill');

      const finished = await waitForRebuild(api);
      expect(finished).toMatchObject({ state: 'succeeded', projections: ['content_search'] });
      const checkpointsAfter = new Map((resolvedCheckpointList(await readStore.listCheckpoints())).map((checkpoint) => [checkpoint.name, checkpoint.position]));
      for (const before of checkpointsBefore) {
        if (before.name === added.name) continue;
        expect(comparePositions(checkpointsAfter.get(before.name)!, before.position)).toBeGreaterThanOrEqual(0);
      }
      const status = await api('GET', '/admin/projections', admin);
      expect(status.body.projections.find((projection: { name: string }) => projection.name === 'content_search')).toMatchObject({ atHead: true });
      expect(projections.awaitingBackfill).toEqual([]);
    });

    it('upgrades content_items and content_search built by version 1 (indexes on the document) blue/green: the same answers meanwhile and after, on typed columns', async () => {
      const readStore = service.service.container.resolve(TOKENS.readStore);
      const projections = service.service.container.resolve(TOKENS.projections);
      const events = service.service.container.resolve(TOKENS.eventStore);
      const upgraded = projections.projectors.filter((projector) => ['content_items', 'content_search'].includes(projector.name));
      expect(upgraded.map(checkpointName)).toEqual(['content_items@2', 'content_search@2']);
      const before = await snapshot(api, service.readKey);

      // As the previous release leaves the store: both read models built by version 1, whose tables have no typed column, under version 1's checkpoints.
      await projections.stop();
      const versionOne = upgraded.map(({ version: _version, ...projector }) => ({ ...projector, collections: projector.collections.map(({ columns: _columns, ...collection }) => collection) }));
      await rebuildReadModels(events, readStore, versionOne, null);
      for (const projector of upgraded) await deleteCheckpointEverywhere(readStore, checkpointName(projector));
      // The tables' columns, read beside the running service where the engine allows it (a PostgreSQL server; PGlite is one process's).
      const sql = engine === 'postgres' ? await openStoreSql(engine, service.environment) : null;
      const typedColumns = async () =>
        (
          await sql!.query<{ table: string; column: string }>(
            `select table_name as table, column_name as column from information_schema.columns
             where table_name in ('rm_content_items', 'rm_content_search') and column_name like 'c\\_%' order by 1, 2`,
          )
        ).map(({ table, column }) => `${table}.${column}`);
      if (sql) expect(await typedColumns()).toEqual([]);
      await projections.start();
      // content_tables reads content_items as it projects: it is rebuilt with it.
      expect(projections.awaitingBackfill.map((projector) => projector.name)).toEqual(['content_items', 'content_tables', 'content_search']);
      expect(await snapshot(api, service.readKey)).toEqual(before);

      const checkpointsBefore = resolvedCheckpointList(await readStore.listCheckpoints());
      await service.service.container.resolve(TOKENS.rebuilds).startProjections();
      expect(await waitForRebuild(api)).toMatchObject({ state: 'succeeded', projections: ['content_items', 'content_tables', 'content_search', 'published_versions'] });
      expect(projections.awaitingBackfill).toEqual([]);
      expect(await snapshot(api, service.readKey)).toEqual(before);
      if (sql) expect(await typedColumns()).toEqual(['rm_content_items.c_contentType', 'rm_content_items.c_itemId', 'rm_content_items.c_stage', 'rm_content_items.c_workspaceId', 'rm_content_search.c_workspaceId']);
      const checkpointsAfter = new Map(resolvedCheckpointList(await readStore.listCheckpoints()).map((checkpoint) => [checkpoint.name, checkpoint.position]));
      for (const { name, position } of checkpointsBefore) {
        if (checkpointsAfter.has(name)) expect(comparePositions(checkpointsAfter.get(name)!, position)).toBeGreaterThanOrEqual(0);
      }
      for (const projector of upgraded) expect(checkpointsAfter.has(projector.name)).toBe(false);
      // A write after the upgrade lands in the typed tables.
      const item = await api('PUT', '/v2/contents/Type1', { key: service.writeKey, body: { fields: { title: 'After the upgrade' } } });
      expect((await api('GET', `/v2/contents/Type1/${item.body.id}`, { key: service.readKey })).body.fields.title).toBe('After the upgrade');
      expect((await snapshot(api, service.readKey)).published.total).toBe(before.published.total + 1);
      await api('DELETE', `/v2/contents/Type1/${item.body.id}`, { key: service.writeKey });
      await sql?.close();
    });

    it('keeps serving the old read models during a rebuild and accepts writes made meanwhile', async () => {
      const started = await api('POST', '/admin/projections/rebuild', { ...admin, body: { projections: ['content_types'] } });
      expect(started.status).toBe(202);
      const during = await api('PUT', '/content-types', { key: service.writeKey, body: { name: 'During', key: 'During', fields: [] } });
      expect(during.status).toBe(200);
      expect((await api('GET', '/content-types/Type1', { key: service.readKey })).status).toBe(200);
      expect((await waitForRebuild(api)).state).toBe('succeeded');
      expect((await api('GET', '/content-types/During', { key: service.readKey })).status).toBe(200);
    });

    it('rebuilds a read model that reads others together with them, and answers alike', async () => {
      const before = await snapshot(api, service.readKey);
      const started = await api('POST', '/admin/projections/rebuild', { ...admin, body: { projections: ['content_tables'] } });
      expect(started.status).toBe(202);
      expect(started.body.projections).toEqual(['content_items', 'content_tables', 'published_versions']);
      expect(await waitForRebuild(api)).toMatchObject({ state: 'succeeded', projections: ['content_items', 'content_tables', 'published_versions'] });
      expect(await snapshot(api, service.readKey)).toEqual(before);
    });

    it('refuses an unknown projection name (400) and a second concurrent rebuild (409)', async () => {
      const unknown = await api('POST', '/admin/projections/rebuild', { ...admin, body: { projections: ['nope'] } });
      expect(unknown.status).toBe(400);
      await api('POST', '/admin/projections/rebuild', { ...admin, body: {} });
      const second = await api('POST', '/admin/projections/rebuild', { ...admin, body: {} });
      expect([202, 409]).toContain(second.status);
      if (second.status === 202) expect((await waitForRebuild(api)).state).toBe('succeeded');
      else expect(second.body.status).toBe(409);
      await waitForRebuild(api);
    });

    it('keeps every answer and every key across a restart', async () => {
      const before = await snapshot(api, service.readKey);
      service = await service.restart();
      api = client(service.url);
      expect(service.service.bootstrap).toBeNull();
      expect(await snapshot(api, service.readKey)).toEqual(before);
      expect((await api('PUT', '/locales', { key: service.writeKey, body: { code: 'de' } })).status).toBe(200);
    });
  });
}
