import { contentTypeDecider } from '../../src/domain/content-type/decider';
import { contentTypeDefinition } from '../../src/domain/content-type/definition';
import type { ContentTypeEvent } from '../../src/domain/content-type/events';
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

  describe('query indexes', () => {
    const typed = contentTypeDefinition.parse({
      name: 'Product',
      key: 'Product',
      fields: [{ key: 'color', type: 'Text' }, { key: 'price', type: 'Number' }, { key: 'meta', type: 'Json' }, { key: 'secret', type: 'Encrypted' }],
    });
    const savedProduct: ContentTypeEvent = { type: 'ContentTypeSaved', data: { workspaceId: 'ws', contentTypeId: 'p-1', created: true, definition: typed, sealedActionHeaders: {} } };
    const colorByPrice = { fields: [{ key: 'color', direction: 'asc' as const }, { key: 'price', direction: 'desc' as const }] };
    const declare = (...indexes: QueryIndex[]) => ({ type: 'DeclareQueryIndexes' as const, workspaceId: 'ws', key: 'Product', indexes });
    const declared = (...indexes: QueryIndex[]): ContentTypeEvent => ({ type: 'ContentTypeQueryIndexesDeclared', data: { workspaceId: 'ws', contentTypeId: 'p-1', key: 'Product', indexes } });

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
  });
});
