import type { ReadStore } from '../infra/readstore/port';
import { contentTypeDefinition, type ContentTypeDefinition } from '../src/domain/content-type/definition';
import { CONTENT_TYPES, contentTypeDocumentId, type ContentTypeDocument } from '../projections/read-models/content-types';

/** The ContentType of the spec, plus the actions of CONTRACT.md. */
export type ContentTypeView = Omit<ContentTypeDocument, 'workspaceId' | 'contentTypeId' | 'sealedActionHeaders'>;

export function toContentTypeView(document: ContentTypeDocument): ContentTypeView {
  const { workspaceId: _workspaceId, contentTypeId, sealedActionHeaders: _sealed, ...rest } = document;
  return { ...rest, id: contentTypeId };
}

export class ContentTypeQueries {
  constructor(private readonly store: ReadStore) {}

  async list(workspaceId: string): Promise<ContentTypeView[]> {
    return (await this.documents(workspaceId)).map(toContentTypeView);
  }

  /** By sortIndex, then key. */
  async documents(workspaceId: string): Promise<ContentTypeDocument[]> {
    const { items } = await this.store.find<ContentTypeDocument>(CONTENT_TYPES, {
      filter: { type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId },
      sort: [{ field: 'sortIndex', direction: 'asc' }, { field: 'key', direction: 'asc' }],
    });
    return items;
  }

  count(workspaceId: string): Promise<number> {
    return this.store.count(CONTENT_TYPES, { filter: { type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId } });
  }

  async get(workspaceId: string, key: string): Promise<ContentTypeDocument | null> {
    return this.store.get<ContentTypeDocument>(CONTENT_TYPES, contentTypeDocumentId(workspaceId, key));
  }
}

/** The definition a document was saved with, without what the read model adds. */
export function definitionOf(document: ContentTypeDocument): ContentTypeDefinition {
  const { id: _id, workspaceId: _workspaceId, contentTypeId: _contentTypeId, sealedActionHeaders: _sealed, createdAt: _created, updatedAt: _updated, ...definition } = document;
  return contentTypeDefinition.parse(definition);
}
