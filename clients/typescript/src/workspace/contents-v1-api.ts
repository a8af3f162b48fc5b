import type {
  AggregateGroups,
  AggregateResult,
  ContentHistory,
  ContentIds,
  ContentItemV1,
  ContentRestoreResult,
  ContentVersion,
  ContentViewRequest,
  JsonPatch,
  RestoreContentRequest,
  SaveContentV1Request,
  Success,
} from '../generated/api-types';
import type { Transport } from '../http/transport';
import { WORKSPACE_OPERATIONS } from '../operations/workspace-operations';
import { type AggregateGroupQuery, type AggregateQuery, type IdsQuery, queryParameters } from './content-query';

const published = WORKSPACE_OPERATIONS.contents;
const drafts = WORKSPACE_OPERATIONS.previewContents;
type SharedRoutes = { readonly [Name in keyof typeof published & keyof typeof drafts]: (typeof published)[Name] | (typeof drafts)[Name] };

/** A V1 item to save: the content type comes from the `type` argument. */
export type ContentV1Input = Omit<SaveContentV1Request, 'contentType'>;

/** What published (/contents) and draft (/preview-contents) V1 content share; `type` is the content type key. */
abstract class ContentV1Api {
  protected constructor(
    protected readonly transport: Transport,
    private readonly routes: SharedRoutes,
  ) {}

  /** With `asOf`, the item as this path served it at that time (from its history). */
  get(type: string, id: string, options: { asOf?: string | Date } = {}): Promise<ContentItemV1> {
    const query = options.asOf === undefined ? undefined : { asOf: options.asOf instanceof Date ? options.asOf.toISOString() : options.asOf };
    return this.transport.json(this.routes.get, { path: { type, id }, query });
  }

  /** Every event of the item, oldest first. */
  history(type: string, id: string): Promise<ContentHistory> {
    return this.transport.json(this.routes.history, { path: { type, id } });
  }

  /** This path's stage (published content or draft) as it was at `version` (1-based, see history). */
  version(type: string, id: string, version: number): Promise<ContentVersion> {
    return this.transport.json(this.routes.version, { path: { type, id, n: String(version) } });
  }

  /** Makes this path's stage at `version` the draft again (a ContentRestoreResult); publishing stays a separate step. */
  restore(type: string, id: string, version: number, options: RestoreContentRequest = {}): Promise<ContentRestoreResult> {
    return this.transport.json(this.routes.restore, { path: { type, id, n: String(version) }, body: options });
  }

  /** An RFC 6902 JSON Patch from this path's stage at version `from` to version `to`. */
  diff(type: string, id: string, from: number, to: number): Promise<JsonPatch> {
    return this.transport.json(this.routes.diff, { path: { type, id }, query: { from, to } });
  }

  /** The item translated for `locale`, with the listed relation fields expanded inline. */
  view(type: string, id: string, options: ContentViewRequest = {}): Promise<ContentItemV1> {
    return this.transport.json(this.routes.view, { path: { type, id }, body: options });
  }

  /** Without an id the item is created with a generated one. */
  save(type: string, item: ContentV1Input): Promise<ContentItemV1> {
    return this.transport.json(this.routes.save, { path: { type }, body: { ...item, contentType: type } });
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

/** Published V1 content: `save` creates or updates and publishes at once. */
export class PublishedContentV1Api extends ContentV1Api {
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

/** Draft V1 content. */
export class PreviewContentV1Api extends ContentV1Api {
  constructor(transport: Transport) {
    super(transport, drafts);
  }

  /** The draft becomes the published content. */
  publish(type: string, id: string, clientInfo?: string): Promise<Success> {
    return this.transport.json(drafts.publish, { path: { type, id }, body: { clientInfo: clientInfo ?? null } });
  }
}
