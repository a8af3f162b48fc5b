import { randomUUID } from 'node:crypto';
import { client } from '../support/http';
import { ADMIN_TOKEN, type Engine, startTestService, type TestService } from '../support/service';

const authorType = { name: 'Author', key: 'Author', fields: [{ key: 'name', type: 'Text', required: true }] };
const otherType = { name: 'Other', key: 'Other', fields: [{ key: 'name', type: 'Text' }] };
const reviewType = {
  name: 'Review',
  key: 'Review',
  fields: [
    { key: 'title', type: 'Text', required: true, translatable: true },
    { key: 'rating', type: 'Number' },
    { key: 'featured', type: 'Boolean' },
    { key: 'reviewedAt', type: 'DateTime' },
    { key: 'author', type: 'Relation', relationContentType: 'Author' },
    { key: 'related', type: 'Relation' },
    { key: 'cover', type: 'Media', translatable: true },
    { key: 'meta', type: 'Json' },
  ],
};

const MERGE_PATCH = { 'content-type': 'application/merge-patch+json' };
const fieldsOf = (answer: { body: { errors?: { field: string }[] } }) => (answer.body.errors ?? []).map((error) => error.field).sort();

/** Validation of content saves, Relation and Media targets, JSON Merge Patch, and the 409 of a type delete. */
export function describeContentValidation(engine: Engine): void {
  describe(`content validation (${engine})`, () => {
    let service: TestService;
    let api: ReturnType<typeof client>;
    let read: { key: string };
    let write: { key: string };
    let authorId: string;
    let otherId: string;
    let assetId: string;

    beforeAll(async () => {
      service = await startTestService(engine);
      api = client(service.url);
      read = { key: service.readKey };
      write = { key: service.writeKey };
      for (const type of [authorType, otherType, reviewType]) expect((await api('PUT', '/content-types', { ...write, body: type })).status).toBe(200);
      expect((await api('PUT', '/locales', { ...write, body: { code: 'en', default: true } })).status).toBe(200);
      expect((await api('PUT', '/locales', { ...write, body: { code: 'fr' } })).status).toBe(200);
      authorId = (await api('PUT', '/v2/contents/Author', { ...write, body: { fields: { name: 'Ada' } } })).body.id;
      otherId = (await api('PUT', '/v2/preview-contents/Other', { ...write, body: { fields: { name: 'draft only' } } })).body.id;
      assetId = randomUUID();
      const bytes = Buffer.from('cover bytes');
      const chunk = {
        assetId,
        fileUploadId: randomUUID(),
        originalFileName: 'cover.bin',
        chunkIndex: 0,
        chunkSize: bytes.length,
        totalChunkCount: 1,
        chunkByteOffset: 0,
        totalFileSize: bytes.length,
        stream: bytes.toString('base64'),
      };
      const uploaded = await api('POST', '/assets/uploadAsset', { ...write, body: chunk });
      expect(uploaded.status).toBe(202);
      expect(uploaded.body.fileInfo.fileSize).toBe(bytes.length); // assembled: a one-chunk upload answers the stored asset
    }, 90_000);
    afterAll(() => service.close());

    const patch = (path: string, body: unknown, headers: Record<string, string> = MERGE_PATCH) =>
      api('PATCH', path, { ...write, rawBody: JSON.stringify(body), headers });

    describe('every bad field at once', () => {
      const fiveBad = { title: 'x', rating: 'five', featured: 'yes', reviewedAt: 'someday', colour: 'red', author: 'not-an-id' };
      const fiveBadFields = ['fields.author', 'fields.colour', 'fields.featured', 'fields.rating', 'fields.reviewedAt'];

      it.each(['/v2/preview-contents/Review', '/v2/contents/Review'])('lists five bad fields of a V2 body in one 400 (%s)', async (path) => {
        const answer = await api('PUT', path, { ...write, body: { fields: fiveBad } });
        expect(answer.status).toBe(400);
        expect(answer.headers.get('content-type')).toContain('application/problem+json');
        expect(fieldsOf(answer)).toEqual(fiveBadFields);
        expect(answer.body.errors.find((error: { field: string }) => error.field === 'fields.rating').message).toBe('must be a number');
        expect(answer.body.detail).toContain('fields.colour');
      });

      it('lists bad values, bad translations and a missing required field together', async () => {
        const answer = await api('PUT', '/v2/preview-contents/Review', {
          ...write,
          body: { fields: { rating: 'five' }, translations: { title: { xx: 'y', fr: 3 }, rating: { fr: 2 } } },
        });
        expect(fieldsOf(answer)).toEqual(['fields.rating', 'fields.title', 'translations.rating', 'translations.title.fr', 'translations.title.xx']);
      });

      it.each(['/preview-contents/Review', '/contents/Review'])('lists five bad values of a V1 body in one 400 (%s)', async (path) => {
        const fields = Object.entries(fiveBad).map(([key, value]) => ({ key, value }));
        const answer = await api('PUT', path, { ...write, body: { contentType: 'Review', fields } });
        expect(answer.status).toBe(400);
        expect(fieldsOf(answer)).toEqual(fiveBadFields);
      });

      it('lists every structural problem of a V1 body: the content type, a field twice, field types', async () => {
        const fields = [
          { key: 'title', type: 'Number', value: 'x' },
          { key: 'title', value: 'again' },
          { key: 'rating', type: 'Text', value: 1 },
        ];
        const answer = await api('PUT', '/preview-contents/Review', { ...write, body: { contentType: 'Author', fields } });
        expect(answer.status).toBe(400);
        expect(fieldsOf(answer)).toEqual(['contentType', 'fields.0.type', 'fields.1.key', 'fields.2.type']);
      });

      it('lists every field of an encrypt call that is not an encrypted field', async () => {
        const id = (await api('PUT', '/v2/preview-contents/Review', { ...write, body: { fields: { title: 'enc' } } })).body.id;
        const answer = await api('PUT', '/contents/Review/encrypt', { ...write, body: { id, encryptFields: { title: 'a', rating: 'b' } } });
        expect(answer.status).toBe(400);
        expect(fieldsOf(answer)).toEqual(['encryptFields.rating', 'encryptFields.title']);
      });
    });

    describe('Relation and Media values', () => {
      const save = (fields: Record<string, unknown>, translations?: Record<string, unknown>) =>
        api('PUT', '/v2/preview-contents/Review', { ...write, body: { fields: { title: 'r', ...fields }, ...(translations ? { translations } : {}) } });
      const messageOf = (answer: { body: { errors: { field: string; message: string }[] } }, field: string) =>
        answer.body.errors.find((error) => error.field === field)?.message;

      it('refuses values that are not ids of the form the service generates', async () => {
        const answer = await save({ author: 'ada', related: 42, cover: 'https://example.com/cover.png' });
        expect(answer.status).toBe(400);
        expect(fieldsOf(answer)).toEqual(['fields.author', 'fields.cover', 'fields.related']);
        expect(messageOf(answer, 'fields.author')).toBe('must be a content item id (a GUID)');
        expect(messageOf(answer, 'fields.cover')).toBe('must be an asset id (a GUID)');
      });

      it('refuses ids that name nothing in the workspace, naming each field', async () => {
        const missing = randomUUID();
        const answer = await save({ author: missing, related: randomUUID(), cover: missing }, { cover: { fr: randomUUID() } });
        expect(answer.status).toBe(400);
        expect(fieldsOf(answer)).toEqual(['fields.author', 'fields.cover', 'fields.related', 'translations.cover.fr']);
        expect(messageOf(answer, 'fields.author')).toBe(`names no content item of this workspace: ${missing}`);
        expect(messageOf(answer, 'fields.cover')).toBe(`names no asset of this workspace: ${missing}`);
      });

      it('holds a restricted relation to its content type; an unrestricted one takes any item, drafts included', async () => {
        const wrongType = await save({ author: otherId });
        expect(wrongType.status).toBe(400);
        expect(messageOf(wrongType, 'fields.author')).toBe(`must name a Author item; ${otherId} is a Other`);
        const saved = await save({ author: authorId, related: otherId, cover: assetId }, { cover: { fr: assetId } });
        expect(saved.status).toBe(200);
        expect(saved.body.fields).toMatchObject({ author: authorId, related: otherId, cover: assetId });
        // An expanded item object, as a V1 read shows it, is accepted and stored as its id.
        const expanded = await save({ author: { id: authorId, contentType: 'Author', fields: [] } });
        expect(expanded.body.fields.author).toBe(authorId);
      });

      it('refuses an item or an asset of another workspace', async () => {
        const workspace = await api('POST', '/admin/workspaces', { bearer: ADMIN_TOKEN, body: { name: 'Elsewhere' } });
        const key = (await api('POST', `/admin/workspaces/${workspace.body.id}/api-keys`, { bearer: ADMIN_TOKEN, body: { policies: ['ReadAccess', 'WriteAccess'] } })).body.key;
        for (const type of [authorType, reviewType]) expect((await api('PUT', '/content-types', { key, body: type })).status).toBe(200);
        const answer = await api('PUT', '/v2/contents/Review', { key, body: { fields: { title: 'x', author: authorId, cover: assetId } } });
        expect(answer.status).toBe(400);
        expect(fieldsOf(answer)).toEqual(['fields.author', 'fields.cover']);
      });

      it('keeps saving an item whose related item was deleted later; the relation reads as null', async () => {
        const doomed = (await api('PUT', '/v2/contents/Author', { ...write, body: { fields: { name: 'Doomed' } } })).body.id;
        const review = (await api('PUT', '/v2/contents/Review', { ...write, body: { fields: { title: 'held', author: doomed } } })).body.id;
        expect((await api('DELETE', `/v2/contents/Author/${doomed}`, write)).status).toBe(200);

        const expanded = await api('POST', '/v2/contents/Review', { ...read, body: { filter: { type: 'condition', fieldKey: 'id', operator: 'e', value: review }, includeRelations: ['author'] } });
        expect(expanded.body.items[0].fields.author).toBeNull();
        const again = await api('PUT', '/v2/contents/Review', { ...write, body: { id: review, fields: { title: 'held, edited', author: doomed } } });
        expect(again.status).toBe(200);
        expect((await patch(`/v2/contents/Review/${review}`, { fields: { rating: 3 } })).status).toBe(200);
        // A newly written dangling target is still refused.
        const other = (await api('PUT', '/v2/contents/Review', { ...write, body: { fields: { title: 'new' } } })).body.id;
        expect((await api('PUT', '/v2/contents/Review', { ...write, body: { id: other, fields: { title: 'new', author: doomed } } })).status).toBe(400);
      });
    });

    describe('PATCH with JSON Merge Patch', () => {
      it('merges into the draft: members replace, null removes, Json values merge, translations merge', async () => {
        const created = await api('PUT', '/v2/preview-contents/Review', {
          ...write,
          body: { fields: { title: 'Base', rating: 2, featured: true, meta: { tags: ['a'], source: { name: 'x', page: 4 } } }, translations: { title: { fr: 'Base fr' } } },
        });
        const id = created.body.id;
        const answer = await patch(`/v2/preview-contents/Review/${id}`, {
          fields: { rating: 5, featured: null, meta: { tags: ['b'], source: { page: null } } },
          translations: { title: { en: 'Base en' } },
          clientInfo: 'patcher',
        });
        expect(answer.status).toBe(200);
        const expected = { id, fields: { title: 'Base', rating: 5, meta: { tags: ['b'], source: { name: 'x' } } }, translations: { title: { fr: 'Base fr', en: 'Base en' } } };
        expect(answer.body).toEqual(expected);
        expect((await api('GET', `/v2/preview-contents/Review/${id}`, read)).body).toEqual(expected);
        expect((await api('GET', `/v2/contents/Review/${id}`, read)).status).toBe(404);

        const history = (await api('GET', `/v2/contents/Review/${id}/history`, read)).body;
        expect(history.map((entry: { type: string; clientInfo: string | null }) => [entry.type, entry.clientInfo])).toEqual([
          ['ContentDraftSaved', null],
          ['ContentDraftSaved', 'patcher'],
        ]);
      });

      it('on the published path merges into the published version and publishes the result, as a PUT there does', async () => {
        const id = (await api('PUT', '/v2/contents/Review', { ...write, body: { fields: { title: 'Live', rating: 1 } } })).body.id;
        await api('PUT', '/v2/preview-contents/Review', { ...write, body: { id, fields: { title: 'Unpublished edit', rating: 1 } } });
        const answer = await patch(`/v2/contents/Review/${id}`, { fields: { rating: 4 } });
        expect(answer.status).toBe(200);
        expect(answer.body.fields).toEqual({ title: 'Live', rating: 4 });
        expect((await api('GET', `/v2/contents/Review/${id}`, read)).body.fields).toEqual({ title: 'Live', rating: 4 });
        expect((await api('GET', `/v2/preview-contents/Review/${id}`, read)).body.fields).toEqual({ title: 'Live', rating: 4 });
        const types = (await api('GET', `/v2/contents/Review/${id}/history`, read)).body.map((entry: { type: string }) => entry.type);
        expect(types.slice(-2)).toEqual(['ContentDraftSaved', 'ContentPublished']);
      });

      it('validates the merged item like a PUT, listing every bad field', async () => {
        const id = (await api('PUT', '/v2/preview-contents/Review', { ...write, body: { fields: { title: 'Valid' } } })).body.id;
        const answer = await patch(`/v2/preview-contents/Review/${id}`, { fields: { title: null, rating: 'high', author: randomUUID() } });
        expect(answer.status).toBe(400);
        expect(fieldsOf(answer)).toEqual(['fields.author', 'fields.rating', 'fields.title']);
        expect((await api('GET', `/v2/preview-contents/Review/${id}`, read)).body.fields).toEqual({ title: 'Valid' });
      });

      it('answers 415 with Accept-Patch for another media type, 404 without the item or its stage, 400 for a foreign id or member', async () => {
        const id = (await api('PUT', '/v2/preview-contents/Review', { ...write, body: { fields: { title: 'Draft' } } })).body.id;
        const plainJson = await patch(`/v2/preview-contents/Review/${id}`, { fields: { rating: 1 } }, { 'content-type': 'application/json' });
        expect(plainJson.status).toBe(415);
        expect(plainJson.headers.get('accept-patch')).toBe('application/merge-patch+json');
        expect((await patch(`/v2/contents/Review/${id}`, { fields: { rating: 1 } })).status).toBe(404);
        expect((await patch(`/v2/preview-contents/Review/${randomUUID()}`, { fields: { rating: 1 } })).status).toBe(404);
        expect((await patch(`/v2/preview-contents/Author/${id}`, { fields: { name: 'x' } })).status).toBe(404);
        const foreignId = await patch(`/v2/preview-contents/Review/${id}`, { id: randomUUID(), fields: {} });
        expect(foreignId.status).toBe(400);
        expect(fieldsOf(foreignId)).toEqual(['id']);
        expect((await patch(`/v2/preview-contents/Review/${id}`, { fields: {}, colour: 'red' })).status).toBe(400);
        expect((await patch(`/v2/preview-contents/Review/${id}`, [{ op: 'replace' }])).status).toBe(400);
        const deep = '{"fields":{"meta":' + '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000) + '}}';
        const tooDeep = await api('PATCH', `/v2/preview-contents/Review/${id}`, { ...write, rawBody: deep, headers: MERGE_PATCH });
        // Every JSON body is bounded at 64 levels before a route sees it; the answer names where it went too deep.
        expect(tooDeep.status).toBe(400);
        expect(fieldsOf(tooDeep)[0]).toMatch(/^fields\.meta(\.a)+/);
        expect((await api('PATCH', `/v2/preview-contents/Review/${id}`, { ...read, rawBody: '{}', headers: MERGE_PATCH })).status).toBe(403);
      });
    });

    it('answers a type delete with the number of items, not of their draft and published copies', async () => {
      const type = { name: 'Counted', key: 'Counted', fields: [{ key: 'n', type: 'Number' }] };
      expect((await api('PUT', '/content-types', { ...write, body: type })).status).toBe(200);
      await api('PUT', '/v2/preview-contents/Counted', { ...write, body: { fields: { n: 1 } } }); // a draft only
      await api('PUT', '/v2/contents/Counted', { ...write, body: { fields: { n: 2 } } }); // draft and published
      await api('PUT', '/v2/contents/Counted', { ...write, body: { fields: { n: 3 } } });
      const publishedOnly = (await api('PUT', '/v2/contents/Counted', { ...write, body: { fields: { n: 4 } } })).body.id;
      expect((await api('DELETE', `/v2/preview-contents/Counted/${publishedOnly}`, write)).status).toBe(200);
      const unpublished = (await api('PUT', '/v2/contents/Counted', { ...write, body: { fields: { n: 5 } } })).body.id;
      expect((await api('PUT', `/v2/contents/Counted/${unpublished}/unpublish`, write)).status).toBe(200);

      const answer = await api('DELETE', '/content-types/Counted', write);
      expect(answer.status).toBe(409);
      expect(answer.body.detail).toBe('content type Counted still has 5 content item(s); delete them first');
    });
  });
}
