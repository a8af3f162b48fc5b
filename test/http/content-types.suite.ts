import { client } from '../support/http';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';

const article = {
  name: 'Article',
  key: 'Article',
  icon: 'file-text',
  groupName: 'Editorial',
  fieldTitleKey: 'title',
  sortIndex: 2,
  fields: [
    { key: 'title', type: 'Text', name: 'Title', required: true, translatable: true, sortIndex: 0 },
    { key: 'body', type: 'RichText', name: 'Body', required: false, translatable: true, sortIndex: 1 },
    { key: 'published', type: 'DateTime', name: 'Published', sortIndex: 2 },
    { key: 'author', type: 'Relation', name: 'Author', relationContentType: 'Author', sortIndex: 3 },
  ],
  actions: [
    { id: 'translate', name: 'Translate', url: 'https://actions.example.com/translate', useCallback: true, payloadMode: 'FullEntity', headers: { 'x-team': 'content' } },
    { id: 'preview', name: 'Preview', url: 'https://preview.example.com/hook', payloadMode: 'None', navigateUrl: 'https://site.example.com/{{id}}' },
  ],
};

/** The type Article's relation names. */
const author = { name: 'Author', key: 'Author', fields: [{ key: 'name', type: 'Text' }] };

export function describeContentTypes(engine: Engine): void {
  describe(`content types (${engine})`, () => {
    let service: TestService;
    let api: ReturnType<typeof client>;
    let read: { key: string };
    let write: { key: string };

    beforeAll(async () => {
      service = await startTestService(engine);
      api = client(service.url);
      read = { key: service.readKey };
      write = { key: service.writeKey };
      expect((await api('PUT', '/content-types', { ...write, body: author })).status).toBe(200);
    });
    afterAll(() => service.close());

    it('creates a content type with defaults filled in and reads it back at once', async () => {
      const saved = await api('PUT', '/content-types', { ...write, body: article });
      expect(saved.status).toBe(200);
      const withHiddenHeaders = { ...article, actions: article.actions.map((action) => ({ ...action, ...('headers' in action ? { headers: { 'x-team': '(hidden)' } } : {}) })) };
      expect(saved.body).toMatchObject({ ...withHiddenHeaders, id: expect.stringMatching(/^[0-9a-f-]{36}$/), versioningDisabled: false });
      expect(saved.body.actions[0]).toMatchObject({ method: 'POST', navigateUrl: null, customTemplate: null });
      expect(saved.body.actions[1]).toMatchObject({ method: 'GET', useCallback: false, headers: {} });
      expect(saved.body.fields[2]).toMatchObject({ required: false, translatable: false, relationContentType: null });

      const fetched = await api('GET', '/content-types/Article', read);
      expect(fetched.status).toBe(200);
      expect(fetched.body).toEqual(saved.body);
    });

    it('updates by key, keeping the id and the creation time', async () => {
      const first = await api('PUT', '/content-types', { ...write, body: { ...article, key: 'Page', name: 'Page' } });
      const second = await api('PUT', '/content-types', { ...write, body: { ...article, key: 'Page', name: 'Web page', id: null, versioningDisabled: true } });
      expect(second.status).toBe(200);
      expect(second.body.id).toBe(first.body.id);
      expect(second.body.createdAt).toBe(first.body.createdAt);
      expect(second.body).toMatchObject({ name: 'Web page', versioningDisabled: true });
      expect((await api('GET', '/content-types/Page', read)).body.name).toBe('Web page');
    });

    it('lists the workspace types ordered by sortIndex then key', async () => {
      for (const [key, sortIndex] of [['Zeta', 0], ['Alpha', 0], ['Late', 9]] as const) {
        await api('PUT', '/content-types', { ...write, body: { name: key, key, sortIndex, fields: [] } });
      }
      const listed = await api('GET', '/content-types', read);
      expect(listed.status).toBe(200);
      const keys = listed.body.map((type: { key: string }) => type.key);
      const ordered = [...listed.body].sort((a, b) => a.sortIndex - b.sortIndex || (a.key < b.key ? -1 : 1)).map((type) => type.key);
      expect(keys).toEqual(ordered);
      expect(keys).toEqual(expect.arrayContaining(['Alpha', 'Zeta', 'Late', 'Article']));
    });

    it.each([
      ['name missing', { ...article, name: undefined }, 'name'],
      ['key missing', { ...article, key: undefined }, 'key'],
      ['fields missing', { ...article, fields: undefined }, 'fields'],
      ['key not alphanumeric', { ...article, key: 'my-type' }, 'key'],
      ['unknown field type', { ...article, fields: [{ key: 'x', type: 'Hologram' }] }, 'fields.0.type'],
      ['duplicate field key', { ...article, fields: [{ key: 'x', type: 'Text' }, { key: 'x', type: 'Number' }] }, 'fields.1.key'],
      ['fieldTitleKey naming no field', { ...article, fieldTitleKey: 'nothing' }, 'fieldTitleKey'],
      ['sortIndex not an integer', { ...article, sortIndex: 'first' }, 'sortIndex'],
      ['action without url', { ...article, actions: [{ id: 'a', payloadMode: 'IdOnly' }] }, 'actions.0.url'],
      ['action with an unknown payload mode', { ...article, actions: [{ id: 'a', url: 'https://x.example.com', payloadMode: 'Everything' }] }, 'actions.0.payloadMode'],
      ['custom template missing', { ...article, actions: [{ id: 'a', url: 'https://x.example.com', payloadMode: 'CustomTemplate' }] }, 'actions.customTemplate'],
      ['duplicate action id', { ...article, actions: [{ id: 'a', url: 'https://x.example.com' }, { id: 'a', url: 'https://y.example.com' }] }, 'actions.1.id'],
    ])('answers 400 naming the field: %s', async (_case, body, field) => {
      const answer = await api('PUT', '/content-types', { ...write, body });
      expect(answer.status).toBe(400);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
      expect(answer.body.errors.map((error: { field: string }) => error.field)).toContainEqual(expect.stringContaining(field.split('.').pop()!));
    });

    it('refuses members a definition does not take, naming each, where they were silently dropped before', async () => {
      const fields = [
        { key: 'title', type: 'Text', validation: { max: 5 } },
        { key: 'slug', type: 'Text', Required: true, displayWidth: 2 },
      ];
      const answer = await api('PUT', '/content-types', { ...write, body: { name: 'Strict', key: 'Strict', fields, colour: 'red' } });
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([
        { field: 'fields.0.validation', message: expect.stringMatching(/^is not accepted here: send only key, type, name, required, .*, unique, default, min, max, /) },
        { field: 'fields.1.Required', message: expect.stringMatching(/^is not accepted here: did you mean required\? /) },
        { field: 'fields.1.displayWidth', message: expect.stringMatching(/^is not accepted here: send only key, /) },
        { field: 'colour', message: expect.stringMatching(/^is not accepted here: send only name, key, /) },
      ]);
      expect((await api('GET', '/content-types/Strict', read)).status).toBe(404);
      // A type sent back as GET answered it (id, createdAt, updatedAt included) saves unchanged.
      const saved = (await api('PUT', '/content-types', { ...write, body: { name: 'Strict', key: 'Strict', fields: [{ key: 'title', type: 'Text' }] } })).body;
      const again = await api('PUT', '/content-types', { ...write, body: saved });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ ...saved, updatedAt: again.body.updatedAt });
    });

    it('refuses a relationContentType naming no type of the workspace, every such field at once; the type itself may be named', async () => {
      const fields = [
        { key: 'writer', type: 'Relation', relationContentType: 'Writer' },
        { key: 'parent', type: 'Relation', relationContentType: 'Chapter' },
        { key: 'editor', type: 'Relation', relationContentType: 'Writer' },
        { key: 'author', type: 'Relation', relationContentType: 'Author' },
      ];
      const answer = await api('PUT', '/content-types', { ...write, body: { name: 'Chapter', key: 'Chapter', fields } });
      expect(answer.status).toBe(400);
      expect(answer.body.errors).toEqual([
        { field: 'fields.0.relationContentType', message: 'names no content type of this workspace: Writer' },
        { field: 'fields.2.relationContentType', message: 'names no content type of this workspace: Writer' },
      ]);
      expect((await api('PUT', '/content-types', { ...write, body: { name: 'Chapter', key: 'Chapter', fields: fields.filter((field) => field.relationContentType !== 'Writer') } })).status).toBe(200);
    });

    it('answers 404 for an unknown key, and deletes a type (then 404)', async () => {
      expect((await api('GET', '/content-types/Nothing', read)).status).toBe(404);
      await api('PUT', '/content-types', { ...write, body: { name: 'Temp', key: 'Temp', fields: [] } });
      const deleted = await api('DELETE', '/content-types/Temp', write);
      expect(deleted.status).toBe(200);
      expect((await api('GET', '/content-types/Temp', read)).status).toBe(404);
      expect((await api('DELETE', '/content-types/Temp', write)).status).toBe(404);
    });

    it('answers 409 while the type still has content items, and deletes it once they are gone', async () => {
      await api('PUT', '/content-types', { ...write, body: { name: 'Busy', key: 'Busy', fields: [{ key: 'title', type: 'Text' }] } });
      const item = await api('PUT', '/v2/preview-contents/Busy', { ...write, body: { fields: { title: 'still here' } } });
      const refused = await api('DELETE', '/content-types/Busy', write);
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toContain('1 content item');
      expect((await api('GET', '/content-types/Busy', read)).status).toBe(200);
      expect((await api('DELETE', `/preview-contents/Busy/${item.body.id}`, write)).status).toBe(200);
      expect((await api('DELETE', '/content-types/Busy', write)).status).toBe(200);
    });

    it('a deleted key can be created again, with a new id', async () => {
      const first = await api('PUT', '/content-types', { ...write, body: { name: 'Again', key: 'Again', fields: [] } });
      await api('DELETE', '/content-types/Again', write);
      const second = await api('PUT', '/content-types', { ...write, body: { name: 'Again', key: 'Again', fields: [] } });
      expect(second.status).toBe(200);
      expect(second.body.id).not.toBe(first.body.id);
    });

    it('enforces the policies: 401 without a key, 403 for reads with a write key and writes with a read key', async () => {
      expect((await api('GET', '/content-types')).status).toBe(401);
      expect((await api('GET', '/content-types', { key: 'cms_0123' })).status).toBe(401);
      expect((await api('GET', '/content-types', write)).status).toBe(403);
      expect((await api('PUT', '/content-types', { ...read, body: article })).status).toBe(403);
      expect((await api('DELETE', '/content-types/Article', read)).status).toBe(403);
      expect((await api('GET', '/content-types/Article', { bearer: service.readKey })).status).toBe(200);
      expect((await api('PUT', '/content-types', { bearer: service.writeKey, body: article })).status).toBe(200);
    });

    it('isolates workspaces: another workspace neither sees nor collides with these types', async () => {
      const other = await api('POST', '/admin/workspaces', { bearer: ADMIN_TOKEN, body: { name: 'Other' } });
      const key = (await api('POST', `/admin/workspaces/${other.body.id}/api-keys`, { bearer: ADMIN_TOKEN, body: { policies: ['ReadAccess', 'WriteAccess'] } })).body.key;
      expect((await api('GET', '/content-types', { key })).body).toEqual([]);
      expect((await api('GET', '/content-types/Article', { key })).status).toBe(404);
      // Relation targets are looked up in the workspace saving the type: Author exists only in the other one.
      const withoutTarget = await api('PUT', '/content-types', { key, body: { ...article, name: 'Their article' } });
      expect(withoutTarget.body.errors).toEqual([{ field: 'fields.3.relationContentType', message: 'names no content type of this workspace: Author' }]);
      expect((await api('PUT', '/content-types', { key, body: author })).status).toBe(200);
      const own = await api('PUT', '/content-types', { key, body: { ...article, name: 'Their article' } });
      expect(own.status).toBe(200);
      expect((await api('GET', '/content-types/Article', read)).body.name).toBe('Article');
      expect((await api('DELETE', '/content-types/Article', { key })).status).toBe(200);
      expect((await api('GET', '/content-types/Article', read)).status).toBe(200);
    });
  });
}
