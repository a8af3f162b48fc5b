import type { ReadStore } from '../infra/readstore/port';
import type { AggregateGroup, AggregateGroupQuery, AggregateOperation, AggregateQuery, Filter, FindQuery } from '../infra/readstore/query';
import { CONTENT_ITEMS, contentItemId, type ContentItemDocument, itemIdOf, type Stage } from '../projections/read-models/content-items';
import type { ContentTypeDocument } from '../projections/read-models/content-types';
import { gone, invalid, notFound } from '../src/domain/errors';
import { CONTENT_ERASURES, type ContentErasureDocument, contentErasureId } from '../projections/read-models/content-erasures';
import { type FieldTypes, translateContentFilter, translateContentOrder } from './content-filter';
import type { ContentTypeQueries } from './content-types';
import type { RelatedItem, ViewOptions } from './content-views';
import type { LocaleQueries } from './locales';
import { ownValue } from '../src/domain/own-value';
import { type ContentSource, ContentTableRoutes } from './content-table-source';
import type { StageTotals } from './stage-totals';
import type { ShapeInput } from './query-shape';
import { type QueryShapeRecorder, recordShape } from './query-shape-recorder';

export interface PageRequest {
  readonly filter?: unknown;
  readonly order?: unknown;
  readonly page: number;
  readonly pageSize: number;
}

export interface ViewRequest {
  readonly locale?: string | null;
  readonly includeRelations?: readonly string[] | null;
}

/** Related items one answer expands at most (a page of 500 items, each with References of up to 100 ids, could name 50,000). */
export const MAX_EXPANDED_ITEMS = 2_000;

export const AGGREGATE_TYPES = { Sum: 'sum', Avg: 'avg', Min: 'min', Max: 'max', Count: 'count' } as const satisfies Record<string, AggregateOperation>;

/** Read side of content items: documents from the content read model, never the event log. */
export class ContentQueries {
  constructor(
    private readonly store: ReadStore,
    private readonly contentTypes: ContentTypeQueries,
    private readonly locales: LocaleQueries,
    private readonly routes: ContentTableRoutes = new ContentTableRoutes(store),
    private readonly stageTotals: StageTotals | null = null,
    /** Where the shape and time of every list, ids and aggregate query go (the query index advisor's input). */
    private readonly shapes: QueryShapeRecorder | null = null,
  ) {}

  async type(workspaceId: string, key: string): Promise<ContentTypeDocument> {
    const type = await this.contentTypes.get(workspaceId, key);
    if (!type) throw notFound(`content type ${key} does not exist`);
    return type;
  }

  async item(workspaceId: string, contentType: string, itemId: string, stage: Stage): Promise<ContentItemDocument> {
    const document = await this.store.get<ContentItemDocument>(CONTENT_ITEMS, contentItemId(workspaceId, itemId, stage));
    if (!document || document.contentType !== contentType) {
      await this.assertNotErased(workspaceId, contentType, itemId);
      throw notFound(`content item ${itemId} does not exist in ${contentType}`);
    }
    return document;
  }

  /** 410 when the item was erased: its reads answer that it is gone for good, not that it never was. */
  async assertNotErased(workspaceId: string, contentType: string, itemId: string): Promise<void> {
    const erasure = await this.store.get<ContentErasureDocument>(CONTENT_ERASURES, contentErasureId(workspaceId, itemId));
    if (erasure && erasure.contentType === contentType) throw gone(`content item ${itemId} was erased at ${erasure.erasedAt}`);
  }

  /** 404 unless the item exists as a draft or as published content. */
  async assertExists(workspaceId: string, contentType: string, itemId: string): Promise<void> {
    if (!(await this.exists(workspaceId, contentType, itemId))) {
      await this.assertNotErased(workspaceId, contentType, itemId);
      throw notFound(`content item ${itemId} does not exist in ${contentType}`);
    }
  }

  async exists(workspaceId: string, contentType: string, itemId: string): Promise<boolean> {
    const [draft, published] = await Promise.all(
      (['draft', 'published'] as const).map((stage) => this.store.get<ContentItemDocument>(CONTENT_ITEMS, contentItemId(workspaceId, itemId, stage))),
    );
    return (draft ?? published)?.contentType === contentType;
  }

