import type {
  AggregateGroups,
  AggregateResult,
  ContentHistory,
  ContentIds,
  ContentItemV2,
  ContentMergePatchV2Request,
  ContentPageV2,
  ContentV2RestoreResult,
  ContentV2Version,
  JsonPatch,
  RestoreContentRequest,
  SaveContentV2Request,
  Success,
} from '../generated/api-types';
import type { Transport } from '../http/transport';
import { WORKSPACE_OPERATIONS } from '../operations/workspace-operations';
import { type AggregateGroupQuery, type AggregateQuery, type IdsQuery, queryParameters, type SearchQuery } from './content-query';

const published = WORKSPACE_OPERATIONS.contentsV2;
const drafts = WORKSPACE_OPERATIONS.previewContentsV2;
type SharedRoutes = { readonly [Name in keyof typeof published & keyof typeof drafts]: (typeof published)[Name] | (typeof drafts)[Name] };

/** What published (/v2/contents) and draft (/v2/preview-contents) V2 content share; `type` is the content type key. */
abstract class ContentV2Api {
  protected constructor(
    protected readonly transport: Transport,
    private readonly routes: SharedRoutes,
  ) {}

  /** With `asOf`, the item as this path served it at that time (from its history). */
  get(type: string, id: string, options: { asOf?: string | Date } = {}): Promise<ContentItemV2> {
    const query = options.asOf === undefined ? undefined : { asOf: options.asOf instanceof Date ? options.asOf.toISOString() : options.asOf };
    return this.transport.json(this.routes.get, { path: { type, id }, query });
  }

  /** Every event of the item, oldest first. */
  history(type: string, id: string): Promise<ContentHistory> {
    return this.transport.json(this.routes.history, { path: { type, id } });
  }

  /** This path's stage (published content or draft) as it was at `version` (1-based, see history). */
  version(type: string, id: string, version: number): Promise<ContentV2Version> {
    return this.transport.json(this.routes.version, { path: { type, id, n: String(version) } });
  }

  /** Makes this path's stage at `version` the draft again (a ContentRestored); publishing stays a separate step. */
  restore(type: string, id: string, version: number, options: RestoreContentRequest = {}): Promise<ContentV2RestoreResult> {
    return this.transport.json(this.routes.restore, { path: { type, id, n: String(version) }, body: options });
  }

  /** An RFC 6902 JSON Patch from this path's stage at version `from` to version `to`. */
  diff(type: string, id: string, from: number, to: number): Promise<JsonPatch> {
    return this.transport.json(this.routes.diff, { path: { type, id }, query: { from, to } });
  }

  /** Filter, order, page, translate for `locale`, expand relations. */
  search(type: string, query: SearchQuery = {}): Promise<ContentPageV2> {
    return this.transport.json(this.routes.search, { path: { type }, body: query });
  }

  /** `search` sent as a GET, the query in the query string: an HTTP cache (a browser's) may keep the page and revalidate it (ETag). */
  list(type: string, query: SearchQuery = {}): Promise<ContentPageV2> {
    return this.transport.json(this.routes.list, { path: { type }, query: queryParameters(query) });
  }

  /** Without an id the item is created with a generated one. */
  save(type: string, item: SaveContentV2Request): Promise<ContentItemV2> {
    return this.transport.json(this.routes.save, { path: { type }, body: item });
  }

  /**
   * Changes some fields: a JSON Merge Patch (RFC 7396) of the item, sent as application/merge-patch+json.
   * Members of `fields` and `translations` replace the item's, null removes one; validated and saved like `save` on the same path.
   */
  patch(type: string, id: string, patch: ContentMergePatchV2Request): Promise<ContentItemV2> {
    return this.transport.json(this.routes.patch, { path: { type, id }, body: patch });
  }

  delete(type: string, id: string, clientInfo?: string): Promise<Success> {
    return this.transport.json(this.routes.delete, { path: { type, id }, body: { clientInfo: clientInfo ?? null } });
  }

  ids(type: string, query: IdsQuery = {}): Promise<ContentIds> {
    return this.transport.json(this.routes.ids, { path: { type }, body: query });
  }

  aggregate(type: string, query: AggregateQuery): Promise<AggregateResult> {
    return this.transport.json(this.routes.aggregate, { path: { type }, body: query });
  }

  aggregateGroups(type: string, query: AggregateGroupQuery): Promise<AggregateGroups> {
    return this.transport.json(this.routes.aggregateGroups, { path: { type }, body: query });
  }

  /** `ids` sent as a GET, the query in the query string: an HTTP cache (a browser's) may keep the answer and revalidate it (ETag). */
  getIds(type: string, query: IdsQuery = {}): Promise<ContentIds> {
    return this.transport.json(this.routes.getIds, { path: { type }, query: queryParameters(query) });
  }

  /** `aggregate` sent as a GET (see getIds). */
  getAggregate(type: string, query: AggregateQuery): Promise<AggregateResult> {
    return this.transport.json(this.routes.getAggregate, { path: { type }, query: queryParameters(query) });
  }

  /** `aggregateGroups` sent as a GET (see getIds). */
  getAggregateGroups(type: string, query: AggregateGroupQuery): Promise<AggregateGroups> {
    return this.transport.json(this.routes.getAggregateGroups, { path: { type }, query: queryParameters(query) });
  }
}

/** Published V2 content: `save` creates or updates and publishes at once. */
export class PublishedContentV2Api extends ContentV2Api {
  constructor(transport: Transport) {
    super(transport, published);
  }

  /** The item leaves the published endpoints; its draft stays. */
  unpublish(type: string, id: string, clientInfo?: string): Promise<Success> {
    return this.transport.json(published.unpublish, { path: { type, id }, body: { clientInfo: clientInfo ?? null } });
  }

  /**
   * Erases an item of a personal-data content type (its key is shredded): later reads answer 410.
   * The reason is kept for audit: do not name the person in it.
   */
  erase(type: string, id: string, reason: string, clientInfo?: string): Promise<Success> {
    return this.transport.json(published.erase, { path: { type, id }, body: { reason, clientInfo: clientInfo ?? null } });
  }
}

/** Draft V2 content. */
export class PreviewContentV2Api extends ContentV2Api {
  constructor(transport: Transport) {
    super(transport, drafts);
  }

  /** The draft becomes the published content. */
  publish(type: string, id: string, clientInfo?: string): Promise<Success> {
    return this.transport.json(drafts.publish, { path: { type, id }, body: { clientInfo: clientInfo ?? null } });
  }
}
