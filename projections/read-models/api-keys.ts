import { apiKeyEvent, type WorkspacePolicy } from '../../src/domain/api-key/events';
import type { Document } from '../../infra/readstore/port';
import type { Projector } from '../projector';

export const API_KEYS = 'api_keys';

/** Active keys only: a revoked key's document is deleted, so it stops working at once. */
export interface ApiKeyDocument extends Document {
  readonly workspaceId: string;
  readonly name: string | null;
  readonly policies: WorkspacePolicy[];
  readonly secretHash: string;
}

export const apiKeysProjector: Projector = {
  name: 'api_keys',
  collections: [{ name: API_KEYS, indexes: [{ fields: ['workspaceId'] }] }],
  eventTypes: new Set(['ApiKeyIssued', 'ApiKeyRevoked']),

  async project(recorded) {
    const event = apiKeyEvent.parse(recorded);
    if (event.type === 'ApiKeyRevoked') return [{ kind: 'delete', collection: API_KEYS, id: event.data.keyId }];
    const { keyId, ...rest } = event.data;
    const document: ApiKeyDocument = { id: keyId, ...rest };
    return [{ kind: 'upsert', collection: API_KEYS, document }];
  },
};
