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

    describe('field rules', () => {
      const productType = {
        name: 'Product',
        key: 'Product',
        fields: [
          { key: 'sku', type: 'Text', required: true, unique: true, pattern: '^[A-Z]{3}-[0-9]{4}$' },
          { key: 'name', type: 'Text', minLength: 2, maxLength: 20, translatable: true },
          { key: 'price', type: 'Number', min: 0, max: 1000 },
          { key: 'size', type: 'Text', enum: ['S', 'M', 'L'] },
          { key: 'launch', type: 'DateTime', min: '2020-01-01', max: '2030-12-31T23:59:59+01:00' },
          { key: 'status', type: 'Text', default: 'draft', enum: ['draft', 'ready'] },
          { key: 'stock', type: 'Number', default: 0 },
          { key: 'slug', type: 'Text', pattern: '^(a|aa)+$' },
        ],
      };
      const save = (fields: Record<string, unknown>, path = '/v2/preview-contents/Product', id?: string) => api('PUT', path, { ...write, body: { ...(id ? { id } : {}), fields } });
      const messages = (answer: { body: { errors?: { field: string; message: string }[] } }) => Object.fromEntries((answer.body.errors ?? []).map((error) => [error.field, error.message]));

      beforeAll(async () => {
        expect((await api('PUT', '/content-types', { ...write, body: productType })).status).toBe(200);
      });

      it('shows the rules as saved, bounds of date-times in their stored form', async () => {
        const fields = (await api('GET', '/content-types/Product', read)).body.fields;
        expect(fields[0]).toMatchObject({ unique: true, pattern: '^[A-Z]{3}-[0-9]{4}$' });
        expect(fields[4]).toMatchObject({ min: '2020-01-01T00:00:00.000Z', max: '2030-12-31T22:59:59.000Z' });
        expect(fields[3]).not.toHaveProperty('unique');
      });

      it('refuses rules that do not fit their field, listing every one', async () => {
        const fields = [
          { key: 'a', type: 'Text', min: 3 },
          { key: 'b', type: 'Number', min: 5, max: 1 },
          { key: 'c', type: 'Text', pattern: '(unclosed' },
          { key: 'd', type: 'Text', pattern: '(a|b){40}c' },
          { key: 'e', type: 'Text', pattern: '[ab]{40}' },
          { key: 'f', type: 'Text', enum: ['x', 'x'] },
          { key: 'g', type: 'Number', default: 7, max: 5 },
          { key: 'h', type: 'Text', minLength: 5, maxLength: 2, default: 'abc' },
          { key: 'i', type: 'DateTime', min: 'soon' },
          { key: 'j', type: 'Boolean', unique: true },
          { key: 'k', type: 'Number', enum: [1, 'two'] },
        ];
        const answer = await api('PUT', '/content-types', { ...write, body: { name: 'Bad', key: 'Bad', fields } });
        expect(answer.status).toBe(400);
        expect(messages(answer)).toEqual({
          'fields.0.min': 'is not a rule of Text fields (it applies to Number, DateTime)',
          'fields.1.max': 'must not be below min (5)',
          'fields.2.pattern': expect.stringMatching(/^is not a regular expression RE2 reads: .*missing closing \)/),
          'fields.3.pattern': expect.stringMatching(/^is too complex: its RE2 program has \d+ instructions, at most 100 are allowed/),
          'fields.4.maxLength': expect.stringMatching(/^must be at most \d+ with this pattern/),
          'fields.5.enum.1': 'is listed twice: "x"',
          'fields.6.default': 'must be at most 5',
          'fields.7.maxLength': 'must not be below minLength (5)',
          'fields.8.min': 'must be an ISO 8601 date-time between the years 0000 and 9999',
          'fields.9.unique': 'is not a rule of Boolean fields (it applies to Text, Number, DateTime, Relation, Media)',
          'fields.10.enum.1': 'must be a number',
        });
        expect((await api('GET', '/content-types/Bad', read)).status).toBe(404);
      });

      it('checks every rule on save and lists every broken one at once (V2 and V1, translations too)', async () => {
        const bad = { sku: 'abc-1', name: 'X', price: 1200, size: 'XL', launch: '2019-12-31T23:00:00Z', status: 'gone' };
        const answer = await api('PUT', '/v2/preview-contents/Product', { ...write, body: { fields: bad, translations: { name: { fr: 'y'.repeat(21) } } } });
        expect(answer.status).toBe(400);
        expect(messages(answer)).toEqual({
          'fields.sku': 'must match the pattern ^[A-Z]{3}-[0-9]{4}$',
          'fields.name': 'must be at least 2 characters',
          'fields.price': 'must be at most 1000',
          'fields.size': 'must be one of "S", "M", "L"',
          'fields.launch': 'must be at least 2020-01-01T00:00:00.000Z',
          'fields.status': 'must be one of "draft", "ready"',
          'translations.name.fr': 'must be at most 20 characters',
        });
        const v1 = await api('PUT', '/preview-contents/Product', { ...write, body: { contentType: 'Product', fields: Object.entries(bad).map(([key, value]) => ({ key, value })) } });
        expect(fieldsOf(v1)).toEqual(['fields.launch', 'fields.name', 'fields.price', 'fields.size', 'fields.sku', 'fields.status']);
        const edges = await save({ sku: 'ABC-0001', name: 'ab', price: 0, size: 'L', launch: '2030-12-31T22:59:59Z' });
        expect(edges.status).toBe(200);
      });

      it('fills a default into a new item that leaves the field out, not where it is null, nor on an update', async () => {
        const created = await save({ sku: 'DEF-0001', stock: null });
        expect(created.status).toBe(200);
        expect(created.body.fields).toEqual({ sku: 'DEF-0001', status: 'draft', stock: null });
        const v1 = await api('PUT', '/preview-contents/Product', { ...write, body: { contentType: 'Product', fields: [{ key: 'sku', value: 'DEF-0002' }] } });
        expect(v1.body.fields).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'status', value: 'draft' }), expect.objectContaining({ key: 'stock', value: 0 })]));
        const updated = await save({ sku: 'DEF-0001' }, '/v2/preview-contents/Product', created.body.id);
        expect(updated.body.fields).toEqual({ sku: 'DEF-0001' });
      });

      it('matches patterns in linear time: a pattern that backtracks exponentially in JavaScript answers at once', async () => {
        const answer = await save({ sku: 'LIN-0001', slug: `${'a'.repeat(5000)}b` });
        expect(messages(answer)).toEqual({ 'fields.slug': 'must match the pattern ^(a|aa)+$' });
        expect((await save({ sku: 'LIN-0001', slug: 'a'.repeat(5000) })).status).toBe(200);
      });

      it('keeps a unique value to one item per stage, naming the item that holds it', async () => {
        const first = await save({ sku: 'UNQ-0001' });
        expect(first.status).toBe(200);
        const second = await save({ sku: 'UNQ-0001' });
        expect(second.status).toBe(400);
        expect(messages(second)).toEqual({ 'fields.sku': `must be unique: item ${first.body.id} holds "UNQ-0001" in the draft stage` });
        // Saving the holder again keeps its own value; a value of another stage is free in this one.
        expect((await save({ sku: 'UNQ-0001', price: 5 }, '/v2/preview-contents/Product', first.body.id)).status).toBe(200);
        const published = await save({ sku: 'UNQ-0002' }, '/v2/contents/Product');
        expect(published.status).toBe(200);
        const draftOnly = await save({ sku: 'UNQ-0009' });
        expect((await save({ sku: 'UNQ-0002' }, '/v2/preview-contents/Product', draftOnly.body.id)).status).toBe(400);
        // A draft may take a value only published elsewhere; publishing it is refused while the other holds it there.
        expect((await save({ sku: 'UNQ-0003' }, '/v2/preview-contents/Product', published.body.id)).status).toBe(200);
        expect((await save({ sku: 'UNQ-0002' }, '/v2/preview-contents/Product', draftOnly.body.id)).status).toBe(200);
        const publish = await api('PUT', `/v2/preview-contents/Product/${draftOnly.body.id}/publish`, write);
        expect(publish.status).toBe(400);
        expect(messages(publish)).toEqual({ 'fields.sku': `must be unique: item ${published.body.id} holds "UNQ-0002" in the published stage` });
        expect((await api('PUT', `/v2/contents/Product/${published.body.id}/unpublish`, write)).status).toBe(200);
        expect((await api('PUT', `/v2/preview-contents/Product/${draftOnly.body.id}/publish`, write)).status).toBe(200);
        // A value freed by its holder (changed or deleted) can be taken.
        expect((await save({ sku: 'UNQ-0004' }, '/v2/preview-contents/Product', first.body.id)).status).toBe(200);
        expect((await save({ sku: 'UNQ-0001' })).status).toBe(200);
      });

      it('lets one of many concurrent saves of the same unique value through', async () => {
        const answers = await Promise.all(Array.from({ length: 6 }, () => save({ sku: 'RAC-0001' })));
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
        const listed = await api('POST', '/v2/preview-contents/Product/ids', { ...read, body: { filter: { type: 'condition', fieldKey: 'sku', operator: 'e', value: 'RAC-0001' } } });
        expect(listed.body.ids).toHaveLength(1);
      });
    });

    describe('a type change that breaks stored items', () => {
      const catalog = { name: 'Catalog', key: 'Catalog', fields: [{ key: 'code', type: 'Text' }, { key: 'price', type: 'Number' }] };
      const stricter = {
        ...catalog,
        fields: [
          { key: 'code', type: 'Text', required: true, unique: true },
          { key: 'price', type: 'Number', max: 5 },
          { key: 'origin', type: 'Text', required: true, default: 'EU' },
        ],
      };
      const ids: Record<string, string> = {};

      beforeAll(async () => {
        expect((await api('PUT', '/content-types', { ...write, body: catalog })).status).toBe(200);
        ids.a = (await api('PUT', '/v2/preview-contents/Catalog', { ...write, body: { fields: { code: 'X1', price: 10 } } })).body.id;
        ids.b = (await api('PUT', '/v2/contents/Catalog', { ...write, body: { fields: { code: 'X1', price: 3 } } })).body.id;
        ids.c = (await api('PUT', '/v2/preview-contents/Catalog', { ...write, body: { fields: { price: 1 } } })).body.id;
      });

      const sorted = (problems: { field: string; rule: string; stage: string; items: number; examples: string[] }[]) =>
        problems.map((problem) => ({ ...problem, examples: [...problem.examples].sort() })).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));

      it('answers 409 with a report of the stored items it breaks, and a check answers the report, saving nothing', async () => {
        const expected = sorted([
          { field: 'code', rule: 'required', stage: 'draft', items: 1, examples: [ids.c!] },
          { field: 'code', rule: 'unique', stage: 'draft', items: 2, examples: [ids.a!, ids.b!] },
          { field: 'price', rule: 'must be at most 5', stage: 'draft', items: 1, examples: [ids.a!] },
          // A default fills new items, not stored ones.
          { field: 'origin', rule: 'required', stage: 'draft', items: 3, examples: [ids.a!, ids.b!, ids.c!] },
          { field: 'origin', rule: 'required', stage: 'published', items: 1, examples: [ids.b!] },
        ]);
        const refused = await api('PUT', '/content-types', { ...write, body: stricter });
        expect(refused.status).toBe(409);
        expect(refused.body.detail).toMatch(
          /^this change of Catalog breaks stored items \(code: no value in 1 draft item; code: a value shared by 2 draft items; price: 1 draft item break "must be at most 5"; origin: no value in 3 draft items; origin: no value in 1 published item\)\. Send it again with \?confirmBreakingChanges=true/,
        );
        expect(refused.body.report).toMatchObject({ contentType: 'Catalog', changedFields: ['code', 'price', 'origin'], checked: 4, complete: true, breaking: true });
        expect(sorted(refused.body.report.problems)).toEqual(expected);

        const dryRun = await api('POST', '/content-types/check', { ...write, body: stricter });
        expect(dryRun.status).toBe(200);
        expect(sorted(dryRun.body.problems)).toEqual(expected);
        expect((await api('GET', '/content-types/Catalog', read)).body.fields).toHaveLength(2);
        expect((await api('PUT', '/content-types?confirmBreakingChanges=yes&colour=red', { ...write, body: stricter })).status).toBe(400);
        expect((await api('POST', '/content-types/check', { ...read, body: stricter })).status).toBe(403);
      });

      it('saves it when confirmed: the items keep their values, and their next save follows the new rules', async () => {
        const saved = await api('PUT', '/content-types?confirmBreakingChanges=true', { ...write, body: stricter });
        expect(saved.status).toBe(200);
        expect(saved.body.fields).toHaveLength(3);
        expect((await api('GET', `/v2/preview-contents/Catalog/${ids.a}`, read)).body.fields).toEqual({ code: 'X1', price: 10 });
        const again = await api('PUT', '/v2/preview-contents/Catalog', { ...write, body: { id: ids.a, fields: { code: 'X1', price: 10 } } });
        expect(fieldsOf(again)).toEqual(['fields.code', 'fields.origin', 'fields.price']);
        // A change that breaks nothing (a wider bound, a name) needs no confirmation.
        const wider = { ...stricter, fields: stricter.fields.map((field) => (field.key === 'price' ? { ...field, max: 100, name: 'Price' } : field)) };
        const report = await api('POST', '/content-types/check', { ...write, body: wider });
        expect(report.body).toMatchObject({ changedFields: ['price'], breaking: false, problems: [] });
        expect((await api('PUT', '/content-types', { ...write, body: wider })).status).toBe(200);
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
