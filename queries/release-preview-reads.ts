import type { ReadStore } from '../infra/readstore/port';
import type { AggregateGroupQuery, AggregateQuery, Filter, Scalar } from '../infra/readstore/query';
import { parseDecimal } from '../infra/readstore/memory-decimal';
import {
  type AggregateParts,
  aggregateParts,
  aggregateValue,
  combineParts,
  documentOrder,
  findInMemory,
  groupKey,
  groupOrder,
  groupsInMemory,
  matches,
  NO_PARTS,
} from '../infra/readstore/memory-query';
import { type JsonValue, memoryColumns, type MemoryColumns } from '../infra/readstore/memory-values';
import type { ContentItemDocument } from '../projections/read-models/content-items';
import type { ContentTypeDocument } from '../projections/read-models/content-types';
import { type AggregateGroupRequest, type AggregateRequest, type ContentQueries, groupAnswers, type PageRequest } from './content';
import type { RelatedItem } from './content-views';
import type { ReleasePreview } from './release-preview';

/**
 * The published lists, ids and aggregates of a content type as an Open release will leave them:
 * the store answers the query for every item the release leaves alone (its items left out), the
 * in-memory evaluator (infra/readstore/memory-query.ts, proven to answer as the store does)
 * answers it for the release's previewed documents, and the two are merged.
 *
 * A page is exact without reading the store from the first item: at most `matched` previewed
 * documents precede the page, so the store's items from rank `offset - matched` on are the only
 * ones that can land on it. An answer reads at most a release's items plus a page from the store.
 *
 * Aggregates add up exactly for counts, minima and maxima. Sums and averages combine the store's
 * sum (a float8) with the previewed documents' exact numeric sum: the same as the published
 * answer whenever the store's part of the sum has at most 15 significant digits.
 */
export class ReleasePreviewReads {
  constructor(
    private readonly store: ReadStore,
    private readonly queries: ContentQueries,
    private readonly preview: ReleasePreview,
  ) {}

  async search(workspaceId: string, releaseId: string, type: ContentTypeDocument, request: PageRequest): Promise<{ items: ContentItemDocument[]; total: number }> {
    const [{ source, query }, previewed] = await Promise.all([this.queries.listPlan(workspaceId, type, 'published', request), this.preview.ofType(workspaceId, releaseId, type.key)]);
    const columns = memoryColumns(source.columns);
    const own = findInMemory(previewed.documents, { filter: query.filter, sort: query.sort }, columns).items;
    const offset = query.offset ?? 0;
    const limit = query.limit!;
    const from = Math.max(0, offset - own.length);
    const stored = await this.store.find<ContentItemDocument>(source.collection, { ...query, filter: leavingOut(query.filter, previewed.itemIds), offset: from, limit: offset + limit - from });
    const merged = [...stored.items, ...own].sort(documentOrder(query.sort, columns));
    return { items: merged.slice(offset - from, offset - from + limit), total: stored.total + own.length };
  }

  async ids(workspaceId: string, releaseId: string, type: ContentTypeDocument, request: PageRequest): Promise<{ ids: string[]; total: number }> {
    const { items, total } = await this.search(workspaceId, releaseId, type, request);
    return { ids: items.map((document) => document.itemId), total };
  }

  async aggregate(workspaceId: string, releaseId: string, type: ContentTypeDocument, request: AggregateRequest): Promise<number | null> {
    const [{ source, query }, previewed] = await Promise.all([this.queries.aggregatePlan(workspaceId, type, 'published', request), this.preview.ofType(workspaceId, releaseId, type.key)]);
    const columns = memoryColumns(source.columns);
    const own = aggregateParts(previewed.documents.filter((document) => matches(document, query.filter, columns)), query.field, columns);
    const stored = await this.storedParts(source.collection, { ...query, filter: leavingOut(query.filter, previewed.itemIds) });
    return aggregateValue(combineParts(stored, own), query.operation);
  }

  async aggregateGroups(workspaceId: string, releaseId: string, type: ContentTypeDocument, request: AggregateGroupRequest) {
    const [{ source, query }, previewed] = await Promise.all([this.queries.aggregateGroupPlan(workspaceId, type, 'published', request), this.preview.ofType(workspaceId, releaseId, type.key)]);
    const columns: MemoryColumns = memoryColumns(source.columns);
    const groups = await this.storedGroupParts(source.collection, { ...query, filter: leavingOut(query.filter, previewed.itemIds) });
    for (const { group, documents } of groupsInMemory(previewed.documents, query, columns)) {
      const key = groupKey(group);
      const own = aggregateParts(documents, query.field, columns);
      groups.set(key, { group, parts: combineParts(groups.get(key)?.parts ?? NO_PARTS, own) });
    }
    const ordered = [...groups.values()].sort((a, b) => groupOrder(a.group, b.group));
    return groupAnswers(ordered.map(({ group, parts }) => ({ group: group as Scalar, value: aggregateValue(parts, query.operation) })));
  }

