import type { Readable } from 'node:stream';
import type { BlobStore, ByteRange } from '../infra/blobs/port';
import { parseCredential, secretMatches } from '../infra/crypto/credentials';
import type { ReadStore } from '../infra/readstore/port';
import type { Filter } from '../infra/readstore/query';
import { ASSETS, assetDocumentId, type AssetDocument } from '../projections/read-models/assets';
import { ASSET_USAGE, ASSET_USAGE_ITEMS, type AssetUsageDocument, type AssetUsageItemDocument, assetUsageItemId } from '../projections/read-models/asset-usage';
import type { Clock } from '../infra/clock';
import { forbidden, notFound } from '../src/domain/errors';

export interface AssetSearch {
  readonly page: number;
  readonly pageSize: number;
  readonly assetType?: string;
  /** Matched, case-insensitively, against title, description and file name. */
  readonly text?: string;
}

export class AssetQueries {
  constructor(
    private readonly store: ReadStore,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
  ) {}

  async document(workspaceId: string, assetId: string): Promise<AssetDocument> {
    const document = await this.store.get<AssetDocument>(ASSETS, assetDocumentId(workspaceId, assetId));
    if (!document) throw notFound(`asset ${assetId} does not exist`);
    return document;
  }

  /** What the workspace stores and has pending, and the asset's unfinished upload (the upload limits). */
  async usage(workspaceId: string, assetId: string): Promise<{ workspace: AssetUsageDocument | null; asset: AssetUsageItemDocument | null }> {
    return {
      workspace: await this.store.get<AssetUsageDocument>(ASSET_USAGE, workspaceId),
      asset: await this.store.get<AssetUsageItemDocument>(ASSET_USAGE_ITEMS, assetUsageItemId(workspaceId, assetId)),
    };
  }

  /** Whether another asset's (or workspace's) unfinished upload goes by `fileUploadId`. */
  async uploadIdTakenElsewhere(workspaceId: string, assetId: string, fileUploadId: string): Promise<boolean> {
    const holders = await this.store.listIds(ASSET_USAGE_ITEMS, { filter: { type: 'condition', field: 'pendingFileUploadId', operator: 'e', value: fileUploadId }, limit: 2 });
    return holders.some((id) => id !== assetUsageItemId(workspaceId, assetId));
  }

  /** The assets among `assetIds` that exist in the workspace; one round trip. */
  async existing(workspaceId: string, assetIds: readonly string[]): Promise<Set<string>> {
    const documents = assetIds.length === 0 ? [] : await this.store.getMany<AssetDocument>(ASSETS, assetIds.map((assetId) => assetDocumentId(workspaceId, assetId)));
    return new Set(documents.map((document) => document.assetId));
  }

  async byHash(workspaceId: string, hash: string, size: number): Promise<AssetDocument | null> {
    const items = await this.store.list<AssetDocument>(ASSETS, {
      filter: {
        type: 'and',
        conditions: [
          { type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId },
          { type: 'condition', field: 'fileInfo.hash', operator: 'e', value: hash.toLowerCase() },
          { type: 'condition', field: 'fileInfo.fileSize', operator: 'e', value: size },
        ],
      },
      sort: [{ field: 'createdAt', direction: 'asc' }],
      limit: 1,
    });
    return items[0] ?? null;
  }

  /** Newest first. */
  async search(workspaceId: string, query: AssetSearch) {
    const conditions: Filter[] = [{ type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId }];
    if (query.assetType) conditions.push({ type: 'condition', field: 'assetType', operator: 'e', value: query.assetType });
    if (query.text) {
      conditions.push({
        type: 'or',
        conditions: ['title', 'description', 'fileInfo.fileName'].map((field) => ({ type: 'condition' as const, field, operator: 'contains' as const, value: query.text!, caseInsensitive: true })),
      });
    }
    const { items, total } = await this.store.find<AssetDocument>(ASSETS, {
      filter: { type: 'and', conditions },
      sort: [{ field: 'lastUpdate', direction: 'desc' }],
      offset: (query.page - 1) * query.pageSize,
      limit: query.pageSize,
    });
    return { items: items.map(toAssetView), page: query.page, pageSize: query.pageSize, total };
  }

  /** The asset a shared access key opens; 403 for a wrong, revoked or expired key, 404 for no such asset. */
  async sharedAsset(workspaceId: string, assetId: string, key: string): Promise<AssetDocument> {
    const document = await this.document(workspaceId, assetId);
    const credential = parseCredential(key);
    const record = credential?.prefix === 'sak' ? document.sharedKeys[credential.id] : undefined;
    if (!credential || !record || !secretMatches(credential.secret, record.secretHash)) throw forbidden('invalid shared access key');
    if (record.expiresAt && Date.parse(record.expiresAt) <= this.clock.now().getTime()) throw forbidden('the shared access key has expired');
    return document;
  }

  /**
   * The asset's file (or the inclusive range). A file missing from the blob store (a store
   * restored without its blobs, a file deleted by hand) is a 404 that says so: retrying cannot
   * bring it back, only restoring the blobs can.
   */
  async file(document: AssetDocument, range?: ByteRange): Promise<Readable> {
    const file = await this.blobs.get(document.blobKey, range);
    if (!file) throw notFound(`the file of asset ${document.assetId} is missing from storage`);
    return file;
  }
}

/** The Asset of the spec. */
export function toAssetView(document: AssetDocument) {
  return {
    id: document.assetId,
    title: document.title ?? '',
    description: document.description ?? '',
    fileInfo: document.fileInfo,
    assetType: document.assetType,
    lastUpdate: document.lastUpdate,
  };
}
