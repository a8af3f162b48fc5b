import type { Clock } from '../infra/clock';
import type { ReadStore } from '../infra/readstore/port';
import type { Filter } from '../infra/readstore/query';
import { itemIdOf } from '../projections/read-models/content-items';
import type { ContentTypeDocument } from '../projections/read-models/content-types';
import { CONTENT_ITEM_STATES, type ContentItemStateDocument, contentItemStateId, versionServedAt } from '../projections/read-models/content-item-states';
import { type PublishedVersionDocument, publishedVersionId, publishedVersionScope } from '../projections/read-models/published-versions';
import { invalid, UnavailableError } from '../src/domain/errors';
import { aggregateGroupQuery, type AggregateGroupRequest, aggregateQuery, type AggregateRequest, fieldTypes, groupAnswers, type PageRequest } from './content';
import { translateContentFilter, translateContentOrder } from './content-filter';
import type { ContentSource, ContentTableRoutes } from './content-table-source';
import type { ContentTypeQueries } from './content-types';
import type { RelatedItem } from './content-views';
import type { PublishedTotals } from './published-totals';
import type { ShapeInput } from './query-shape';
import { type QueryShapeRecorder, recordShape } from './query-shape-recorder';

/** A type's first versions table is built within seconds of the type's creation; a rebuild after a retyped field takes longer, and is asked again. */
const VERSIONS_BUILD_RETRY_AFTER_SECONDS = 5;

/**
 * As-of queries: the published list, ids and aggregates as the delivery API answered them at
 * a time, from the type's typed versions table (projections/content-tables: every published
 * version of the type with the interval it was served in). The client's filter and order are
 * translated as for the current list and compiled by the read store; the only addition is the
 * validity condition. While no versions table answers the type's current fields (a new type
 * before its first build, a retyped field, a table awaiting its backfill) no other table holds
 * its versions: the query answers 503 with Retry-After rather than anything less than exact.
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
    const source = await this.answerableSource(workspaceId, type, at);
    const { query, shape } = this.findQuery(type, at, request);
    return recordShape(this.shapes, workspaceId, type.key, shape, async () => {
      const counted = await this.withoutCounting(workspaceId, type, source, at, request, () => this.store.list<PublishedVersionDocument>(source.collection, query));
      return counted ?? this.store.find<PublishedVersionDocument>(source.collection, query);
    });
  }

  async ids(workspaceId: string, type: ContentTypeDocument, at: Date, request: PageRequest): Promise<{ ids: string[]; total: number }> {
    const source = await this.answerableSource(workspaceId, type, at);
    const { query, shape } = this.findQuery(type, at, request);
    const result = await recordShape(this.shapes, workspaceId, type.key, shape, async () => {
      const counted = await this.withoutCounting(workspaceId, type, source, at, request, async () => (await this.store.list(source.collection, query)).map((document) => document.id));
      return counted ?? (await this.store.findIds(source.collection, query));
    });
    return { ids: result.items.map(itemIdOf), total: result.total };
  }

  /**
   * The page with the total of the unfiltered list from item_counts (the days before the time's
   * day and one day of events instead of every version served at the time); null when there is
   * a filter or item_counts is still being backfilled, and the store counts.
   */
  private async withoutCounting<T>(workspaceId: string, type: ContentTypeDocument, source: ContentSource, at: Date, request: PageRequest, page: () => Promise<T[]>): Promise<{ items: T[]; total: number } | null> {
    if (translateContentFilter(request.filter, fieldTypes(type))) return null;
    const [total, items] = await Promise.all([this.totals.at(publishedVersionScope(workspaceId, type.key), source.collection, at), page()]);
    return total === null ? null : { items, total };
  }

  async aggregate(workspaceId: string, type: ContentTypeDocument, at: Date, request: AggregateRequest) {
    const source = await this.answerableSource(workspaceId, type, at);
    const translated = translateContentFilter(request.filter, fieldTypes(type));
    const query = aggregateQuery(type, request, this.scope(type, at, translated));
    return recordShape(this.shapes, workspaceId, type.key, { kind: 'aggregate', asOf: true, filter: translated, aggregate: query }, () => this.store.aggregate(source.collection, query));
  }

  async aggregateGroups(
    workspaceId: string,
    type: ContentTypeDocument,
    at: Date,
    request: AggregateGroupRequest,
  ) {
    const source = await this.answerableSource(workspaceId, type, at);
    const translated = translateContentFilter(request.filter, fieldTypes(type));
    const query = aggregateGroupQuery(type, request, this.scope(type, at, translated));
    const groups = await recordShape(this.shapes, workspaceId, type.key, { kind: 'group', asOf: true, filter: translated, aggregate: query }, () => this.store.aggregateGroups(source.collection, query));
    return groupAnswers(groups);
  }

  /**
   * The published versions of `itemIds` (of any content type) served at `at`: relation targets as
   * they were then. Each item's state names its type and the version served at `at`, read by id
   * from that type's versions table.
   */
  async relatedAt(workspaceId: string, itemIds: readonly string[], at: Date): Promise<Map<string, RelatedItem>> {
    const related = new Map<string, RelatedItem>();
    if (itemIds.length === 0) return related;
    const states = await this.store.getMany<ContentItemStateDocument>(
      CONTENT_ITEM_STATES,
      itemIds.map((itemId) => contentItemStateId(workspaceId, itemId)),
    );
    const rowsByType = new Map<string, string[]>();
    for (const state of states) {
      const version = versionServedAt(state, at.getTime());
      if (version !== null) rowsByType.set(state.contentType, [...(rowsByType.get(state.contentType) ?? []), publishedVersionId(workspaceId, state.itemId, version)]);
    }
    await Promise.all(
      [...rowsByType].map(async ([key, rowIds]) => {
        const type = await this.contentTypes.get(workspaceId, key);
        if (!type) return;
        const source = await this.versionsOf(workspaceId, type);
        for (const document of await this.store.getMany<PublishedVersionDocument>(source.collection, rowIds)) related.set(document.itemId, { document, type });
      }),
    );
    return related;
  }

  /** The type's versions table, for a question that has an answer (a refusal comes before a 503: it will not change). */
  private answerableSource(workspaceId: string, type: ContentTypeDocument, at: Date): Promise<ContentSource> {
    this.assertAnswerable(type, at);
    return this.versionsOf(workspaceId, type);
  }

  /** The type's versions table; none answers it while it is being built (see the class comment). */
  private async versionsOf(workspaceId: string, type: ContentTypeDocument): Promise<ContentSource> {
    const source = await this.routes.versions(workspaceId, type);
    if (source) return source;
    throw new UnavailableError(`the as-of view of ${type.key} is being built from the log; retry after the Retry-After delay`, VERSIONS_BUILD_RETRY_AFTER_SECONDS);
  }

  private findQuery(type: ContentTypeDocument, at: Date, request: PageRequest) {
    const translated = translateContentFilter(request.filter, fieldTypes(type));
    const sort = translateContentOrder(request.order, fieldTypes(type));
    const query = { filter: this.scope(type, at, translated), sort, offset: (request.page - 1) * request.pageSize, limit: request.pageSize };
    return { query, shape: { kind: 'list', asOf: true, filter: translated, sort } satisfies ShapeInput };
  }

  /** The client's filter (translated) over the versions served at `at` (a typed versions table holds one type of one workspace). */
  private scope(type: ContentTypeDocument, at: Date, translated: Filter | undefined): Filter {
    const conditions: Filter[] = validAt(at);
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
