import { contentTypeDecider } from '../../src/domain/content-type/decider';
import { contentTypeDefinition } from '../../src/domain/content-type/definition';
import type { ContentTypeEvent } from '../../src/domain/content-type/events';
import { DomainError } from '../../src/domain/errors';
import { givenWhenThen } from './decider-spec';

const decide = givenWhenThen(contentTypeDecider);
const definition = contentTypeDefinition.parse({ name: 'Article', key: 'Article', fields: [{ key: 'title', type: 'Text' }] });
const sealedActionHeaders = { translate: 'sealed-headers' };
const saved = (id: string, created: boolean): ContentTypeEvent => ({ type: 'ContentTypeSaved', data: { workspaceId: 'ws', contentTypeId: id, created, definition, sealedActionHeaders } });

describe('content type decider', () => {
  it('creates with the new id, then updates keeping the first id', () => {
    expect(decide([], { type: 'SaveContentType', workspaceId: 'ws', newId: 'id-1', definition, sealedActionHeaders })).toEqual([saved('id-1', true)]);
    expect(decide([saved('id-1', true)], { type: 'SaveContentType', workspaceId: 'ws', newId: 'id-2', definition, sealedActionHeaders })).toEqual([saved('id-1', false)]);
  });

  it('deletes an empty type, refuses one with items (conflict) and an absent one (not found)', () => {
    const deleteWith = (itemCount: number) => ({ type: 'DeleteContentType' as const, workspaceId: 'ws', key: 'Article', itemCount });
    expect(decide([saved('id-1', true)], deleteWith(0))).toEqual([{ type: 'ContentTypeDeleted', data: { workspaceId: 'ws', contentTypeId: 'id-1', key: 'Article' } }]);
    expect(() => decide([saved('id-1', true)], deleteWith(3))).toThrow(expect.objectContaining({ kind: 'conflict' }) as DomainError);
    expect(() => decide([], deleteWith(0))).toThrow(expect.objectContaining({ kind: 'not_found' }) as DomainError);
  });

  it('creates again after a delete, with a fresh id', () => {
    const history = [saved('id-1', true), { type: 'ContentTypeDeleted', data: { workspaceId: 'ws', contentTypeId: 'id-1', key: 'Article' } } as ContentTypeEvent];
    expect(decide(history, { type: 'SaveContentType', workspaceId: 'ws', newId: 'id-2', definition, sealedActionHeaders })).toEqual([saved('id-2', true)]);
  });
});