  /** The items among `itemIds` that exist in the workspace, as a draft or published → their content type; one round trip. */
  async itemTypes(workspaceId: string, itemIds: readonly string[]): Promise<Map<string, string>> {
    const documentIds = itemIds.flatMap((itemId) => (['draft', 'published'] as const).map((stage) => contentItemId(workspaceId, itemId, stage)));
    const documents = documentIds.length === 0 ? [] : await this.store.getMany<ContentItemDocument>(CONTENT_ITEMS, documentIds);
    return new Map(documents.map((document) => [document.itemId, document.contentType]));
  }

  /**
   * How many items a content type has. Each item has a draft document, a published one or
   * both, and a draft's `publishedAt` is set exactly when the published one exists, so the items
   * are the published documents plus the drafts that are not published.
   */
  async countItems(workspaceId: string, contentType: string): Promise<number> {
    const ofType: Filter[] = [
      { type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId },
      { type: 'condition', field: 'contentType', operator: 'e', value: contentType },
    ];
    const [published, unpublishedDrafts] = await Promise.all([
      this.store.count(CONTENT_ITEMS, { filter: { type: 'and', conditions: [...ofType, { type: 'condition', field: 'stage', operator: 'e', value: 'published' }] } }),
      this.store.count(CONTENT_ITEMS, {
        filter: {
          type: 'and',
          conditions: [...ofType, { type: 'condition', field: 'stage', operator: 'e', value: 'draft' }, { type: 'condition', field: 'publishedAt', operator: 'noe', value: null }],
        },
      }),
    ]);
    return published + unpublishedDrafts;
  }

  /** A page of the type's documents in `stage`, in id order: what a change of the type's rules is checked against. */
  storedPage(workspaceId: string, contentType: string, stage: Stage, offset: number, limit: number): Promise<ContentItemDocument[]> {
    const conditions: Filter[] = [
      { type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId },
      { type: 'condition', field: 'contentType', operator: 'e', value: contentType },
      { type: 'condition', field: 'stage', operator: 'e', value: stage },
    ];
    return this.store.list<ContentItemDocument>(CONTENT_ITEMS, { filter: { type: 'and', conditions }, sort: [{ field: 'id', direction: 'asc' }], offset, limit });
  }

  async ids(workspaceId: string, type: ContentTypeDocument, stage: Stage, request: PageRequest): Promise<{ ids: string[]; total: number }> {
    const source = await this.source(workspaceId, type);
    const { query, shape } = this.findQuery(source, workspaceId, type, stage, request);
    return this.recorded(workspaceId, type, shape, async () => {
      const counted = this.stageTotal(workspaceId, type, stage, request);
      if (counted) {
        const [ids, total] = await Promise.all([this.store.listIds(source.collection, query), counted]);
        return { ids: ids.map(itemIdOf), total };
      }
      const result = await this.store.findIds(source.collection, query);
      return { ids: result.items.map(itemIdOf), total: result.total };
    });
  }

  async search(workspaceId: string, type: ContentTypeDocument, stage: Stage, request: PageRequest): Promise<{ items: ContentItemDocument[]; total: number }> {
    const source = await this.source(workspaceId, type);
    const { query, shape } = this.findQuery(source, workspaceId, type, stage, request);
    return this.recorded(workspaceId, type, shape, async () => {
      const counted = this.stageTotal(workspaceId, type, stage, request);
      if (counted) {
        const [items, total] = await Promise.all([this.store.list<ContentItemDocument>(source.collection, query), counted]);
        return { items, total };
      }
      return this.store.find<ContentItemDocument>(source.collection, query);
    });
  }

  async aggregate(workspaceId: string, type: ContentTypeDocument, stage: Stage, request: AggregateRequest) {
    const { source, query, translated } = await this.aggregatePlan(workspaceId, type, stage, request);
    return this.recorded(workspaceId, type, { kind: 'aggregate', asOf: false, filter: translated, aggregate: query }, () => this.store.aggregate(source.collection, query));
  }

  async aggregateGroups(workspaceId: string, type: ContentTypeDocument, stage: Stage, request: AggregateGroupRequest) {
    const { source, query, translated } = await this.aggregateGroupPlan(workspaceId, type, stage, request);
    const groups = await this.recorded(workspaceId, type, { kind: 'group', asOf: false, filter: translated, aggregate: query }, () => this.store.aggregateGroups(source.collection, query));
    return groupAnswers(groups);
  }

  /** A list's store query and where it runs, unrun: a release's preview (queries/release-preview-reads.ts) runs it with the release's items left out. */
  async listPlan(workspaceId: string, type: ContentTypeDocument, stage: Stage, request: PageRequest): Promise<{ source: ContentSource; query: FindQuery }> {
    const source = await this.source(workspaceId, type);
    return { source, query: this.findQuery(source, workspaceId, type, stage, request).query };
  }

