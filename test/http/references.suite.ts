import { randomUUID } from 'node:crypto';
import { MAX_REFERENCES } from '../../src/domain/content/values';
import { client } from '../support/http';
import { type Engine, startTestService, type TestService } from '../support/service';
import { type Bystander, createBystander } from '../support/tenant-latency';

const authorType = { name: 'Author', key: 'Author', fields: [{ key: 'name', type: 'Text' }] };
const bookType = {
  name: 'Book',
  key: 'Book',
  fields: [
    { key: 'title', type: 'Text' },
    { key: 'authors', type: 'References', relationContentType: 'Author' },
    { key: 'seeAlso', type: 'References' },
  ],
};

/** The References field: an ordered list of item ids, checked on save, expanded on read, filtered by contains, in and nin. */
export function describeReferences(engine: Engine): void {
  describe(`References fields (${engine})`, () => {
    let service: TestService;
    let api: ReturnType<typeof client>;
    let write: { key: string };
    let read: { key: string };
    let bystander: Bystander;
    const authors: string[] = [];

    beforeAll(async () => {
      service = await startTestService(engine);
      api = client(service.url);
      write = { key: service.writeKey };
      read = { key: service.readKey };
      bystander = await createBystander(service.url);
      for (const type of [authorType, bookType]) expect((await api('PUT', '/content-types', { ...write, body: type })).status).toBe(200);
      for (let batch = 0; batch < MAX_REFERENCES / 10; batch++) {
        const saved = await Promise.all(Array.from({ length: 10 }, (_, index) => api('PUT', '/v2/contents/Author', { ...write, body: { fields: { name: `Author ${batch * 10 + index}` } } })));
        authors.push(...saved.map((answer) => answer.body.id as string));
      }
    }, 120_000);
    afterAll(() => service.close());

    const saveBook = (fields: Record<string, unknown>) => api('PUT', '/v2/contents/Book', { ...write, body: { fields } });
    const list = (body: Record<string, unknown>) => api('POST', '/v2/contents/Book', { ...read, body });
    /** The item as the V2 list answers it with its References expanded. */
    const expandedBook = async (id: string) => {
      const answer = await list({ filter: { type: 'condition', fieldKey: 'id', operator: 'e', value: id }, includeRelations: ['authors'] });
      expect(answer.status).toBe(200);
      return answer.body.items[0];
    };

    it('keeps the ids in the order saved and expands them in that order, leaving out an item deleted since', async () => {
      const [first, second, third] = authors;
      const saved = await saveBook({ title: 'Ordered', authors: [third, first, second] });
      expect(saved.status).toBe(200);
      const plain = await api('GET', `/v2/contents/Book/${saved.body.id}`, read);
      expect(plain.body.fields.authors).toEqual([third, first, second]);
      const expanded = await expandedBook(saved.body.id);
      expect(expanded.fields.authors.map((author: { fields: { name: string } }) => author.fields.name)).toEqual(['Author 2', 'Author 0', 'Author 1']);

      const gone = (await api('PUT', '/v2/contents/Author', { ...write, body: { fields: { name: 'Leaving' } } })).body.id as string;
      const book = (await saveBook({ title: 'With one gone', authors: [first, gone] })).body.id as string;
      expect((await api('DELETE', `/v2/contents/Author/${gone}`, write)).status).toBe(200);
      const after = await expandedBook(book);
      expect(after.fields.authors.map((author: { id: string }) => author.id)).toEqual([first]);
      const v1 = await api('POST', `/contents/Book/${book}`, { ...read, body: {} });
      expect(v1.body.fields.find((field: { key: string }) => field.key === 'authors')).toEqual({ type: 'References', key: 'authors', value: [first, gone] });
    });

    it('refuses a value that is not a list of distinct ids of existing items of the restricted type, naming the element', async () => {
      const other = (await api('PUT', '/v2/contents/Book', { ...write, body: { fields: { title: 'A book, not an author' } } })).body.id as string;
      const missing = randomUUID();
      const cases: [unknown, string, string][] = [
        ['not a list', 'fields.authors', 'must be an array of content item ids (GUIDs)'],
        [[authors[0], 'nope'], 'fields.authors', 'item 1 must be a content item id (a GUID)'],
        [[authors[0], authors[0]!.toUpperCase()], 'fields.authors', `item 1 repeats ${authors[0]!.toUpperCase()}: each item is referenced once`],
        [[authors[0], missing], 'fields.authors.1', `names no content item of this workspace: ${missing}`],
        [[other], 'fields.authors.0', 'Author'],
      ];
      for (const [value, field, message] of cases) {
        const answer = await saveBook({ authors: value });
        expect(answer.status).toBe(400);
        const error = answer.body.errors.find((candidate: { field: string }) => candidate.field === field);
        expect(error?.message).toContain(message);
      }
      expect((await saveBook({ seeAlso: [other, authors[0]] })).status).toBe(200);
      expect((await api('PUT', '/content-types', { ...write, body: { ...authorType, fields: [{ key: 'name', type: 'Text', relationContentType: 'Book' }] } })).body.errors).toEqual([
        expect.objectContaining({ field: 'fields.0.relationContentType', message: 'is only allowed on Relation and References fields' }),
      ]);
    });

    it(`saves, filters and expands the most ids a value takes (${MAX_REFERENCES}), refuses one more, and another workspace is served throughout`, async () => {
      const full = await saveBook({ title: 'Anthology', authors });
      expect(full.status).toBe(200);
      const expanded = await expandedBook(full.body.id);
      expect(expanded.fields.authors.map((author: { id: string }) => author.id)).toEqual(authors);
      const found = await list({ filter: { type: 'condition', fieldKey: 'authors', operator: 'contains', value: authors[MAX_REFERENCES - 1] } });
      expect(found.body.items.map((item: { id: string }) => item.id)).toEqual([full.body.id]);
      const tooMany = await saveBook({ authors: [...authors, randomUUID()] });
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.errors).toEqual([expect.objectContaining({ field: 'fields.authors', message: `must hold at most ${MAX_REFERENCES} item ids` })]);
      expect((await api('GET', '/content-types', { key: bystander.readKey })).status).toBe(200);
      expect((await api('PUT', '/content-types', { key: bystander.writeKey, body: authorType })).status).toBe(200);
    });

    it('filters by contains (an id), in (any of) and nin (none of), and noe; refuses the other operators, naming them', async () => {
      const [a, b, c] = authors.slice(10, 13) as [string, string, string];
      const ab = (await saveBook({ title: 'ab', authors: [a, b] })).body.id as string;
      const c1 = (await saveBook({ title: 'c', authors: [c] })).body.id as string;
      const none = (await saveBook({ title: 'none', authors: [] })).body.id as string;
      const ids = async (filter: unknown) => {
        const answer = await list({ filter: { type: 'and', conditions: [{ type: 'condition', fieldKey: 'title', operator: 'in', value: ['ab', 'c', 'none'] }, filter] } });
        expect(answer.status).toBe(200);
        return (answer.body.items as { id: string }[]).map((item) => item.id).sort();
      };
      const condition = (operator: string, value?: unknown) => ({ type: 'condition', fieldKey: 'authors', operator, value });
      expect(await ids(condition('contains', b))).toEqual([ab]);
      expect(await ids(condition('in', [c, randomUUID()]))).toEqual([c1]);
      expect(await ids(condition('nin', [a]))).toEqual([c1, none].sort());
      expect(await ids(condition('noe'))).toEqual([none]);
      expect(await ids(condition('nnoe'))).toEqual([ab, c1].sort());
      const refused = await list({ filter: condition('e', a) });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([expect.objectContaining({ field: 'filter.operator', message: expect.stringContaining('operator e does not apply to a References field') })]);
      const sorted = await list({ order: { fieldKey: 'authors', direction: 'asc' } });
      expect(sorted.status).toBe(400);
    });
  });
}
