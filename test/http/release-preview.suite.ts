import { client } from '../support/http';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';

const docType = { name: 'Doc', key: 'Doc', fields: [{ key: 'title', type: 'Text' }] };
const cardType = { name: 'Card', key: 'Card', fields: [{ key: 'title', type: 'Text' }, { key: 'link', type: 'Relation' }] };
const productType = {
  name: 'Product',
  key: 'Product',
  fields: [
    { key: 'title', type: 'Text' },
    { key: 'price', type: 'Number' },
    { key: 'category', type: 'Text' },
  ],
};

/** Preview of a release (issue 32, item 2): published reads answered as an Open release will leave them. */
export function describeReleasePreview(engine: Engine): void {
  describe(`release preview (${engine})`, () => {
    let service: TestService;
    let api: ReturnType<typeof client>;
    let read: { key: string };
    let write: { key: string };
    const put = async (path: string, body: object) => {
      const answer = await api('PUT', path, { ...write, body });
      expect(answer.status).toBe(200);
      return answer.body.id as string;
    };
    const createRelease = async (name: string, items: object[]) => {
      const created = await api('POST', '/v2/releases', { ...write, body: { name } });
      expect(created.status).toBe(201);
      expect((await api('POST', `/v2/releases/${created.body.id}/items`, { ...write, body: { items } })).status).toBe(200);
      return created.body.id as string;
    };
    const item = (id: string, release?: string) => api('GET', `/v2/contents/Doc/${id}${release ? `?release=${release}` : ''}`, read);

    beforeAll(async () => {
      service = await startTestService(engine);
      api = client(service.url);
      read = { key: service.readKey };
      write = { key: service.writeKey };
      for (const type of [docType, productType]) expect((await api('PUT', '/content-types', { ...write, body: type })).status).toBe(200);
    });
    afterAll(() => service.close());

    it('answers an item as the release will publish it, the same as the publish then does, while the published read is unchanged', async () => {
      const a = await put('/v2/contents/Doc', { fields: { title: 'A live' } });
      await put('/v2/preview-contents/Doc', { id: a, fields: { title: 'A next' } });
      const b = await put('/v2/contents/Doc', { fields: { title: 'B live' } });
      const c = await put('/v2/preview-contents/Doc', { fields: { title: 'C new' } });
      const d = await put('/v2/contents/Doc', { fields: { title: 'D untouched' } });
      const releaseId = await createRelease('campaign', [
        { itemId: a, contentType: 'Doc', action: 'publish' },
        { itemId: b, contentType: 'Doc', action: 'unpublish' },
        { itemId: c, contentType: 'Doc', action: 'publish' },
      ]);

      const previews = await Promise.all([a, b, c, d].map((id) => item(id, releaseId)));
      expect(previews.map((answer) => answer.status)).toEqual([200, 404, 200, 200]);
      expect(previews.map((answer) => answer.body.fields?.title)).toEqual(['A next', undefined, 'C new', 'D untouched']);
      for (const answer of previews) expect(answer.headers.get('release-preview')).toBe(releaseId);
      expect(previews[0]!.headers.get('cache-control')).toBe('no-store');
      const before = await Promise.all([a, b, c, d].map((id) => item(id)));
      expect(before.map((answer) => answer.body.fields?.title ?? answer.status)).toEqual(['A live', 'B live', 404, 'D untouched']);
      expect(before[0]!.headers.get('release-preview')).toBeNull();

      const withMeta = await api('GET', `/v2/contents/Doc/${a}?release=${releaseId}&meta=true`, read);

      expect((await api('POST', `/v2/releases/${releaseId}/publish`, write)).status).toBe(200);
      const after = await Promise.all([a, b, c, d].map((id) => item(id)));
      expect(after.map((answer) => [answer.status, answer.status === 200 ? answer.body : null])).toEqual(previews.map((answer) => [answer.status, answer.status === 200 ? answer.body : null]));

      // Its times are the preview's and the publish's; the rest of its sys is the same.
      const published = (await api('GET', `/v2/contents/Doc/${a}?meta=true`, read)).body.sys;
      expect(withMeta.body.sys).toEqual({ ...published, publishedAt: expect.any(String), updatedAt: expect.any(String) });
      expect(published).toMatchObject({ stage: 'published', version: 4 });

      const closed = await item(a, releaseId);
      expect(closed.status).toBe(409);
      expect(closed.body.detail).toMatch(/is Published/);
    });

    it('answers lists, filters, pages, ids and aggregates as the publish then does, answer for answer', async () => {
      const product = (title: string, price: number, category: string) => ({ fields: { title, price, category } });
      const changed = await put('/v2/contents/Product', product('Alpha', 10, 'a'));
      await put('/v2/preview-contents/Product', { id: changed, ...product('Alpha', 30, 'b') });
      const unpublished = await put('/v2/contents/Product', product('Bravo', 25, 'a'));
      const fresh = await put('/v2/preview-contents/Product', product('charlie', 5.5, 'b'));
      for (const [title, price, category] of [['Delta', 0.1, 'a'], ['echo', 0.2, 'b'], ['Foxtrot', 40, 'c'], ['Golf', 12.25, 'a']] as const) await put('/v2/contents/Product', product(title, price, category));
      const releaseId = await createRelease('prices', [
        { itemId: changed, contentType: 'Product', action: 'publish' },
        { itemId: unpublished, contentType: 'Product', action: 'unpublish' },
        { itemId: fresh, contentType: 'Product', action: 'publish' },
      ]);

      const above20 = { type: 'condition', fieldKey: 'price', operator: 'gt', value: 20 };
      const byPrice = { fieldKey: 'price', sortDir: 'Asc' };
      const queries: [string, string, object][] = [
        ['POST', '/v2/contents/Product', { pageSize: 20 }],
        ['POST', '/v2/contents/Product', { filter: above20, order: byPrice }],
        ['POST', '/v2/contents/Product', { order: { fieldKey: 'title', sortDir: 'Desc' } }],
        ['GET', '/v2/contents/Product', { order: JSON.stringify(byPrice) }],
        // Pages of two across the merge of the store's items and the release's.
        ...[1, 2, 3, 4].map((page): [string, string, object] => ['POST', '/v2/contents/Product', { order: byPrice, page, pageSize: 2 }]),
        ['POST', '/v2/contents/Product/ids', { filter: above20 }],
        ['POST', '/v2/contents/Product/ids', { order: byPrice, page: 2, pageSize: 3 }],
        ...['Count', 'Sum', 'Avg', 'Min', 'Max'].map((aggregateType): [string, string, object] => ['POST', '/v2/contents/Product/aggregate', { fieldKey: 'price', aggregateType }]),
        ['GET', '/v2/contents/Product/aggregate', { fieldKey: 'price', aggregateType: 'Avg', filter: JSON.stringify({ type: 'condition', fieldKey: 'category', operator: 'ne', value: 'c' }) }],
        ['POST', '/v2/contents/Product/aggregategroup', { fieldKey: 'price', aggregateType: 'Avg', groupByFieldKey: 'category' }],
        ['POST', '/v2/contents/Product/aggregategroup', { fieldKey: 'price', aggregateType: 'Count', groupByFieldKey: 'category', filter: above20 }],
      ];
      const ask = (method: string, path: string, body: object, release?: string) => {
        if (method === 'GET') return api('GET', `${path}?${new URLSearchParams({ ...(body as Record<string, string>), ...(release ? { release } : {}) })}`, read);
        return api('POST', `${path}${release ? `?release=${release}` : ''}`, { ...read, body });
      };
      const answers = async (release?: string) => {
        const all = await Promise.all(queries.map(([method, path, body]) => ask(method, path, body, release)));
        for (const answer of all) expect(answer.status).toBe(200);
        return all;
      };

      const before = await answers();
      const previewed = await answers(releaseId);
      for (const answer of previewed) expect([answer.headers.get('release-preview'), answer.headers.get('cache-control')]).toEqual([releaseId, 'no-store']);
      const titles = (answer: { body: { items: { fields: { title: string } }[] } }) => answer.body.items.map((item) => item.fields.title);
      // The preview is not the published answer: the changed price, the unpublished and the new item show.
      expect(titles(previewed[1]!)).toEqual(['Alpha', 'Foxtrot']);
      expect(titles(before[1]!)).toEqual(['Bravo', 'Foxtrot']);
      expect(previewed.slice(4, 8).map(titles)).toEqual([['Delta', 'echo'], ['charlie', 'Golf'], ['Alpha', 'Foxtrot'], []]);
      expect(previewed[0]!.body.total).toBe(6);
      expect(previewed[12]!.body.value).toBe(14.675);

      expect((await api('POST', `/v2/releases/${releaseId}/publish`, write)).status).toBe(200);
      const after = await answers();
      for (const [i, [method, path, body]] of queries.entries()) expect({ method, path, body, answer: previewed[i]!.body }).toEqual({ method, path, body, answer: after[i]!.body });
      const closed = await ask('POST', '/v2/contents/Product/aggregate', { fieldKey: 'price', aggregateType: 'Sum' }, releaseId);
      expect([closed.status, closed.body.detail]).toEqual([409, `release ${releaseId} is Published: only an Open release is previewed`]);
    });

    it('expands relations of a previewed list as the release leaves their targets', async () => {
      expect((await api('PUT', '/content-types', { ...write, body: cardType })).status).toBe(200);
      const target = await put('/v2/contents/Doc', { fields: { title: 'target live' } });
      await put('/v2/preview-contents/Doc', { id: target, fields: { title: 'target next' } });
      await put('/v2/contents/Card', { fields: { title: 'card', link: target } });
      const releaseId = await createRelease('relations', [{ itemId: target, contentType: 'Doc', action: 'publish' }]);
      const expanded = (release?: string) => api('POST', `/v2/contents/Card${release ? `?release=${release}` : ''}`, { ...read, body: { includeRelations: ['link'] } });

      const previewed = await expanded(releaseId);
      expect(JSON.stringify(previewed.body.items)).toContain('target next');
      expect(JSON.stringify((await expanded()).body.items)).toContain('target live');
      expect((await api('POST', `/v2/releases/${releaseId}/publish`, write)).status).toBe(200);
      expect((await expanded()).body).toEqual(previewed.body);
    });

    it('answers 409 naming the item when the publish would refuse its entry, on the item and on lists', async () => {
      const e = await put('/v2/contents/Doc', { fields: { title: 'E live' } });
      await put('/v2/preview-contents/Doc', { id: e, fields: { title: 'E next' } });
      const releaseId = await createRelease('stale', [{ itemId: e, contentType: 'Doc', action: 'publish' }]);
      expect((await item(e, releaseId)).body.fields.title).toBe('E next');
      await put('/v2/preview-contents/Doc', { id: e, fields: { title: 'E edited after' } });
      const refused = await item(e, releaseId);
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toContain(`content item ${e} changed since it was added`);
      for (const path of ['/v2/contents/Doc', '/v2/contents/Doc/ids']) {
        const list = await api('POST', `${path}?release=${releaseId}`, { ...read, body: {} });
        expect([path, list.status, list.headers.get('cache-control')]).toEqual([path, 409, 'no-store']);
        expect(list.body.detail).toContain(`content item ${e} changed since it was added`);
      }
    });

    it('finds no release of another workspace, on items, lists, ids and aggregates; refuses a release parameter that is no release id, beside asOf, or on drafts', async () => {
      const f = await put('/v2/preview-contents/Doc', { fields: { title: 'F new' } });
      const releaseId = await createRelease('ours', [{ itemId: f, contentType: 'Doc', action: 'publish' }]);
      const admin = { bearer: ADMIN_TOKEN };
      const workspace = await api('POST', '/admin/workspaces', { ...admin, body: { name: 'Elsewhere' } });
      expect(workspace.status).toBe(201);
      const issued = await api('POST', `/admin/workspaces/${workspace.body.id}/api-keys`, { ...admin, body: { name: 'both', policies: ['ReadAccess', 'WriteAccess'] } });
      const other = { key: issued.body.key as string };
      expect((await api('PUT', '/content-types', { ...other, body: docType })).status).toBe(200);
      const theirs = await api('PUT', '/v2/contents/Doc', { ...other, body: { fields: { title: 'theirs' } } });

      const foreign = await api('GET', `/v2/contents/Doc/${theirs.body.id}?release=${releaseId}`, other);
      expect(foreign.status).toBe(404);
      expect(foreign.body.detail).toBe(`release ${releaseId} does not exist`);
      const aggregate = { fieldKey: 'title', aggregateType: 'Count' };
      for (const [path, body] of [['/v2/contents/Doc', {}], ['/v2/contents/Doc/ids', {}], ['/v2/contents/Doc/aggregate', aggregate]] as const) {
        const posted = await api('POST', `${path}?release=${releaseId}`, { ...other, body });
        const got = await api('GET', `${path}?${new URLSearchParams({ ...body, release: releaseId })}`, other);
        for (const [method, answer] of [['POST', posted], ['GET', got]] as const) expect([method, path, answer.status, answer.body.detail]).toEqual([method, path, 404, `release ${releaseId} does not exist`]);
      }
      const listMalformed = await api('GET', '/v2/contents/Doc/ids?release=nope', read);
      expect([listMalformed.status, listMalformed.body.errors]).toEqual([400, [expect.objectContaining({ field: 'release' })]]);
      const withAsOf = await api('POST', `/v2/contents/Doc?release=${releaseId}&asOf=${new Date().toISOString()}`, { ...read, body: {} });
      expect([withAsOf.status, withAsOf.body.errors]).toEqual([400, [expect.objectContaining({ field: 'release' })]]);
      const onDrafts = await api('POST', `/v2/preview-contents/Doc?release=${releaseId}`, { ...read, body: {} });
      expect([onDrafts.status, onDrafts.body.errors]).toEqual([400, [expect.objectContaining({ field: 'release' })]]);
      const malformed = await item(f, 'not-a-release');
      expect(malformed.status).toBe(400);
      expect(malformed.body.errors).toEqual([expect.objectContaining({ field: 'release' })]);
    });
  });
}
