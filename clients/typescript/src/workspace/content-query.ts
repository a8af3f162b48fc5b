import type { AggregateGroupRequest, AggregateRequest, ContentIdsRequest, ContentSearchRequest } from '../generated/api-types';

/*
 * The document types filters and orders as any JSON value: the service's query translator
 * checks them, and the operations' descriptions give their syntax. These types spell it out.
 */

export type FilterOperator = 'e' | 'ne' | 'gt' | 'gte' | 'lt' | 'lte' | 'in' | 'nin' | 'start' | 'end' | 'contains' | 'noe' | 'nnoe';

export interface FilterCondition {
  readonly type: 'condition';
  /** A field key of the content type, or a system field: id, createdAt, updatedAt, publishedAt. */
  readonly fieldKey: string;
  readonly operator: FilterOperator;
  /** An array for `in` and `nin`; absent for `noe` and `nnoe`. */
  readonly value?: unknown;
  /** Text operators only. */
  readonly caseInsensitive?: boolean;
}

export type Filter =
  | FilterCondition
  | { readonly type: 'and' | 'or'; readonly conditions: readonly Filter[] }
  | { readonly type: 'not'; readonly condition: Filter };

export interface SortKey {
  readonly type?: 'condition';
  readonly fieldKey: string;
  /** Default: Asc. */
  readonly sortDir?: 'Asc' | 'Desc';
}

export type AggregateType = 'Sum' | 'Avg' | 'Min' | 'Max' | 'Count';

type Ordered = { readonly filter?: Filter; readonly order?: SortKey | readonly SortKey[] };
type Aggregated = { readonly aggregateType: AggregateType; readonly filter?: Filter };

export type IdsQuery = Omit<ContentIdsRequest, keyof Ordered> & Ordered;
export type SearchQuery = Omit<ContentSearchRequest, keyof Ordered> & Ordered;
export type AggregateQuery = Omit<AggregateRequest, keyof Aggregated> & Aggregated;
export type AggregateGroupQuery = Omit<AggregateGroupRequest, keyof Aggregated> & Aggregated;

/**
 * A query in the form the GET operations take it (docs/api.md, "GET queries"): filter and order
 * as JSON, includeRelations comma-separated, numbers and text as they are.
 */
export function queryParameters<Parameters>(query: object): Parameters {
  return Object.fromEntries(
    Object.entries(query).map(([name, value]: [string, unknown]) => [
      name,
      name === 'includeRelations' && Array.isArray(value) ? value.join(',') : value !== null && typeof value === 'object' ? JSON.stringify(value) : value,
    ]),
  ) as Parameters;
}
