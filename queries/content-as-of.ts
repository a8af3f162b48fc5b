import type { Clock } from '../infra/clock';
import type { ReadStore } from '../infra/readstore/port';
import type { Filter } from '../infra/readstore/query';
import { itemIdOf } from '../projections/read-models/content-items';
import type { ContentTypeDocument } from '../projections/read-models/content-types';
import { PUBLISHED_VERSIONS, type PublishedVersionDocument, publishedVersionScope } from '../projections/read-models/published-versions';
import { invalid } from '../src/domain/errors';
import { aggregateGroupQuery, type AggregateGroupRequest, aggregateQuery, type AggregateRequest, fieldTypes, groupAnswers, type PageRequest } from './content';
import { translateContentFilter, translateContentOrder } from './content-filter';
import type { ContentSource, ContentTableRoutes } from './content-table-source';
import type { ContentTypeQueries } from './content-types';
import type { RelatedItem } from './content-views';
import type { PublishedTotals } from './published-totals';
import type { ShapeInput } from './query-shape';
import { type QueryShapeRecorder, recordShape } from './query-shape-recorder';

/**
 * As-of queries: the published list, ids and aggregates as the delivery API answered them at
 * a time, from the type's typed versions table when one serves its current fields
 * (projections/content-tables), else from the published_versions read model (every published
 * version with the interval it was served in; both hold the same rows). The client's filter and
 * order are translated as for the current list and compiled by the read store; the only
 * addition is the validity condition (and the scope on published_versions).
 */
export class ContentAsOfQueries {
  constructor(
    private readonly store: ReadStore,
    private readonly contentTypes: ContentTypeQueries,
    private readonly clock: Clock,
    private readonly routes: ContentTableRoutes,
    private readonly totals: PublishedTotals,
    private readonly shapes: QueryShapeRecorder | null = null,
  ) {}

  async search(workspaceId: string, type: ContentTypeDocument, at: Date, request: PageRequest): Promise<{ items: PublishedVersionDocument[]; total: number }> {
    const source = await this.routes.versions(workspaceId, type);
    const { query, shape } = this.findQuery(source, workspaceId, type, at, request);
    return recordShape(this.shapes, workspaceId, type.key, shape, async () => {
      const counted = await this.withoutCounting(workspaceId, type, at, request, () => this.store.list<PublishedVersionDocument>(source.collection, query));
      return counted ?? this.store.find<PublishedVersionDocument>(source.collection, query);
    });
  }

  async ids(workspaceId: string, type: ContentTypeDocument, at: Date, request: PageRequest): Promise<{ ids: string[]; total: number }> {
    const source = await this.routes.versions(workspaceId, type);
    const { query, shape } = this.findQuery(source, workspaceId, type, at, request);
    const result = await recordShape(this.shapes, workspaceId, type.key, shape, async () => {
      const counted = await this.withoutCounting(workspaceId, type, at, request, async () => (await this.store.list(source.collection, query)).map((document) => document.id));
      return counted ?? (await this.store.findIds(source.collection, query));
    });
    return { ids: result.items.map(itemIdOf), total: result.total };
  }

  /**
   * The page with the total of the unfiltered list from published_counts (a few dozen numbers and
   * one hour of events instead of every version served at the time); null when there is a filter
   * or published_counts is still being backfilled, and the store counts.
   */
  private async withoutCounting<T>(workspaceId: string, type: ContentTypeDocument, at: Date, request: PageRequest, page: () => Promise<T[]>): Promise<{ items: T[]; total: number } | null> {
    if (translateContentFilter(request.filter, fieldTypes(type))) return null;
    const [total, items] = await Promise.all([this.totals.at(publishedVersionScope(workspaceId, type.key), at), page()]);
    return total === null ? null : { items, total };
  }

