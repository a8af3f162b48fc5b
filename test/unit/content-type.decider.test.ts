import { contentTypeDecider } from '../../src/domain/content-type/decider';
import { contentTypeDefinition, contentTypeInput } from '../../src/domain/content-type/definition';
import { contentTypeEvent, type ContentTypeEvent } from '../../src/domain/content-type/events';
import { DomainError } from '../../src/domain/errors';
import type { QueryIndex } from '../../src/domain/content-type/query-indexes';
import { givenWhenThen } from './decider-spec';

const decide = givenWhenThen(contentTypeDecider);
const definition = contentTypeDefinition.parse({ name: 'Article', key: 'Article', fields: [{ key: 'title', type: 'Text' }] });
const sealedActionHeaders = { translate: 'sealed-headers' };
const room = { used: 0, limit: 2, setting: 'CONTENT_TYPES_PER_WORKSPACE' };
const saved = (id: string, created: boolean): ContentTypeEvent => ({ type: 'ContentTypeSaved', data: { workspaceId: 'ws', contentTypeId: id, created, definition, sealedActionHeaders } });

describe('content type decider', () => {
  it('creates with the new id, then updates keeping the first id', () => {
    expect(decide([], { type: 'SaveContentType', workspaceId: 'ws', newId: 'id-1', definition, sealedActionHeaders, quota: room })).toEqual([saved('id-1', true)]);
    expect(decide([saved('id-1', true)], { type: 'SaveContentType', workspaceId: 'ws', newId: 'id-2', definition, sealedActionHeaders, quota: room })).toEqual([saved('id-1', false)]);
  });

  it('refuses a new type when the workspace holds its quota (conflict naming the setting), never a type saved again', () => {
    const full = { ...room, used: 2 };
    expect(() => decide([], { type: 'SaveContentType', workspaceId: 'ws', newId: 'id-1', definition, sealedActionHeaders, quota: full })).toThrow(
      expect.objectContaining({ kind: 'conflict', message: expect.stringContaining('CONTENT_TYPES_PER_WORKSPACE allows (2)') as string }) as DomainError,
    );
    expect(decide([saved('id-1', true)], { type: 'SaveContentType', workspaceId: 'ws', newId: 'id-2', definition, sealedActionHeaders, quota: full })).toEqual([saved('id-1', false)]);
    expect(decide([], { type: 'SaveContentType', workspaceId: 'ws', newId: 'id-1', definition, sealedActionHeaders, quota: { ...full, limit: 0 } })).toEqual([saved('id-1', true)]);
  });

  it('deletes an empty type, refuses one with items (conflict) and an absent one (not found)', () => {
    const deleteWith = (itemCount: number) => ({ type: 'DeleteContentType' as const, workspaceId: 'ws', key: 'Article', itemCount });
    expect(decide([saved('id-1', true)], deleteWith(0))).toEqual([{ type: 'ContentTypeDeleted', data: { workspaceId: 'ws', contentTypeId: 'id-1', key: 'Article' } }]);
    expect(() => decide([saved('id-1', true)], deleteWith(3))).toThrow(expect.objectContaining({ kind: 'conflict' }) as DomainError);
    expect(() => decide([], deleteWith(0))).toThrow(expect.objectContaining({ kind: 'not_found' }) as DomainError);
  });

  it('creates again after a delete, with a fresh id', () => {
    const history = [saved('id-1', true), { type: 'ContentTypeDeleted', data: { workspaceId: 'ws', contentTypeId: 'id-1', key: 'Article' } } as ContentTypeEvent];
    expect(decide(history, { type: 'SaveContentType', workspaceId: 'ws', newId: 'id-2', definition, sealedActionHeaders, quota: room })).toEqual([saved('id-2', true)]);
  });

  it('reads a stored definition whatever members it carries: the input refuses unknown ones, the log never fails to replay', () => {
    const stored = { name: 'Old', key: 'Old', fields: [{ key: 'title', type: 'Text', retired: true }], retiredToo: 1 };
    const event = contentTypeEvent.parse({ type: 'ContentTypeSaved', data: { workspaceId: 'ws', contentTypeId: 'id-1', created: true, definition: stored } });
    expect(event.type === 'ContentTypeSaved' && event.data.definition.fields[0]).toEqual(expect.objectContaining({ key: 'title', type: 'Text' }));
    expect(contentTypeInput.safeParse(stored).error?.issues.map((issue) => issue.path.join('.'))).toEqual(['fields.0', '']);
  });

  describe('query indexes', () => {
    const typed = contentTypeDefinition.parse({
      name: 'Product',
      key: 'Product',
      fields: [{ key: 'color', type: 'Text' }, { key: 'price', type: 'Number' }, { key: 'meta', type: 'Json' }, { key: 'secret', type: 'Encrypted' }],
    });
    const savedProduct: ContentTypeEvent = { type: 'ContentTypeSaved', data: { workspaceId: 'ws', contentTypeId: 'p-1', created: true, definition: typed, sealedActionHeaders: {} } };
    const colorByPrice = { fields: [{ key: 'color', direction: 'asc' as const }, { key: 'price', direction: 'desc' as const }] };
    const declare = (...indexes: QueryIndex[]) => ({ type: 'DeclareQueryIndexes' as const, workspaceId: 'ws', key: 'Product', indexes });
    const declared = (...indexes: QueryIndex[]): ContentTypeEvent => ({ type: 'ContentTypeQueryIndexesDeclared', data: { workspaceId: 'ws', contentTypeId: 'p-1', key: 'Product', indexes, forbidden: [] } });

    it('records the declared list, system fields included, and nothing when it is the list already declared', () => {
      const byDate = { fields: [{ key: 'color', direction: 'asc' as const }, { key: 'publishedAt', direction: 'desc' as const }] };
      expect(decide([savedProduct], declare(colorByPrice, byDate))).toEqual([declared(colorByPrice, byDate)]);
      expect(decide([savedProduct, declared(colorByPrice)], declare(colorByPrice))).toEqual([]);
      expect(decide([savedProduct, declared(colorByPrice)], declare())).toEqual([declared()]);
    });

    it('keeps the list across a save of the type, and forgets it when the type is deleted', () => {
      const resaved: ContentTypeEvent = { ...savedProduct, data: { ...savedProduct.data, created: false } } as ContentTypeEvent;
      expect(decide([savedProduct, declared(colorByPrice), resaved], declare(colorByPrice))).toEqual([]);
      const deleted: ContentTypeEvent = { type: 'ContentTypeDeleted', data: { workspaceId: 'ws', contentTypeId: 'p-1', key: 'Product' } };
      const recreated: ContentTypeEvent = { ...savedProduct, data: { ...savedProduct.data, contentTypeId: 'p-2' } } as ContentTypeEvent;
      expect(decide([savedProduct, declared(colorByPrice), deleted, recreated], declare(colorByPrice))).toEqual([
        { ...declared(colorByPrice), data: { ...declared(colorByPrice).data, contentTypeId: 'p-2' } },
      ]);
    });

    it('refuses fields without a typed column, unknown or repeated ones, and repeated indexes, naming each', () => {
      const field = (key: string) => ({ key, direction: 'asc' as const });
      const refusal = (command: ReturnType<typeof declare>) => {
        try {
          decide([savedProduct], command);
        } catch (error) {
          return { kind: (error as DomainError).kind, fields: (error as DomainError).problems.map((problem) => problem.field) };
        }
        return null;
      };
      expect(refusal(declare({ fields: [field('color'), field('meta')] }, { fields: [field('secret')] }, { fields: [field('size')] }))).toEqual({
        kind: 'invalid',
        fields: ['indexes.0.fields.1', 'indexes.1.fields.0', 'indexes.2.fields.0'],
      });
      expect(refusal(declare({ fields: [field('color'), field('color')] }, colorByPrice, colorByPrice))).toEqual({ kind: 'invalid', fields: ['indexes.0.fields.1', 'indexes.2'] });
      expect(() => decide([], declare(colorByPrice))).toThrow(expect.objectContaining({ kind: 'not_found' }) as DomainError);
    });

    const asc = (key: string) => ({ key, direction: 'asc' as const });
    const at = '2026-01-02T03:04:05.000Z';
    const advise = (index: QueryIndex, budget = 2) => ({ type: 'AdviseQueryIndex' as const, workspaceId: 'ws', key: 'Product', index, budget, at, reason: 'r'.repeat(300) });
    const retire = (index: QueryIndex) => ({ type: 'RetireAdvisedIndex' as const, workspaceId: 'ws', key: 'Product', index, reason: 'unused' });
    const advised = (index: QueryIndex): QueryIndex => ({ ...index, origin: 'advised', advisedAt: at });
    const byPrice = { fields: [asc('price')] };
    const titlePrefix = { fields: [asc('color')], text: 'prefix' as const };
    const lists = (events: ContentTypeEvent[]) => events.map((event) => (event.type === 'ContentTypeQueryIndexesDeclared' ? { indexes: event.data.indexes, forbidden: event.data.forbidden, reason: event.data.reason } : event.type));
    const refusal = (given: ContentTypeEvent[], command: Parameters<typeof decide>[1]) => {
      try {
        decide(given, command);
      } catch (error) {
        return { kind: (error as DomainError).kind, fields: (error as DomainError).problems.map((problem) => problem.field) };
      }
      return null;
    };

    it('reads a declaration recorded before the advisor (no origin, no forbidden list) as declared indexes and nothing forbidden', () => {
      const recorded = contentTypeEvent.parse({ type: 'ContentTypeQueryIndexesDeclared', data: { workspaceId: 'ws', contentTypeId: 'p-1', key: 'Product', indexes: [colorByPrice] } });
      expect(recorded).toEqual(declared(colorByPrice));
      expect(decide([savedProduct, recorded], declare(colorByPrice))).toEqual([]);
      // The advisor's index comes beside it, the declared one kept as it was.
      expect(lists(decide([savedProduct, recorded], advise(byPrice)))).toEqual([{ indexes: [colorByPrice, advised(byPrice)], forbidden: [], reason: 'r'.repeat(200) }]);
    });

    it('lets the advisor declare an index once, within its budget, never a forbidden one, only on typed fields', () => {
      const first = decide([savedProduct], advise(byPrice));
      expect(lists(first)).toEqual([{ indexes: [advised(byPrice)], forbidden: [], reason: 'r'.repeat(200) }]);
      // Already there, as advised or as an operator's: nothing to do.
      expect(decide([savedProduct, ...first], advise(byPrice))).toEqual([]);
      expect(decide([savedProduct, declared(byPrice)], advise(byPrice))).toEqual([]);
      const second = decide([savedProduct, ...first], advise(titlePrefix));
      expect(lists(second)[0]).toMatchObject({ indexes: [advised(byPrice), advised(titlePrefix)] });
      // Declared and pinned indexes do not count against the budget; advised ones do.
      expect(refusal([savedProduct, ...first, ...second], advise(colorByPrice))).toEqual({ kind: 'conflict', fields: [] });
      expect(decide([savedProduct, ...first, ...second], advise(colorByPrice, 3))).toHaveLength(1);
      const forbidding = decide([savedProduct], { ...declare(), forbidden: [colorByPrice] });
      expect(refusal([savedProduct, ...forbidding], advise(colorByPrice))).toEqual({ kind: 'conflict', fields: [] });
      expect(refusal([savedProduct], advise({ fields: [asc('meta')] }))).toEqual({ kind: 'invalid', fields: ['index.0.fields.0'] });
      expect(refusal([savedProduct], advise({ fields: [asc('price')], text: 'substring' }))).toEqual({ kind: 'invalid', fields: ['index.0.fields.0'] });
    });

    it('drops only its own indexes when the advisor retires one: declared and pinned ones stay', () => {
      const adviceMade = decide([savedProduct], advise(byPrice));
      expect(lists(decide([savedProduct, ...adviceMade], retire(byPrice)))).toEqual([{ indexes: [], forbidden: [], reason: 'unused' }]);
      expect(decide([savedProduct, declared(byPrice)], retire(byPrice))).toEqual([]);
      const pinning = decide([savedProduct, ...adviceMade], declare({ ...byPrice, origin: 'pinned' }));
      expect(lists(pinning)).toEqual([{ indexes: [{ ...byPrice, origin: 'pinned', advisedAt: at }], forbidden: [], reason: undefined }]);
      expect(decide([savedProduct, ...adviceMade, ...pinning], retire(byPrice))).toEqual([]);
    });

    it("keeps the advisor's indexes across an operator's list, unless it takes one over or forbids it", () => {
      const adviceMade = [...decide([savedProduct], advise(byPrice)), ...decide([savedProduct], advise(titlePrefix))];
      const history = [savedProduct, adviceMade[0]!, ...decide([savedProduct, adviceMade[0]!], advise(titlePrefix))];
      expect(lists(decide(history, declare(colorByPrice)))).toEqual([{ indexes: [colorByPrice, advised(byPrice), advised(titlePrefix)], forbidden: [], reason: undefined }]);
      // Declared by the operator now: its own, no longer the advisor's.
      expect(lists(decide(history, declare(byPrice)))).toEqual([{ indexes: [byPrice, advised(titlePrefix)], forbidden: [], reason: undefined }]);
      // Forbidden: dropped, and the list of forbidden ones kept until given again.
      const forbidding = decide(history, { ...declare(), forbidden: [{ fields: [{ key: 'color', direction: 'desc' }], text: 'prefix' }] });
      expect(lists(forbidding)).toEqual([{ indexes: [advised(byPrice)], forbidden: [{ fields: [asc('color')], text: 'prefix' }], reason: undefined }]);
      expect(lists(decide([...history, ...forbidding], declare(colorByPrice)))).toEqual([{ indexes: [colorByPrice, advised(byPrice)], forbidden: [{ fields: [asc('color')], text: 'prefix' }], reason: undefined }]);
      // A list read back with the advised ones in it changes nothing, even one naming a field the type no longer has.
      expect(decide(history, declare(advised(byPrice), advised(titlePrefix)))).toEqual([]);
      expect(decide(history, declare(advised(byPrice), advised(titlePrefix), advised({ fields: [asc('removed')] })))).toEqual([]);
    });

    it('refuses an index both kept and forbidden, more than 8 kept, and text indexes that are not on one Text field', () => {
      expect(refusal([savedProduct], { ...declare(byPrice), forbidden: [byPrice] })).toEqual({ kind: 'invalid', fields: ['forbidden.0'] });
      const nine = Array.from({ length: 9 }, (_, index) => ({ fields: [asc(index % 2 === 0 ? 'color' : 'price'), { key: 'publishedAt', direction: index < 4 ? ('asc' as const) : ('desc' as const) }, asc(['createdAt', 'updatedAt', 'id'][index % 3]!)] }));
      expect(refusal([savedProduct], declare(...nine))).toEqual({ kind: 'invalid', fields: ['indexes'] });
      expect(refusal([savedProduct], declare({ fields: [asc('color'), asc('price')], text: 'prefix' }, { fields: [asc('createdAt')], text: 'prefix' }, { fields: [asc('price')], text: 'prefix-folded' }))).toEqual({
        kind: 'invalid',
        fields: ['indexes.0.fields', 'indexes.0.fields.1', 'indexes.1.fields.0', 'indexes.2.fields.0'],
      });
      expect(refusal([savedProduct], { ...declare(), forbidden: [{ fields: [] }, titlePrefix, titlePrefix] })).toEqual({ kind: 'invalid', fields: ['forbidden.0.fields', 'forbidden.2'] });
    });
  });
});
