import { contentEvent } from '../../src/domain/content/events';
import type { Document } from '../../infra/readstore/port';
import type { Projector } from '../projector';

export const CONTENT_ERASURES = 'content_erasures';

/** That an item was erased, so its reads answer 410 rather than 404; no values. Id `${workspaceId}:${itemId}`. */
export interface ContentErasureDocument extends Document {
  readonly workspaceId: string;
  readonly itemId: string;
  readonly contentType: string;
  readonly erasedAt: string;
}

export const contentErasureId = (workspaceId: string, itemId: string) => `${workspaceId}:${itemId}`;

export const contentErasuresProjector: Projector = {
  name: 'content_erasures',
  collections: [{ name: CONTENT_ERASURES, indexes: [] }],
  eventTypes: new Set(['ContentErased']),

  async project(recorded) {
    const event = contentEvent.parse(recorded);
    const { workspaceId, itemId, contentType } = event.data;
    const document: ContentErasureDocument = { id: contentErasureId(workspaceId, itemId), workspaceId, itemId, contentType, erasedAt: recorded.metadata.timestamp };
    return [{ kind: 'upsert', collection: CONTENT_ERASURES, document }];
  },
};
