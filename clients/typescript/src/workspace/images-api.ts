import type { Operations } from '../generated/api-types';
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

  /** The address of a rendition, e.g. for a proxy or a server-side renderer; fetching it needs the key. */
  url(assetId: string, options: ImageOptions = {}): string {
    return this.transport.url(routes.get, { path: { assetId }, query: imageQuery(options) });
  }

  urlByPath(path: string, options: ImageOptions = {}): string {
    return this.transport.url(routes.getByPath, { path: { path }, query: imageQuery(options) });
  }
}