  async aggregatePlan(workspaceId: string, type: ContentTypeDocument, stage: Stage, request: AggregateRequest) {
    const source = await this.source(workspaceId, type);
    const translated = translateContentFilter(request.filter, fieldTypes(type));
    return { source, translated, query: aggregateQuery(type, request, this.scope(source, workspaceId, type, stage, translated)) };
  }

  async aggregateGroupPlan(workspaceId: string, type: ContentTypeDocument, stage: Stage, request: AggregateGroupRequest) {
    const source = await this.source(workspaceId, type);
    const translated = translateContentFilter(request.filter, fieldTypes(type));
    return { source, translated, query: aggregateGroupQuery(type, request, this.scope(source, workspaceId, type, stage, translated)) };
  }

  /**
   * An item of the type other than `exceptItemId` whose field `fieldKey` holds `value` in `stage`,
   * or null: the unique check of a save, served by the unique field's index on the typed table.
   * Not a client's query, so its shape is not recorded for the advisor.
   */
  async holderOf(workspaceId: string, type: ContentTypeDocument, stage: Stage, fieldKey: string, value: unknown, exceptItemId: string): Promise<string | null> {
    const source = await this.source(workspaceId, type);
    const filter = {
      type: 'and',
      conditions: [
        { type: 'condition', fieldKey, operator: 'e', value },
        { type: 'condition', fieldKey: 'id', operator: 'ne', value: exceptItemId },
      ],
    };
    const { query } = this.findQuery(source, workspaceId, type, stage, { filter, page: 1, pageSize: 1 });
    const [holder] = await this.store.listIds(source.collection, query);
    return holder === undefined ? null : itemIdOf(holder);
  }

  /** Runs the store's part of a query and records its shape and time, whether it answered or failed (a read stopped by the timeout is the costliest). */
  private recorded<T>(workspaceId: string, type: ContentTypeDocument, shape: ShapeInput, run: () => Promise<T>): Promise<T> {
    return recordShape(this.shapes, workspaceId, type.key, shape, run);
  }

  /**
   * The locale chain and the relation targets a view needs; relations resolve in the same stage,
   * by default as it is now (an as-of list passes the targets as they were then).
   */
  async viewOptions(
    workspaceId: string,
    type: ContentTypeDocument,
    documents: readonly ContentItemDocument[],
    stage: Stage,
    request: ViewRequest,
    related: (itemIds: readonly string[]) => Promise<Map<string, RelatedItem>> = (itemIds) => this.relatedNow(workspaceId, itemIds, stage),
  ): Promise<ViewOptions> {
    const expand = new Set(request.includeRelations ?? []);
    for (const key of expand) {
      if (!type.fields.some((field) => field.key === key && (field.type === 'Relation' || field.type === 'References'))) throw invalid(`${type.key} has no relation field ${key}`, 'includeRelations');
    }
    const targetIds = new Set<string>();
    for (const document of documents) {
      for (const key of expand) {
        const value = ownValue(document.fields, key);
        if (typeof value === 'string') targetIds.add(value);
        if (Array.isArray(value)) for (const id of value) if (typeof id === 'string') targetIds.add(id);
      }
    }
    if (targetIds.size > MAX_EXPANDED_ITEMS) {
      throw invalid(`expanding ${[...expand].join(', ')} would read ${targetIds.size} related items, more than ${MAX_EXPANDED_ITEMS} in one answer: ask for a smaller page`, 'includeRelations');
    }
    return { localeChain: await this.localeChain(workspaceId, request.locale), relations: await related([...targetIds]), expand };
  }

  /** The items among `itemIds` in `stage` now, with their content types. */
  async relatedNow(workspaceId: string, itemIds: readonly string[], stage: Stage): Promise<Map<string, RelatedItem>> {
    const targets = await Promise.all(itemIds.map((itemId) => this.store.get<ContentItemDocument>(CONTENT_ITEMS, contentItemId(workspaceId, itemId, stage))));
    return this.withTypes(workspaceId, targets.filter((target) => target !== null));
  }

  /** Related documents with their content types (one whose type is gone is left out). */
  async withTypes(workspaceId: string, documents: readonly ContentItemDocument[]): Promise<Map<string, RelatedItem>> {
    const relations = new Map<string, RelatedItem>();
    await Promise.all(
      documents.map(async (target) => {
        const targetType = await this.contentTypes.get(workspaceId, target.contentType);
        if (targetType) relations.set(target.itemId, { document: target, type: targetType });
      }),
    );
    return relations;
  }