  /** The related items of a previewed page as the release leaves them: its entries' documents, the others as published now. */
  async related(workspaceId: string, releaseId: string, itemIds: readonly string[]): Promise<Map<string, RelatedItem>> {
    const previewed = await this.preview.entriesAmong(workspaceId, releaseId, itemIds);
    const [now, own] = await Promise.all([
      this.queries.relatedNow(
        workspaceId,
        itemIds.filter((itemId) => !previewed.has(itemId)),
        'published',
      ),
      this.queries.withTypes(workspaceId, [...previewed.values()].filter((document) => document !== null)),
    ]);
    return new Map([...now, ...own]);
  }

  /** What the store's part adds up to, asking only what the operation needs (an average: the sum and how many numbers). */
  private async storedParts(collection: string, query: AggregateQuery): Promise<AggregateParts> {
    const ask = (operation: AggregateQuery['operation'], filter = query.filter) => this.store.aggregate(collection, { ...query, filter, operation });
    switch (query.operation) {
      case 'count':
        return { ...NO_PARTS, present: (await ask('count')) ?? 0 };
      case 'sum':
        return summed(await ask('sum'), 1);
      case 'avg': {
        const [sum, numbers] = await Promise.all([ask('sum'), ask('count', holdingNumber(query.filter, query.field))]);
        return summed(sum, numbers ?? 0);
      }
      case 'min':
      case 'max': {
        const value = await ask(query.operation);
        return { ...NO_PARTS, numbers: value === null ? 0 : 1, min: value, max: value };
      }
    }
  }

  private async storedGroupParts(collection: string, query: AggregateGroupQuery): Promise<Map<string, { group: JsonValue; parts: AggregateParts }>> {
    const ask = (operation: AggregateQuery['operation'], filter = query.filter) => this.store.aggregateGroups(collection, { ...query, filter, operation });
    const byGroup = new Map<string, { group: JsonValue; parts: AggregateParts }>();
    const put = (group: JsonValue, parts: AggregateParts) => byGroup.set(groupKey(group), { group, parts });
    switch (query.operation) {
      case 'count':
        for (const { group, value } of await ask('count')) put(group, { ...NO_PARTS, present: value ?? 0 });
        break;
      case 'sum':
        for (const { group, value } of await ask('sum')) put(group, summed(value, 1));
        break;
      case 'avg': {
        const [sums, numbers] = await Promise.all([ask('sum'), ask('count', holdingNumber(query.filter, query.field))]);
        const counts = new Map(numbers.map(({ group, value }) => [groupKey(group), value ?? 0]));
        for (const { group, value } of sums) put(group, summed(value, counts.get(groupKey(group)) ?? 0));
        break;
      }
      case 'min':
      case 'max':
        for (const { group, value } of await ask(query.operation)) put(group, { ...NO_PARTS, numbers: value === null ? 0 : 1, min: value, max: value });
        break;
    }
    return byGroup;
  }
}

/** The store's sum read back as the decimal it prints as (exact up to 15 significant digits); `numbers` of them. */
function summed(sum: number | null, numbers: number): AggregateParts {
  return sum === null ? NO_PARTS : { ...NO_PARTS, numbers, sum: parseDecimal(String(sum)) };
}

/** The filter, for the items the release leaves alone. */
function leavingOut(filter: Filter | undefined, itemIds: readonly string[]): Filter | undefined {
  if (itemIds.length === 0) return filter;
  const outside: Filter = { type: 'condition', field: 'itemId', operator: 'nin', value: itemIds };
  return filter ? { type: 'and', conditions: [filter, outside] } : outside;
}

/** Documents whose field holds a number: ordered comparisons match values of their own JSON type only. */
function holdingNumber(filter: Filter | undefined, field: string): Filter {
  const numeric: Filter = {
    type: 'or',
    conditions: [
      { type: 'condition', field, operator: 'gte', value: 0 },
      { type: 'condition', field, operator: 'lt', value: 0 },
    ],
  };
  return filter ? { type: 'and', conditions: [filter, numeric] } : numeric;
}
