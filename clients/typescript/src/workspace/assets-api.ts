import type {
  Asset,
  AssetByHash,
  AssetId,
  AssetPage,
  AssetSearchRequest,
  IssuedSharedAccessKey,
  Success,
  UpdateAssetRequest,
  UploadChunkRequest,
  UploadStarted,
} from '../generated/api-types';
import type { Transport } from '../http/transport';
import { WORKSPACE_OPERATIONS } from '../operations/workspace-operations';
import { type FileToUpload, type UploadOptions, type UploadResult, uploadInChunks } from './asset-upload';

const routes = WORKSPACE_OPERATIONS.assets;

/** Files uploaded in chunks, with duplicate detection and anonymous download keys. */
export class AssetsApi {
  constructor(private readonly transport: Transport) {}

  /** Streams a file in chunks (in order, one at a time). See `uploadChunk` for a single chunk. */
  upload(file: FileToUpload, options?: UploadOptions): Promise<UploadResult> {
    return uploadInChunks((chunk) => this.uploadChunk(chunk), file, options);
  }

  /** Chunk 0 answers the asset (202); later chunks answer the asset id. */
  uploadChunk(chunk: UploadChunkRequest): Promise<AssetId | UploadStarted> {
    return this.transport.json(routes.uploadChunk, { body: chunk });
  }

  get(id: string): Promise<Asset> {
    return this.transport.json(routes.get, { path: { id } });
  }

  /** The oldest asset with this MD5 (hex) and size, or null: find a duplicate before uploading. */
  getByHash(hash: string, size: number): Promise<AssetByHash | null> {
    return this.transport.json(routes.getByHash, { body: { hash, size }, answerStatuses: [404] });
  }

  /** Newest first; `text` searches title, description and file name. */
  search(query: AssetSearchRequest = {}): Promise<AssetPage> {
    return this.transport.json(routes.search, { body: query });
  }

  update(id: string, changes: UpdateAssetRequest): Promise<Success> {
    return this.transport.json(routes.update, { path: { id }, body: changes });
  }

  /** Deletes the asset and its file permanently. */
  delete(id: string): Promise<Success> {
    return this.transport.json(routes.delete, { path: { id } });
  }

  /** A key (and its `url`) for anonymous download; never expires without `expiresInSeconds`. */
  issueSharedAccessKey(id: string, expiresInSeconds?: number): Promise<IssuedSharedAccessKey> {
    return this.transport.json(routes.issueSharedAccessKey, { path: { id }, body: { expiresInSeconds: expiresInSeconds ?? null } });
  }

  revokeSharedAccessKey(id: string, sharedAccessKey: string): Promise<Success> {
    return this.transport.json(routes.revokeSharedAccessKey, { path: { id, key: sharedAccessKey } });
  }
}
