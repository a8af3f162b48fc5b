/**
 * The neutral query language of the read store. Field paths are dot paths into the
 * stored JSON document (`fields.price`, `createdAt`). Each adapter translates these
 * trees once (SQL over JSONB, a MongoDB query); callers never write engine syntax.
 *
 * Values compare by their JSON type: numbers as numbers, strings as strings, booleans
 * as booleans. Dates are stored as ISO 8601 UTC strings of one fixed format, so they
 * compare correctly as strings.
 */

export const COMPARISON_OPERATORS = ['e', 'ne', 'gt', 'gte', 'lt', 'lte'] as const;
export const LIST_OPERATORS = ['in', 'nin'] as const;
export const TEXT_OPERATORS = ['start', 'end', 'contains'] as const;
export const PRESENCE_OPERATORS = ['noe', 'nnoe'] as const;
/** The operators a client's filter names. */
export const OPERATORS = [...COMPARISON_OPERATORS, ...LIST_OPERATORS, ...TEXT_OPERATORS, ...PRESENCE_OPERATORS] as const;
/** `includes`: the field holds an array with at most one of `value`'s strings (a References field); clients write it as contains or in. */
export type Operator = (typeof OPERATORS)[number] | 'includes';

export type Scalar = string | number | boolean | null;

export type Filter =
  | { readonly type: 'and' | 'or'; readonly conditions: readonly Filter[] }
  | { readonly type: 'not'; readonly condition: Filter }
  | Condition;

/**
 * - e / ne: equal / not equal (ne also matches a missing field).
 * - gt, gte, lt, lte: ordered comparison; never matches a missing field or a value of another JSON type.
 * - in / nin: `value` is an array of scalars (nin also matches a missing field).
 * - start, end, contains: text operators on string values; `caseInsensitive` folds case.
 * - noe: null, missing, empty string or empty array. nnoe: the opposite.
 * - includes: `value` is an array of strings; matches an array holding any of them (never a value that is not an array).
 */
export interface Condition {
  readonly type: 'condition';
  readonly field: string;
  readonly operator: Operator;
  readonly value?: Scalar | readonly Scalar[];
  readonly caseInsensitive?: boolean;
}

export interface SortKey {
  readonly field: string;
  readonly direction: 'asc' | 'desc';
}

export interface FindQuery {
  readonly filter?: Filter;
  /** Applied in order; ties are finally broken by document id ascending so pages are stable. */
  readonly sort?: readonly SortKey[];
  /**
   * The sort keys tell every document apart (a unique field): no tie-break by id, so an
   * index on the filter's and sort's fields alone serves the order (a feed paged by position).
   */
  readonly sortIsUnique?: boolean;
  /** Zero-based number of documents to skip. */
  readonly offset?: number;
  /** Maximum documents to return; all when absent. */
  readonly limit?: number;
}

export interface FindResult<T> {
  readonly items: T[];
  /** Number of documents matching the filter, regardless of offset and limit. */
  readonly total: number;
}

export type AggregateOperation = 'sum' | 'avg' | 'min' | 'max' | 'count';

export interface AggregateQuery {
  readonly filter?: Filter;
  /** The field aggregated. Sum and Avg consider numeric values only; Count counts documents where the field is not null. */
  readonly field: string;
  readonly operation: AggregateOperation;
}

export interface AggregateGroupQuery extends AggregateQuery {
  readonly groupBy: string;
}

export interface AggregateGroup {
  readonly group: Scalar;
  /** null when no value in the group could be aggregated (e.g. avg over no numbers). */
  readonly value: number | null;
}
