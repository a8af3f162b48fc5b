import { assetEvent, type AssetType, type FileInfo } from '../../src/domain/asset/events';
import type { Document } from '../../infra/readstore/port';
import type { Projector } from '../projector';

export const ASSETS = 'assets';

export interface SharedKeyRecord {
  readonly secretHash: string;
  readonly expiresAt: string | null;
}

/** One document per asset whose first upload is assembled (nothing of an unfinished upload is visible); id `${workspaceId}:${assetId}`. */
export interface AssetDocument extends Document {
  readonly workspaceId: string;
  readonly assetId: string;
  readonly title: string | null;
  readonly description: string | null;
  readonly fileInfo: FileInfo;
  readonly assetType: AssetType;
  readonly version: number;
  readonly blobKey: string;
  readonly clientInfo: string | null;
  readonly createdAt: string;
  readonly lastUpdate: string;
  /** keyId → its hash and expiry */
  readonly sharedKeys: Readonly<Record<string, SharedKeyRecord>>;
}

export const assetDocumentId = (workspaceId: string, assetId: string) => `${workspaceId}:${assetId}`;

export const assetsProjector: Projector = {
  name: 'assets',
  collections: [{ name: ASSETS, indexes: [{ fields: ['workspaceId', 'fileInfo.hash', 'fileInfo.fileSize'] }, { fields: ['workspaceId', 'lastUpdate'] }] }],
  eventTypes: new Set(['AssetUploaded', 'AssetUpdated', 'AssetDeleted', 'SharedAccessKeyIssued', 'SharedAccessKeyRevoked']),

  prefetch(recorded) {
    const { workspaceId, assetId } = recorded.data as { workspaceId: string; assetId: string };
    return [{ collection: ASSETS, id: assetDocumentId(workspaceId, assetId) }];
  },

  async project(recorded, view) {
    const event = assetEvent.parse(recorded);
    const id = assetDocumentId(event.data.workspaceId, event.data.assetId);
    const at = recorded.metadata.timestamp;
    if (event.type === 'AssetDeleted') return [{ kind: 'delete', collection: ASSETS, id }];
    const current = await view.get<AssetDocument>(ASSETS, id);
    let document: AssetDocument | null = null;
    switch (event.type) {
      case 'AssetUploaded': {
        const { workspaceId, assetId, version, blobKey, fileInfo, assetType, title, description, clientInfo } = event.data;
        // A later upload replaces the file; title and description stay unless the new upload's chunk 0 brought them.
        document = {
          id,
          workspaceId,
          assetId,
          title: title ?? current?.title ?? null,
          description: description ?? current?.description ?? null,
          fileInfo,
          assetType,
          version,
          blobKey,
          clientInfo: clientInfo ?? current?.clientInfo ?? null,
          createdAt: current?.createdAt ?? at,
          lastUpdate: at,
          sharedKeys: current?.sharedKeys ?? {},
        };
        break;
      }
      case 'AssetUpdated':
        if (current) document = { ...current, title: event.data.title ?? current.title, description: event.data.description ?? current.description, lastUpdate: at };
        break;
      case 'SharedAccessKeyIssued':
        if (current) document = { ...current, sharedKeys: { ...current.sharedKeys, [event.data.keyId]: { secretHash: event.data.secretHash, expiresAt: event.data.expiresAt } } };
        break;
      case 'SharedAccessKeyRevoked':
        if (current) {
          const { [event.data.keyId]: _revoked, ...sharedKeys } = current.sharedKeys;
          document = { ...current, sharedKeys };
        }
        break;
    }
    return document ? [{ kind: 'upsert', collection: ASSETS, document }] : [];
  },
};
