import { checkpointName } from '../../projections/projector';
import { CONTENT_ITEM_STATES, type ContentItemStateDocument } from '../../projections/read-models/content-item-states';
import { TOKENS } from '../../src/container';
import { client } from '../support/http';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';
import { deleteCheckpointEverywhere, resolvedCheckpointList } from '../../projections/group-checkpoint';
import { ITEM_COUNTS, type ItemCountDocument, type ItemCountHead, itemCountHeadId } from '../../projections/read-models/item-counts';
import { publishedVersionScope } from '../../projections/read-models/published-versions';
import { PublishedTotals } from '../../queries/published-totals';
import { CONTENT_TABLES } from '../../projections/read-models/content-tables';
import { type ContentTableDocument, contentTableId } from '../../projections/content-tables/schema';
import { eventually } from '../support/waiting';

const noteType = { name: 'Note', key: 'Note', fields: [{ key: 'title', type: 'Text', sortIndex: 0 }] };

/** Unfiltered list totals from the item_counts read model (the type's head row, not a count of its rows). */
export function describeContentCounts(engine: Engine): void {
  describe(`unfiltered list totals (${engine})`, () => {
    let service: TestService;
    let api: ReturnType<typeof client>;
    let write: { key: string };
    let read: { key: string };
    const container = () => service.service.container;
    /** Both stages' counts in item_counts: the drafts now, and the sum of the type's days of served versions. */
    const summed = async () => {
      const days = await container().resolve(TOKENS.readStore).list<ItemCountDocument>(ITEM_COUNTS, { filter: { type: 'condition', field: 'scope', operator: 'e', value: publishedVersionScope(service.workspaceId, 'Note') } });
      const head = days.find((day) => day.id === itemCountHeadId(day.scope)) as ItemCountHead | undefined;
      return { draft: head?.draftsNow ?? 0, published: days.reduce((sum, day) => sum + day.served, 0), days: days.length };
    };

    /** The unfiltered totals of both stages (list and ids), and the same counted through a filter every item matches. */
    const totals = async () => {
      const answers: Record<string, number> = {};
      for (const path of ['/v2/contents/Note', '/v2/preview-contents/Note']) {
        const unfiltered = await api('POST', path, { ...read, body: { pageSize: 2 } });
        const counted = await api('POST', path, { ...read, body: { pageSize: 2, filter: { type: 'condition', fieldKey: 'title', operator: 'ne', value: 'never a title' } } });
        expect([unfiltered.status, counted.status]).toEqual([200, 200]);
        expect(unfiltered.body.total).toBe(counted.body.total);
        expect(unfiltered.body.items.map((item: { id: string }) => item.id)).toEqual(counted.body.items.map((item: { id: string }) => item.id));
        const ids = await api('POST', `${path}/ids`, { ...read, body: { pageSize: 2 } });
        expect(ids.body).toEqual({ ids: counted.body.items.map((item: { id: string }) => item.id), total: counted.body.total });
        answers[path] = unfiltered.body.total;
      }
      return answers;
    };

    beforeAll(async () => {
      service = await startTestService(engine);
      api = client(service.url);
      write = { key: service.writeKey };
      read = { key: service.readKey };
      expect((await api('PUT', '/content-types', { ...write, body: noteType })).status).toBe(200);
    });
    afterAll(() => service.close());

    it('answers the total of each stage through creates, publishes, unpublishes, draft deletes and deletes, as counting does', async () => {
      expect(await totals()).toEqual({ '/v2/contents/Note': 0, '/v2/preview-contents/Note': 0 });
      const ids: string[] = [];
      for (let index = 0; index < 6; index++) ids.push((await api('PUT', '/v2/contents/Note', { ...write, body: { fields: { title: `published ${index}` } } })).body.id);
      for (let index = 0; index < 3; index++) ids.push((await api('PUT', '/v2/preview-contents/Note', { ...write, body: { fields: { title: `draft ${index}` } } })).body.id);
      expect(await totals()).toEqual({ '/v2/contents/Note': 6, '/v2/preview-contents/Note': 9 });

      // An update changes no stage: the counts stay.
      expect((await api('PUT', '/v2/contents/Note', { ...write, body: { id: ids[0], fields: { title: 'updated' } } })).status).toBe(200);
      expect((await api('PUT', `/contents/Note/${ids[1]}/unpublish`, write)).status).toBe(200);
      expect((await api('DELETE', `/v2/contents/Note/${ids[2]}`, write)).status).toBe(200);
      expect((await api('DELETE', `/v2/preview-contents/Note/${ids[7]}`, write)).status).toBe(200);
      expect((await api('PUT', `/v2/preview-contents/Note/${ids[8]}/publish`, write)).status).toBe(200);
      expect(await totals()).toEqual({ '/v2/contents/Note': 5, '/v2/preview-contents/Note': 7 });
    });

    it('reads the total of lists and ids from the head of item_counts, while the filtered one is counted', async () => {
      const readStore = container().resolve(TOKENS.readStore);
      expect(await summed()).toEqual({ draft: 7, published: 5, days: 1 });
      const id = itemCountHeadId(publishedVersionScope(service.workspaceId, 'Note'));
      const head = (await readStore.get<ItemCountHead>(ITEM_COUNTS, id))!;
      expect(head).toMatchObject({ draftsNow: 7, servedNow: 5 });
      // A count the read model never held, written by hand: the unfiltered list answers it.
      await readStore.apply([{ kind: 'upsert', collection: ITEM_COUNTS, document: { ...head, servedNow: 41 } }]);
      expect((await api('POST', '/v2/contents/Note', { ...read, body: {} })).body.total).toBe(41);
      expect((await api('POST', '/v2/contents/Note/ids', { ...read, body: {} })).body.total).toBe(41);
      expect((await api('POST', '/v2/preview-contents/Note', { ...read, body: {} })).body.total).toBe(7);
      expect((await api('POST', '/v2/contents/Note', { ...read, body: { filter: { type: 'condition', fieldKey: 'title', operator: 'ne', value: 'never a title' } } })).body.total).toBe(5);
      await readStore.apply([{ kind: 'upsert', collection: ITEM_COUNTS, document: head }]);
    });

    it('upgrades a store built with one item state per read model (published_versions version 1) blue/green, counting meanwhile; no checkpoint goes back', async () => {
      const before = await totals();
      const readStore = container().resolve(TOKENS.readStore);
      const projections = container().resolve(TOKENS.projections);
      const checkpointsBefore = new Map(resolvedCheckpointList(await readStore.listCheckpoints()).map((checkpoint) => [checkpoint.name, checkpoint.position]));

      // As the previous release leaves the store: the versions and both counts built, under the checkpoints of its three projectors, and no shared item state.
      await projections.stop();
      const upgraded = projections.projectors.find((projector) => projector.name === 'published_versions')!;
      const position = checkpointsBefore.get(checkpointName(upgraded))!;
      await deleteCheckpointEverywhere(readStore, checkpointName(upgraded));
      await readStore.dropCollection(CONTENT_ITEM_STATES);
      await readStore.apply([], ['published_versions', 'content_counts', 'published_counts'].map((name) => ({ name, position })));
      const formerStates = ['published_version_items', 'published_count_items', 'content_count_items'];
      for (const name of formerStates) {
        await readStore.ensureCollection(name, []);
        await readStore.apply([{ kind: 'upsert', collection: name, document: { id: `${service.workspaceId}:former` } }]);
      }
      await projections.start();
      // content_tables mirrors the item state into the typed versions tables: it waits with it.
      expect(projections.awaitingBackfill.map((projector) => projector.name)).toEqual(['content_tables', 'item_counts', 'published_versions']);
      // The totals are counted meanwhile, and a write still lands in them.
      expect(await totals()).toEqual(before);
      const created = (await api('PUT', '/v2/contents/Note', { ...write, body: { fields: { title: 'during the upgrade' } } })).body.id;

      await container().resolve(TOKENS.rebuilds).startProjections();
      for (;;) {
        const status = await api('GET', '/admin/projections/rebuild', { bearer: ADMIN_TOKEN });
        if (status.body.state !== 'running') {
          expect(status.body).toMatchObject({ state: 'succeeded', projections: ['content_items', 'content_tables', 'item_counts', 'published_versions'] });
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(projections.awaitingBackfill).toEqual([]);
      expect(await totals()).toEqual({ '/v2/contents/Note': before['/v2/contents/Note']! + 1, '/v2/preview-contents/Note': before['/v2/preview-contents/Note']! + 1 });
      expect(await summed()).toMatchObject({ draft: before['/v2/preview-contents/Note']! + 1, published: before['/v2/contents/Note']! + 1 });
      // One state per living item, holding no document.
      const states = await readStore.list<ContentItemStateDocument>(CONTENT_ITEM_STATES, {});
      expect(states).toHaveLength(before['/v2/preview-contents/Note']! + 1);
      expect(states.every((state) => !('fields' in state) && (state.open === null || !('fields' in state.open)))).toBe(true);
      const checkpointNames = resolvedCheckpointList(await readStore.listCheckpoints()).map((checkpoint) => checkpoint.name);
      expect(checkpointNames).toContain(checkpointName(upgraded));
      expect(checkpointNames).not.toContain('published_versions');
      // The former states go once the new version is switched in (a dropped table answers an error, read as nothing).
      for (const name of formerStates) expect(await readStore.list(name, {}).catch(() => [])).toEqual([]);
      expect((await api('DELETE', `/v2/contents/Note/${created}`, write)).status).toBe(200);
      expect(await totals()).toEqual(before);
      for (const checkpoint of resolvedCheckpointList(await readStore.listCheckpoints())) {
        const earlier = checkpointsBefore.get(checkpoint.name);
        if (earlier) expect(checkpoint.position.prepare >= earlier.prepare).toBe(true);
      }
    });
    it('takes over a store built by published_versions version 4 (both stages counted now, served counts by month and hour) and backfills item_counts alone: the same totals', async () => {
      const before = await totals();
      const readStore = container().resolve(TOKENS.readStore);
      const projections = container().resolve(TOKENS.projections);
      const upgraded = projections.projectors.find((projector) => projector.name === 'published_versions')!;
      const counts = projections.projectors.find((projector) => projector.name === 'item_counts')!;
      const scope = publishedVersionScope(service.workspaceId, 'Note');
      // The day of events is read from the type's versions table.
      const versions = () => eventually(async () => (await readStore.get<ContentTableDocument>(CONTENT_TABLES, contentTableId(service.workspaceId, 'Note')))?.serving?.versions);
      const servedNow = async () => new PublishedTotals(readStore, () => true).at(scope, await versions(), new Date());
      expect(await servedNow()).toBe(before['/v2/contents/Note']);
      const checkpointsBefore = new Map(resolvedCheckpointList(await readStore.listCheckpoints()).map((checkpoint) => [checkpoint.name, checkpoint.position]));
      const registryBefore = await readStore.list<ContentTableDocument>(CONTENT_TABLES, {});

      // As version 4 leaves the store: its checkpoint where this version's stands, content_counts and published_counts, and no item_counts.
      await projections.stop();
      const naming = (await readStore.listCheckpoints()).filter(({ name }) => name === checkpointName(upgraded) || (name.startsWith('live:') && name.split(/[:,]/).includes(checkpointName(upgraded))));
      for (const { name, position } of naming) {
        await readStore.apply([], [{ name: name.replace(checkpointName(upgraded), checkpointName({ name: upgraded.name, version: 4 })), position }]);
        await readStore.deleteCheckpoint(name);
      }
      await deleteCheckpointEverywhere(readStore, checkpointName(counts));
      await readStore.dropCollection(ITEM_COUNTS);
      const formerCounts = {
        content_counts: { id: scope, workspaceId: service.workspaceId, contentType: 'Note', draft: before['/v2/preview-contents/Note'], published: before['/v2/contents/Note'] },
        published_counts: { id: `${scope}:month:${Date.UTC(2026, 0)}`, scope, level: 'month', startMs: Date.UTC(2026, 0), change: before['/v2/contents/Note'] },
      };
      for (const [collection, document] of Object.entries(formerCounts)) {
        await readStore.ensureCollection(collection, []);
        await readStore.apply([{ kind: 'upsert', collection, document }]);
      }
      await projections.start();
      // The item states are taken over as they are; only the counts are built, and every type's tables keep serving.
      expect(projections.awaitingBackfill.map((projector) => projector.name)).toEqual(['item_counts']);
      expect(await readStore.list<ContentTableDocument>(CONTENT_TABLES, {})).toEqual(registryBefore);
      expect(await totals()).toEqual(before);
      // Until item_counts is built, the as-of total is counted.
      expect(await new PublishedTotals(readStore, () => !projections.awaitingBackfill.includes(counts)).at(scope, await versions(), new Date())).toBeNull();

      await container().resolve(TOKENS.rebuilds).startProjections();
      for (;;) {
        const status = await api('GET', '/admin/projections/rebuild', { bearer: ADMIN_TOKEN });
        if (status.body.state !== 'running') {
          expect(status.body).toMatchObject({ state: 'succeeded', projections: ['item_counts', 'published_versions'] });
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(projections.awaitingBackfill).toEqual([]);
      expect(await readStore.list<ContentTableDocument>(CONTENT_TABLES, {})).toEqual(registryBefore);
      expect(await summed()).toEqual({ draft: before['/v2/preview-contents/Note'], published: before['/v2/contents/Note'], days: 1 });
      expect(await totals()).toEqual(before);
      expect(await servedNow()).toBe(before['/v2/contents/Note']);
      // The former counts are dropped (a dropped table answers an error, read as nothing).
      for (const collection of Object.keys(formerCounts)) expect(await readStore.list(collection, {}).catch(() => [])).toEqual([]);
      const checkpointNames = resolvedCheckpointList(await readStore.listCheckpoints()).map((checkpoint) => checkpoint.name);
      expect(checkpointNames).toEqual(expect.arrayContaining([checkpointName(upgraded), checkpointName(counts)]));
      expect(checkpointNames).not.toContain(checkpointName({ name: upgraded.name, version: 4 }));
      // A first publish after the upgrade moves the head; the totals follow.
      expect((await api('PUT', '/v2/contents/Note', { ...write, body: { fields: { title: 'after the upgrade' } } })).status).toBe(200);
      expect(await servedNow()).toBe(before['/v2/contents/Note']! + 1);
      expect(await totals()).toEqual({ '/v2/contents/Note': before['/v2/contents/Note']! + 1, '/v2/preview-contents/Note': before['/v2/preview-contents/Note']! + 1 });
      for (const checkpoint of resolvedCheckpointList(await readStore.listCheckpoints())) {
        const earlier = checkpointsBefore.get(checkpoint.name);
        if (earlier) expect(checkpoint.position.prepare >= earlier.prepare).toBe(true);
      }
    });
  });
}