  async aggregate(workspaceId: string, type: ContentTypeDocument, at: Date, request: AggregateRequest) {
    const source = await this.routes.versions(workspaceId, type);
    const translated = translateContentFilter(request.filter, fieldTypes(type));
    const query = aggregateQuery(type, request, this.scope(source, workspaceId, type, at, translated));
    return recordShape(this.shapes, workspaceId, type.key, { kind: 'aggregate', asOf: true, filter: translated, aggregate: query }, () => this.store.aggregate(source.collection, query));
  }

  async aggregateGroups(
    workspaceId: string,
    type: ContentTypeDocument,
    at: Date,
    request: AggregateGroupRequest,
  ) {
    const source = await this.routes.versions(workspaceId, type);
    const translated = translateContentFilter(request.filter, fieldTypes(type));
    const query = aggregateGroupQuery(type, request, this.scope(source, workspaceId, type, at, translated));
    const groups = await recordShape(this.shapes, workspaceId, type.key, { kind: 'group', asOf: true, filter: translated, aggregate: query }, () => this.store.aggregateGroups(source.collection, query));
    return groupAnswers(groups);
  }

  /** The published versions of `itemIds` (of any content type) served at `at`: relation targets as they were then. */
  async relatedAt(workspaceId: string, itemIds: readonly string[], at: Date): Promise<Map<string, RelatedItem>> {
    const related = new Map<string, RelatedItem>();
    if (itemIds.length === 0) return related;
    const targets = await this.store.list<PublishedVersionDocument>(PUBLISHED_VERSIONS, {
      filter: {
        type: 'and',
        conditions: [
          { type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId },
          { type: 'condition', field: 'itemId', operator: 'in', value: [...itemIds] },
          ...validAt(at),
        ],
      },
    });
    await Promise.all(
      targets.map(async (document) => {
        const type = await this.contentTypes.get(workspaceId, document.contentType);
        if (type) related.set(document.itemId, { document, type });
      }),
    );
    return related;
  }

  private findQuery(source: ContentSource, workspaceId: string, type: ContentTypeDocument, at: Date, request: PageRequest) {
    const translated = translateContentFilter(request.filter, fieldTypes(type));
    const sort = translateContentOrder(request.order, fieldTypes(type));
    const query = { filter: this.scope(source, workspaceId, type, at, translated), sort, offset: (request.page - 1) * request.pageSize, limit: request.pageSize };
    return { query, shape: { kind: 'list', asOf: true, filter: translated, sort } satisfies ShapeInput };
  }

  /** The client's filter (translated) within the workspace and the type (a typed versions table holds one type of one workspace), over the versions served at `at`. */
  private scope(source: ContentSource, workspaceId: string, type: ContentTypeDocument, at: Date, translated: Filter | undefined): Filter {
    this.assertAnswerable(type, at);
    const ofType: Filter[] = source.typed ? [] : [{ type: 'condition', field: 'scope', operator: 'e', value: publishedVersionScope(workspaceId, type.key) }];
    const conditions: Filter[] = [...ofType, ...validAt(at)];
    if (translated) conditions.push(translated);
    return { type: 'and', conditions };
  }

  /**
   * A time after now has no answer yet (the published list may still change before it); a type
   * with versioning disabled serves its current versions only, so its past is not listed either.
   */
  private assertAnswerable(type: ContentTypeDocument, at: Date): void {
    if (at.getTime() > this.clock.now().getTime()) throw invalid(`asOf ${at.toISOString()} lies in the future: leave asOf out for the current state`, 'asOf');
    if (type.versioningDisabled) throw invalid(`versioning is disabled for ${type.key}: its earlier states are not readable, leave asOf out`, 'asOf');
  }
}

/** Versions served at `at`: published at or before it, not replaced or withdrawn until after it. */
function validAt(at: Date): Filter[] {
  const time = at.getTime();
  return [
    { type: 'condition', field: 'validFromMs', operator: 'lte', value: time },
    { type: 'condition', field: 'validUntilMs', operator: 'gt', value: time },
  ];
}
