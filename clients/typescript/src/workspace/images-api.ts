import type { Operations, RotatedImageSigningKey, SignedImageUrl, SignImageUrlRequest } from '../generated/api-types';
import type { Transport } from '../http/transport';
import { WORKSPACE_OPERATIONS } from '../operations/workspace-operations';

const routes = WORKSPACE_OPERATIONS.images;

type DocumentedImageQuery = Operations['getImage']['query'];

/** How to render an image; omitted values keep the original. */
export interface ImageOptions extends Omit<DocumentedImageQuery, 'enlarge'> {
  /** Allow output larger than the original. */
  readonly enlarge?: boolean;
}

export interface ImageRequestOptions extends ImageOptions {
  /** Without `format`, `image/avif` or `image/webp` here selects that format. */
  readonly accept?: string;
  /** An ETag from an earlier answer: the Response is then a 304 when unchanged. */
  readonly ifNoneMatch?: string;
}

function imageQuery({ enlarge, ...options }: ImageOptions): DocumentedImageQuery {
  return { ...options, ...(enlarge === undefined ? {} : { enlarge: enlarge ? 'true' : 'false' }) };
}

function requestOf({ accept, ifNoneMatch, ...options }: ImageRequestOptions) {
  return { query: imageQuery(options), headers: { Accept: accept, 'If-None-Match': ifNoneMatch }, answerStatuses: [304] };
}

/** Image assets resized and converted on the fly. The answers are fetch Responses, to stream. */
export class ImagesApi {
  constructor(private readonly transport: Transport) {}

  get(assetId: string, options: ImageRequestOptions = {}): Promise<Response> {
    return this.transport.binary(routes.get, { path: { assetId }, ...requestOf(options) });
  }

  /** `path` is the storage path, `{assetId}/{file name}`. */
  getByPath(path: string, options: ImageRequestOptions = {}): Promise<Response> {
    return this.transport.binary(routes.getByPath, { path: { path }, ...requestOf(options) });
  }

  /**
   * The address of the keyed endpoint (GET /images/{assetId}), for a server-side fetch that
   * sends the key. Not for a page: a browser's `<img src>` sends no key and is answered 401;
   * use `signedUrl` for that.
   */
  url(assetId: string, options: ImageOptions = {}): string {
    return this.transport.url(routes.get, { path: { assetId }, query: imageQuery(options) });
  }

  /** As `url`, for GET /images/bypath/{path}: needs the key too. */
  urlByPath(path: string, options: ImageOptions = {}): string {
    return this.transport.url(routes.getByPath, { path: { path }, query: imageQuery(options) });
  }

  /**
   * A URL of the image (or, with options, a rendition) that needs no key: for `<img src>`, a
   * CDN or an e-mail. It expires after `expiresInSeconds` (default 30 days, at most a year,
   * rounded up to the hour) and names the asset's current file: upload a new one and ask again.
   * Asked of the service (a read key is enough), so the signing key never leaves it.
   */
  signedUrl(assetId: string, options: SignImageUrlRequest = {}): Promise<SignedImageUrl> {
    return this.transport.json(routes.signedUrl, { path: { assetId }, body: options });
  }

  /** Signs new URLs with a new key (a write key); URLs signed before keep working for `previousKeyGraceSeconds` (default a day, 0 ends them at once). */
  rotateSigningKey(previousKeyGraceSeconds?: number): Promise<RotatedImageSigningKey> {
    return this.transport.json(routes.rotateSigningKey, { body: previousKeyGraceSeconds === undefined ? {} : { previousKeyGraceSeconds } });
  }
}
