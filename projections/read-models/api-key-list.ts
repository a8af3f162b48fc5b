import { apiKeyEvent, type WorkspacePolicy } from '../../src/domain/api-key/events';
import type { Document } from '../../infra/readstore/port';
import type { Projector } from '../projector';

export const API_KEY_LIST = 'api_key_list';

/**
 * Every key a workspace was ever issued, revoked ones included, for the operators' listing
 * and audit. Apart from the credential model (api_keys), which holds live keys only and is
 * what authentication reads; this one holds no secret hash.
 */
export interface ListedApiKeyDocument extends Document {
  readonly workspaceId: string;
  readonly name: string | null;
  readonly policies: WorkspacePolicy[];
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

export const apiKeyListProjector: Projector = {
  name: 'api_key_list',
  collections: [{ name: API_KEY_LIST, indexes: [{ fields: ['workspaceId', 'createdAt'] }] }],
  eventTypes: new Set(['ApiKeyIssued', 'ApiKeyRevoked']),
  prefetch: (event) => [{ collection: API_KEY_LIST, id: apiKeyEvent.parse(event).data.keyId }],

  async project(recorded, view) {
    const event = apiKeyEvent.parse(recorded);
    const listed = await view.get<ListedApiKeyDocument>(API_KEY_LIST, event.data.keyId);
    if (event.type === 'ApiKeyIssued') {
      // Issued is a key's first event: a document already there means this one is seen again.
      if (listed) return [];
      const { keyId, workspaceId, name, policies } = event.data;
      const document: ListedApiKeyDocument = { id: keyId, workspaceId, name, policies, createdAt: recorded.metadata.timestamp, revokedAt: null };
      return [{ kind: 'upsert', collection: API_KEY_LIST, document }];
    }
    // Revoked once: a replayed revocation keeps the first time.
    if (!listed || listed.revokedAt !== null) return [];
    return [{ kind: 'upsert', collection: API_KEY_LIST, document: { ...listed, revokedAt: recorded.metadata.timestamp } }];
  },
};
