import type { ContentTableDocument } from '../../projections/content-tables/schema';
import { CONTENT_TABLES } from '../../projections/read-models/content-tables';
import { runCli } from '../../src/cli/operator';
import { TOKENS } from '../../src/container';
import { captureCliOutput } from '../support/cli-output';
import { client } from '../support/http';
import { ADMIN_TOKEN, type Engine, movableClock, startTestService, type TestService } from '../support/service';
import { eventually } from '../support/waiting';

const docType = { name: 'Doc', key: 'Doc', fields: [{ key: 'title', type: 'Text' }] };

/** Bulk undo of one actor's, request's or time window's changes, and the operator's history of any item (issue 16). */
export function describeContentUndo(engine: Engine): void {
  describe(`content bulk undo (${engine})`, () => {
    const clock = movableClock();
    let service: TestService;
    let api: ReturnType<typeof client>;
    let read: { key: string };
    let write: { key: string };
    const admin = { bearer: ADMIN_TOKEN };
    const undoPath = () => `/admin/workspaces/${service.workspaceId}/content-undo`;
    const undo = (body: unknown) => api('POST', undoPath(), { ...admin, body });
    const history = async (id: string) =>
      (await api('GET', `/v2/contents/Doc/${id}/history`, read)).body as { version: number; type: string; at: string; actor: string; clientInfo: string | null; requestId: string; serverRequestId: string | null }[];
    const draftTitle = async (id: string) => {
      const answer = await api('GET', `/v2/preview-contents/Doc/${id}`, read);
      return answer.status === 200 ? answer.body.fields.title : answer.status;
    };
    const issueKey = async () => {
      const issued = await api('POST', `/admin/workspaces/${service.workspaceId}/api-keys`, { ...admin, body: { policies: ['ReadAccess', 'WriteAccess'] } });
      expect(issued.status).toBe(201);
      return { key: issued.body.key as string, actor: `key:${issued.body.id}` };
    };
    const create = async (title: string, as = write) => (await api('PUT', '/v2/contents/Doc', { ...as, body: { fields: { title } } })).body.id as string;

    beforeAll(async () => {
      service = await startTestService(engine, {}, clock);
      api = client(service.url);
      read = { key: service.readKey };
      write = { key: service.writeKey };
      expect((await api('PUT', '/content-types', { ...write, body: docType })).status).toBe(200);
    });
    afterAll(() => service.close());

    it('reverts every change of a compromised key: a dry run lists the plan, then one restore per item; others\' later changes are conflicts', async () => {
      const bad = await issueKey();
      const [edited, deleted, contested] = [await create('edited: good'), await create('deleted: good'), await create('contested: good')];
      await api('PUT', '/v2/contents/Doc', { key: bad.key, body: { id: edited, fields: { title: 'edited: bad 1' } } });
      await api('PUT', '/v2/preview-contents/Doc', { key: bad.key, body: { id: edited, fields: { title: 'edited: bad 2' } } });
      await api('DELETE', `/v2/contents/Doc/${deleted}`, { key: bad.key });
      await api('PUT', '/v2/preview-contents/Doc', { key: bad.key, body: { id: contested, fields: { title: 'contested: bad' } } });
      await api('PUT', '/v2/preview-contents/Doc', { ...write, body: { id: contested, fields: { title: 'contested: fixed by hand' } } });
      const created = await create('created: bad', { key: bad.key });
      const editedBefore = await history(edited);

      const plan = await undo({ selector: { actor: bad.actor }, dryRun: true });
      expect(plan.status).toBe(200);
      expect(plan.body.dryRun).toBe(true);
      const byId = new Map(plan.body.items.map((item: { itemId: string }) => [item.itemId, item]));
      expect(byId.size).toBe(4);
      expect(byId.get(edited)).toEqual({ itemId: edited, contentType: 'Doc', currentVersion: 5, firstChange: 3, restoreVersion: 2, action: 'restore', publishedAction: 'publish', laterChanges: [] });
      expect(byId.get(deleted)).toMatchObject({ currentVersion: 3, firstChange: 3, restoreVersion: 2, action: 'restore', publishedAction: 'publish' });
      expect(byId.get(created)).toMatchObject({ firstChange: 1, restoreVersion: null, action: 'delete', publishedAction: 'none' });
      expect(byId.get(contested)).toMatchObject({ restoreVersion: 2, action: 'conflict', publishedAction: 'none', laterChanges: [expect.objectContaining({ version: 4, type: 'ContentDraftSaved', actor: expect.not.stringMatching(bad.actor) })] });
      // A dry run appends nothing.
      expect(await history(edited)).toEqual(editedBefore);

      const done = await undo({ selector: { actor: bad.actor }, reason: 'key leaked (incident 7)' });
      expect(done.status).toBe(200);
      const outcomes = Object.fromEntries(done.body.items.map((item: { itemId: string; outcome: string }) => [item.itemId, item.outcome]));
      expect(outcomes).toEqual({ [edited]: 'restored', [deleted]: 'restored', [created]: 'deleted', [contested]: 'conflict' });

      // Both stages are as before the key's first change, at once (read your writes).
      expect(await draftTitle(edited)).toBe('edited: good');
      expect((await api('GET', `/v2/contents/Doc/${edited}`, read)).body.fields.title).toBe('edited: good');
      const [restoreEntry, publishEntry] = (await history(edited)).slice(-2);
      expect(restoreEntry).toMatchObject({ version: 6, type: 'ContentRestored', actor: 'admin', clientInfo: 'key leaked (incident 7)' });
      expect(publishEntry).toMatchObject({ version: 7, type: 'ContentPublished', actor: 'admin', clientInfo: 'key leaked (incident 7)' });
      // A deleted item comes back, published as it was.
      expect(await draftTitle(deleted)).toBe('deleted: good');
      expect((await api('GET', `/v2/contents/Doc/${deleted}`, read)).body.fields.title).toBe('deleted: good');
      expect((await history(deleted)).map((entry) => entry.type)).toEqual(['ContentRestored', 'ContentPublished']);
      // An item the key created is deleted; an item someone changed later is left alone.
      expect(await draftTitle(created)).toBe(404);
      expect(await draftTitle(contested)).toBe('contested: fixed by hand');

      // Running it again changes nothing.
      const again = await undo({ selector: { actor: bad.actor }, reason: 'again' });
      const againOutcomes = Object.fromEntries(again.body.items.map((item: { itemId: string; outcome: string }) => [item.itemId, item.outcome]));
      expect(againOutcomes).toEqual({ [edited]: 'unchanged', [deleted]: 'unchanged', [created]: 'unchanged', [contested]: 'conflict' });
      expect((await history(edited)).length).toBe(7);
    });

    it('takes down what a compromised key published: the published content before it is live again, its new items are gone, drafts restored', async () => {
      const spammer = await issueKey();
      const published = (await api('PUT', '/v2/contents/Doc', { ...write, body: { fields: { title: 'news: published' } } })).body.id as string;
      await api('PUT', '/v2/preview-contents/Doc', { ...write, body: { id: published, fields: { title: 'news: draft in progress' } } });
      const unpublishedBefore = (await api('PUT', '/v2/preview-contents/Doc', { ...write, body: { fields: { title: 'embargoed' } } })).body.id as string;
      const contested = await create('contested: good');
      const takenDown = await create('taken down: good');
      // Lists are answered from the type's typed table once it serves: the undo must reach it too.
      const readStore = service.service.container.resolve(TOKENS.readStore);
      await eventually(async () => (await readStore.get<ContentTableDocument>(CONTENT_TABLES, `${service.workspaceId}:Doc`))?.serving);

      await api('PUT', '/v2/contents/Doc', { key: spammer.key, body: { id: published, fields: { title: 'SPAM over news' } } });
      await api('PUT', `/v2/preview-contents/Doc/${unpublishedBefore}/publish`, { key: spammer.key, body: {} });
      const spamItem = await create('SPAM new item', { key: spammer.key });
      await api('PUT', `/v2/contents/Doc/${takenDown}/unpublish`, { key: spammer.key, body: {} });
      await api('PUT', '/v2/contents/Doc', { key: spammer.key, body: { id: contested, fields: { title: 'SPAM contested' } } });
      clock.advance(60_000);
      const duringSpam = new Date(clock.now()).toISOString();
      clock.advance(60_000);
      await api('PUT', '/v2/contents/Doc', { ...write, body: { id: contested, fields: { title: 'contested: fixed by hand' } } });
      const liveTitles = async (query = '', value = 'SPAM') => {
        const answer = await api('POST', `/v2/contents/Doc${query}`, { ...read, body: { filter: { type: 'condition', fieldKey: 'title', operator: 'contains', value } } });
        expect(answer.status).toBe(200);
        return (answer.body.items as { fields: { title: string } }[]).map((item) => item.fields.title).sort();
      };
      expect(await liveTitles()).toEqual(['SPAM new item', 'SPAM over news']);

      const plan = await undo({ selector: { actor: spammer.actor }, dryRun: true });
      const planned = Object.fromEntries(plan.body.items.map((item: { itemId: string; action: string; publishedAction: string }) => [item.itemId, `${item.action}/${item.publishedAction}`]));
      expect(planned).toEqual({
        [published]: 'restore/publish',
        [unpublishedBefore]: 'restore/unpublish',
        [spamItem]: 'delete/none',
        [takenDown]: 'restore/publish',
        [contested]: 'conflict/none',
      });
      expect(await liveTitles()).toEqual(['SPAM new item', 'SPAM over news']);

      const done = await undo({ selector: { actor: spammer.actor }, reason: 'spam key 9' });
      const outcomes = Object.fromEntries(done.body.items.map((item: { itemId: string; outcome: string }) => [item.itemId, item.outcome]));
      expect(outcomes).toEqual({ [published]: 'restored', [unpublishedBefore]: 'restored', [spamItem]: 'deleted', [takenDown]: 'restored', [contested]: 'conflict' });

      // The content published before the key is live again, and the draft in progress is the draft again.
      expect((await api('GET', `/v2/contents/Doc/${published}`, read)).body.fields.title).toBe('news: published');
      expect(await draftTitle(published)).toBe('news: draft in progress');
      // What was not published before is not published now; the key's new item is gone.
      expect((await api('GET', `/v2/contents/Doc/${unpublishedBefore}`, read)).status).toBe(404);
      expect(await draftTitle(unpublishedBefore)).toBe('embargoed');
      expect((await api('GET', `/v2/contents/Doc/${spamItem}`, read)).status).toBe(404);
      expect(await draftTitle(spamItem)).toBe(404);
      // What the key unpublished is live again.
      expect((await api('GET', `/v2/contents/Doc/${takenDown}`, read)).body.fields.title).toBe('taken down: good');
      // Someone else's later change stays.
      expect((await api('GET', `/v2/contents/Doc/${contested}`, read)).body.fields.title).toBe('contested: fixed by hand');
      // Published lists (typed read model) and as-of lists (published versions) no longer show the spam now, and still show it while it was live.
      const asOf = (time: Date | string) => `?asOf=${encodeURIComponent(new Date(time).toISOString())}`;
      expect(await liveTitles()).toEqual([]);
      expect(await liveTitles('', 'news')).toEqual(['news: published']);
      expect(await liveTitles(asOf(clock.now()))).toEqual([]);
      expect(await liveTitles(asOf(clock.now()), 'news')).toEqual(['news: published']);
      // The past keeps what was live then, except deleted items, which are never listed (docs/api.md).
      expect(await liveTitles(asOf(duringSpam))).toEqual(['SPAM contested', 'SPAM over news']);

      // The history and the versions show the undo, its actor and its reason.
      const entries = await history(published);
      expect(entries.slice(-2)).toEqual([
        expect.objectContaining({ type: 'ContentRestored', actor: 'admin', clientInfo: 'spam key 9' }),
        expect.objectContaining({ type: 'ContentPublished', actor: 'admin', clientInfo: 'spam key 9' }),
      ]);
      const restoredVersion = await api('GET', `/v2/contents/Doc/${published}/versions/${entries.at(-1)!.version}`, read);
      expect(restoredVersion.body).toMatchObject({ stage: 'published', item: { fields: { title: 'news: published' } } });
      expect((await history(unpublishedBefore)).slice(-2).map((entry) => [entry.type, entry.actor, entry.clientInfo])).toEqual([
        ['ContentRestored', 'admin', 'spam key 9'],
        ['ContentUnpublished', 'admin', 'spam key 9'],
      ]);

      // The audit feed lists the undo's events with who and why.
      const audit = await api('GET', `/admin/workspaces/${service.workspaceId}/audit?itemId=${published}`, admin);
      expect(audit.body.items.filter((entry: { actor: string }) => entry.actor === 'admin').map((entry: { type: string; clientInfo: string }) => [entry.type, entry.clientInfo])).toEqual([
        ['ContentRestored', 'spam key 9'],
        ['ContentPublished', 'spam key 9'],
      ]);

      // Running it again changes nothing.
      const again = await undo({ selector: { actor: spammer.actor }, reason: 'again' });
      const againOutcomes = Object.fromEntries(again.body.items.map((item: { itemId: string; outcome: string }) => [item.itemId, item.outcome]));
      expect(againOutcomes).toEqual({ [published]: 'unchanged', [unpublishedBefore]: 'unchanged', [spamItem]: 'unchanged', [takenDown]: 'unchanged', [contested]: 'conflict' });
      expect((await history(published)).length).toBe(entries.length);
    });

    it("reverts one request by the server's id, and a client's X-Request-Id only with its actor: another key sending the same id is not swept in", async () => {
      const other = await issueKey();
      const [first, second, third, othersItem] = [await create('first: good'), await create('second: good'), await create('third: good'), await create('other: good')];
      const importRequest = { ...write, headers: { 'x-request-id': 'bad-import-0042' } };
      const serverIds: string[] = [];
      for (const id of [first, second, third]) {
        const saved = await api('PUT', '/v2/preview-contents/Doc', { ...importRequest, body: { id, fields: { title: 'imported' } } });
        expect(saved.headers.get('x-request-id')).toBe('bad-import-0042');
        serverIds.push(saved.headers.get('x-server-request-id')!);
      }
      expect(new Set(serverIds).size).toBe(3);
      // Another key chooses the same X-Request-Id.
      await api('PUT', '/v2/preview-contents/Doc', { key: other.key, headers: { 'x-request-id': 'bad-import-0042' }, body: { id: othersItem, fields: { title: 'other: changed' } } });

      const byServerId = await undo({ selector: { requestId: serverIds[0] }, dryRun: true });
      expect(byServerId.body.items.map((item: { itemId: string }) => item.itemId)).toEqual([first]);
      // The client's id alone is refused: it would take the other key's change too.
      const alone = await undo({ selector: { correlationId: 'bad-import-0042' }, dryRun: true });
      expect(alone.status).toBe(400);
      expect(alone.body.errors).toEqual([expect.objectContaining({ field: 'selector.correlationId', message: expect.stringContaining('only with actor') })]);
      const writer = (await history(first)).at(-1)!.actor;
      const ofWriter = await undo({ selector: { correlationId: 'bad-import-0042', actor: writer }, dryRun: true });
      expect(ofWriter.body.items.map((item: { itemId: string }) => item.itemId).sort()).toEqual([first, second, third].sort());

      const batch = await undo({ selector: { requestId: serverIds[0] }, reason: 'bad import', itemIds: [first, second] });
      expect(batch.body.items).toEqual([expect.objectContaining({ itemId: first, outcome: 'restored', restoreVersion: 2 })]);
      expect(await draftTitle(first)).toBe('first: good');
      expect(await draftTitle(second)).toBe('imported');
      await undo({ selector: { correlationId: 'bad-import-0042', actor: writer }, reason: 'bad import', itemIds: [second, third, othersItem] });
      expect([await draftTitle(second), await draftTitle(third), await draftTitle(othersItem)]).toEqual(['second: good', 'third: good', 'other: changed']);
    });

    it('selects an event written before the server recorded its own request id by its X-Request-Id, and a newer one only by the server id', async () => {
      const legacy = await create('legacy: good');
      const newer = await create('newer: good');
      // A save as the version before wrote it: the client's request id, no server id.
      const events = service.service.container.resolve(TOKENS.eventStore);
      const metadata = { workspaceId: service.workspaceId, actor: 'admin', correlationId: 'legacy-request-7', timestamp: new Date(clock.now()).toISOString() };
      await events.append(`content-${service.workspaceId}-${legacy}`, [{ type: 'ContentDraftSaved', data: { workspaceId: service.workspaceId, itemId: legacy, contentType: 'Doc', created: false, fields: { title: 'legacy: bad' }, translations: {} }, metadata }], 'any');
      const sent = await api('PUT', '/v2/preview-contents/Doc', { ...write, headers: { 'x-request-id': 'legacy-request-7' }, body: { id: newer, fields: { title: 'newer: bad' } } });
      expect(sent.status).toBe(200);

      const plan = await undo({ selector: { requestId: 'legacy-request-7' }, dryRun: true });
      expect(plan.body.items).toEqual([expect.objectContaining({ itemId: legacy, action: 'restore' })]);
      const byServerId = await undo({ selector: { requestId: sent.headers.get('x-server-request-id') }, dryRun: true });
      expect(byServerId.body.items).toEqual([expect.objectContaining({ itemId: newer, action: 'restore' })]);
      const entries = await history(legacy);
      expect(entries.at(-1)).toMatchObject({ requestId: 'legacy-request-7', serverRequestId: null });
      expect((await history(newer)).at(-1)).toMatchObject({ requestId: 'legacy-request-7', serverRequestId: sent.headers.get('x-server-request-id') });
    });

    it('reverts a time window', async () => {
      const id = await create('morning');
      clock.advance(60_000);
      await api('PUT', '/v2/preview-contents/Doc', { ...write, body: { id, fields: { title: 'noon' } } });
      clock.advance(60_000);
      await api('PUT', '/v2/preview-contents/Doc', { ...write, body: { id, fields: { title: 'evening' } } });
      const entries = await history(id);
      const noon = entries[2]!.at;
      const plan = await undo({ selector: { from: noon }, dryRun: true });
      expect(plan.body.items.find((item: { itemId: string }) => item.itemId === id)).toMatchObject({ firstChange: 3, restoreVersion: 2, action: 'restore' });
      // A window that ends before a later change: that change is outside the selection, a conflict.
      const window = await undo({ selector: { from: noon, to: new Date(Date.parse(noon) + 1).toISOString() }, dryRun: true });
      expect(window.body.items).toEqual([expect.objectContaining({ itemId: id, action: 'conflict', laterChanges: [expect.objectContaining({ version: 4 })] })]);
      const done = await undo({ selector: { from: noon }, reason: 'afternoon edits were wrong' });
      expect(done.body.items).toEqual([expect.objectContaining({ itemId: id, outcome: 'restored' })]);
      expect(await draftTitle(id)).toBe('morning');
    });

    it('reports a restore that the content type no longer allows as failed and goes on', async () => {
      await api('PUT', '/content-types', { ...write, body: { name: 'Strict', key: 'Strict', fields: [{ key: 'text', type: 'Text' }] } });
      const bad = await issueKey();
      const id = (await api('PUT', '/v2/preview-contents/Strict', { ...write, body: { fields: { text: 'ok' } } })).body.id;
      await api('PUT', '/v2/preview-contents/Strict', { key: bad.key, body: { id, fields: { text: 'bad' } } });
      const stricter = { name: 'Strict', key: 'Strict', fields: [{ key: 'text', type: 'Text' }, { key: 'code', type: 'Text', required: true }] };
      expect((await api('PUT', '/content-types?confirmBreakingChanges=true', { ...write, body: stricter })).status).toBe(200);
      const result = await undo({ selector: { actor: bad.actor }, reason: 'cleanup' });
      expect(result.body.items).toEqual([expect.objectContaining({ itemId: id, outcome: 'failed', detail: expect.stringContaining('code') })]);
    });

    it('checks its input: a selector, a reason unless dry run, bounded item lists; admin token only', async () => {
      const noSelector = await undo({ selector: {}, dryRun: true });
      expect(noSelector.status).toBe(400);
      expect(noSelector.body.errors).toEqual([expect.objectContaining({ field: 'selector.actor' })]);
      const noReason = await undo({ selector: { actor: 'key:x' } });
      expect(noReason.status).toBe(400);
      expect(noReason.body.errors).toEqual([expect.objectContaining({ field: 'reason' })]);
      const badTime = await undo({ selector: { from: 'last week' }, dryRun: true });
      expect(badTime.body.errors).toEqual([expect.objectContaining({ field: 'selector.from' })]);
      const tooMany = await undo({ selector: { actor: 'key:x' }, reason: 'r', itemIds: Array.from({ length: 501 }, (_, index) => `item-${index}`) });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.errors).toEqual([expect.objectContaining({ field: 'itemIds' })]);
      expect((await api('POST', undoPath(), { ...write, body: { selector: { actor: 'key:x' }, dryRun: true } })).status).toBe(401);
      expect((await undo({ selector: { actor: 'key:nobody' }, dryRun: true })).body).toEqual({ dryRun: true, items: [] });
      expect((await api('POST', '/admin/workspaces/no-such-workspace/content-undo', { ...admin, body: { selector: { actor: 'key:x' }, dryRun: true } })).status).toBe(404);
    });

    it('runs from the operator CLI: `cms undo` prints the plan with --dry-run, then reverts with a progress bar', async () => {
      const bad = await issueKey();
      const ids = [await create('cli 1'), await create('cli 2'), await create('cli 3')];
      for (const id of ids) await api('PUT', '/v2/preview-contents/Doc', { key: bad.key, body: { id, fields: { title: 'vandalised' } } });
      const published = await create('cli published');
      await api('PUT', '/v2/contents/Doc', { key: bad.key, body: { id: published, fields: { title: 'vandalised and published' } } });
      const cli = async (...argv: string[]) => {
        const captured = captureCliOutput();
        await runCli(['undo', service.workspaceId, '--actor', bad.actor, ...argv, '--url', service.url, '--token', ADMIN_TOKEN], service.environment, captured.output);
        return captured;
      };

      const plan = await cli('--dry-run');
      expect(plan.lines[0]).toMatch(/^ITEM +TYPE +ACTION +PUBLISHED +VERSION +LATER CHANGES BY OTHERS$/);
      expect(plan.lines).toHaveLength(5);
      expect(plan.lines.slice(1)).toEqual(expect.arrayContaining(ids.map((id) => expect.stringMatching(new RegExp(`^${id} +Doc +restore +none +3 -> 2`)))));
      expect(plan.lines).toContainEqual(expect.stringMatching(new RegExp(`^${published} +Doc +restore +publish +4 -> 2`)));
      for (const id of ids) expect(await draftTitle(id)).toBe('vandalised');
      await expect(cli()).rejects.toThrow(/--reason/);
      const correlationAlone = captureCliOutput();
      await expect(runCli(['undo', service.workspaceId, '--correlation', 'x', '--dry-run', '--url', service.url, '--token', ADMIN_TOKEN], service.environment, correlationAlone.output)).rejects.toThrow(
        'undo --correlation needs --actor',
      );

      const done = await cli('--reason', 'vandalism');
      expect(done.lines).toEqual(['restored 4 (1 published again, 0 unpublished), deleted 0, failed 0; left alone: 0 (0 conflicts)']);
      expect(done.drawn()).toContain('undo [');
      expect(done.drawn()).toContain('4/4 items');
      for (const [index, id] of ids.entries()) expect(await draftTitle(id)).toBe(`cli ${index + 1}`);
      expect((await api('GET', `/v2/contents/Doc/${published}`, read)).body.fields.title).toBe('cli published');
    });

    it('shows operators the history of an item whose content type was deleted', async () => {
      await api('PUT', '/content-types', { ...write, body: { name: 'Gone', key: 'Gone', fields: [{ key: 'text', type: 'Text' }] } });
      const id = (await api('PUT', '/v2/contents/Gone', { ...write, body: { fields: { text: 'x' } } })).body.id;
      expect((await api('DELETE', `/v2/contents/Gone/${id}`, write)).status).toBe(200);
      expect((await api('DELETE', '/content-types/Gone', write)).status).toBe(200);
      expect((await api('GET', `/v2/contents/Gone/${id}/history`, read)).status).toBe(404);

      const operator = await api('GET', `/admin/workspaces/${service.workspaceId}/contents/${id}/history`, admin);
      expect(operator.status).toBe(200);
      expect(operator.body.map((entry: { type: string }) => entry.type)).toEqual(['ContentDraftSaved', 'ContentPublished', 'ContentDeleted']);
      expect(operator.body[0]).toMatchObject({ version: 1, contentType: 'Gone', actor: expect.stringMatching(/^key:/), correlationId: expect.any(String) });
      expect((await api('GET', `/admin/workspaces/${service.workspaceId}/contents/nothing/history`, admin)).status).toBe(404);
      expect((await api('GET', `/admin/workspaces/${service.workspaceId}/contents/${id}/history`, read)).status).toBe(401);
    });
  });
}