  /** The locale, then each fallback in turn, then the workspace default. */
  private async localeChain(workspaceId: string, locale: string | null | undefined): Promise<string[]> {
    if (!locale) return [];
    const locales = await this.locales.list(workspaceId);
    const byKey = new Map(locales.map((candidate) => [candidate.code.toLowerCase(), candidate]));
    let current = byKey.get(locale.toLowerCase());
    if (!current) throw invalid(`unknown locale ${locale}`, 'locale');
    const chain: string[] = [];
    while (current && !chain.includes(current.code)) {
      chain.push(current.code);
      current = current.fallbackCode ? byKey.get(current.fallbackCode.toLowerCase()) : undefined;
    }
    const fallbackDefault = locales.find((candidate) => candidate.default);
    if (fallbackDefault && !chain.includes(fallbackDefault.code)) chain.push(fallbackDefault.code);
    return chain;
  }

  /** Where the type's items are queried: its typed table when one serves its current fields, else content_items. */
  private source(workspaceId: string, type: ContentTypeDocument): Promise<ContentSource> {
    return this.routes.source(workspaceId, type);
  }

  /**
   * Unfiltered, the total is the stage's count now in item_counts: one document read instead of
   * counting every row of the type. Null when the request filters, or while that read model awaits its backfill.
   */
  private stageTotal(workspaceId: string, type: ContentTypeDocument, stage: Stage, request: PageRequest): Promise<number> | null {
    return request.filter == null && this.stageTotals?.live() ? this.stageTotals.of(workspaceId, type.key, stage) : null;
  }

  private findQuery(source: ContentSource, workspaceId: string, type: ContentTypeDocument, stage: Stage, request: PageRequest) {
    const translated = translateContentFilter(request.filter, fieldTypes(type));
    const sort = translateContentOrder(request.order, fieldTypes(type));
    const query = { filter: this.scope(source, workspaceId, type, stage, translated), sort, offset: (request.page - 1) * request.pageSize, limit: request.pageSize };
    return { query, shape: { kind: 'list', asOf: false, filter: translated, sort } satisfies ShapeInput };
  }

  /** The client's filter (translated), always within one workspace, content type and stage (a typed table holds one type of one workspace). */
  private scope(source: ContentSource, workspaceId: string, type: ContentTypeDocument, stage: Stage, translated: Filter | undefined): Filter {
    const ofType: Filter[] = source.typed
      ? []
      : [
          { type: 'condition', field: 'workspaceId', operator: 'e', value: workspaceId },
          { type: 'condition', field: 'contentType', operator: 'e', value: type.key },
        ];
    const conditions: Filter[] = [...ofType, { type: 'condition', field: 'stage', operator: 'e', value: stage }];
    if (translated) conditions.push(translated);
    return { type: 'and', conditions };
  }
}


export interface AggregateRequest {
  readonly fieldKey: string;
  readonly aggregateType: keyof typeof AGGREGATE_TYPES;
  readonly filter?: unknown;
}

export interface AggregateGroupRequest extends AggregateRequest {
  readonly groupByFieldKey: string;
}

/** An aggregate request of the API as the read store takes it, within `filter` (the scoped filter). */
export function aggregateQuery(type: ContentTypeDocument, request: AggregateRequest, filter: Filter): AggregateQuery {
  return { filter, field: fieldPath(request.fieldKey, fieldTypes(type), 'fieldKey'), operation: AGGREGATE_TYPES[request.aggregateType] };
}

export function aggregateGroupQuery(type: ContentTypeDocument, request: AggregateGroupRequest, filter: Filter): AggregateGroupQuery {
  return { ...aggregateQuery(type, request, filter), groupBy: fieldPath(request.groupByFieldKey, fieldTypes(type), 'groupByFieldKey') };
}

export const groupAnswers = (groups: readonly AggregateGroup[]) => groups.map((group) => ({ groupValue: group.group, aggregateValue: group.value }));

export function fieldTypes(type: ContentTypeDocument): FieldTypes {
  return new Map(type.fields.map((field) => [field.key, field.type]));
}

/** The stored path of a field key (system fields included), with the order language's checks. */
export function fieldPath(fieldKey: string, types: FieldTypes, root: string): string {
  return translateContentOrder({ fieldKey }, types, root)[0]!.field;
}
