import type { ContentTypeDefinition } from '../../src/domain/content-type/definition';
import { contentTypeDefinitionEvent } from '../../src/domain/content-type/events';
import type { Document } from '../../infra/readstore/port';
import type { Projector } from '../projector';

export const CONTENT_TYPES = 'content_types';

/** id `${workspaceId}:${key}`. */
export type ContentTypeDocument = Document &
  ContentTypeDefinition & {
    readonly workspaceId: string;
    readonly contentTypeId: string;
    readonly createdAt: string;
    readonly updatedAt: string;
    /** Per action id, its headers sealed under the workspace's data key; never answered to clients. */
    readonly sealedActionHeaders: Readonly<Record<string, string>>;
  };

export const contentTypeDocumentId = (workspaceId: string, key: string) => `${workspaceId}:${key}`;

export const contentTypesProjector: Projector = {
  name: 'content_types',
  collections: [{ name: CONTENT_TYPES, indexes: [{ fields: ['workspaceId', 'sortIndex'] }] }],
  eventTypes: new Set(['ContentTypeSaved', 'ContentTypeDeleted']),

  prefetch(recorded) {
    if (recorded.type !== 'ContentTypeSaved') return [];
    const { workspaceId, definition } = recorded.data as { workspaceId: string; definition: { key: string } };
    return [{ collection: CONTENT_TYPES, id: contentTypeDocumentId(workspaceId, definition.key) }];
  },

  async project(recorded, view) {
    const event = contentTypeDefinitionEvent.parse(recorded);
    const id = contentTypeDocumentId(event.data.workspaceId, event.type === 'ContentTypeSaved' ? event.data.definition.key : event.data.key);
    if (event.type === 'ContentTypeDeleted') return [{ kind: 'delete', collection: CONTENT_TYPES, id }];
    const at = recorded.metadata.timestamp;
    const previous = event.data.created ? null : await view.get<ContentTypeDocument>(CONTENT_TYPES, id);
    const document: ContentTypeDocument = {
      id,
      workspaceId: event.data.workspaceId,
      contentTypeId: event.data.contentTypeId,
      ...event.data.definition,
      sealedActionHeaders: event.data.sealedActionHeaders,
      createdAt: previous?.createdAt ?? at,
      updatedAt: at,
    };
    return [{ kind: 'upsert', collection: CONTENT_TYPES, document }];
  },
};
