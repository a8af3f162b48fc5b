import type { FieldType } from '../src/domain/content-type/definition';
import {
  indexSignature,
  INDEXABLE_FIELD_TYPES,
  MAX_QUERY_INDEX_FIELDS,
  originOf,
  type QueryIndex,
  type QueryIndexOrigin,
  TEXT_INDEXED_FIELD_TYPES,
  type TextIndexKind,
} from '../src/domain/content-type/query-indexes';
import { LONG_TYPES } from '../projections/content-tables/schema';
import type { QueryShape, ShapeCondition } from './query-shape';
import type { ShapeStats } from './query-shape-recorder';

/**
 * Which query index serves a query shape, and whether the advisor should declare it. A b-tree
 * within a stage holds the equality-filtered fields first (each value one range of the index),
 * then the sorted fields (a page reads the index in order and stops), or the range-filtered
 * field; a sorted page with a range on another field gets `sort, id, range`: the exact order of
 * the page, testing the range in each entry. An aggregate gets a covering index: the equality
 * fields, the range field (so only the matching entries are read), then the group field and the
 * aggregated one, read from the index alone. A text condition gets its text index.
 */

const SYSTEM_DATES: ReadonlySet<string> = new Set(['createdAt', 'updatedAt', 'publishedAt']);
const RANGE_OPERATORS: ReadonlySet<string> = new Set(['gt', 'gte', 'lt', 'lte', 'in']);

/** The fields of the type with a typed column, by key (a table generation's fields). */
export type ColumnTypes = ReadonlyMap<string, FieldType>;

/** `id` in a shape is the item id, which the table's own `(stage, itemId)` index serves; in an index it is the final key of every order. */
const indexable = (key: string, columns: ColumnTypes) => key !== 'id' && (SYSTEM_DATES.has(key) || INDEXABLE_FIELD_TYPES.has(columns.get(key)!));

function textKind(condition: ShapeCondition, columns: ColumnTypes): TextIndexKind | null {
  if (!TEXT_INDEXED_FIELD_TYPES.has(columns.get(condition.fieldKey)!)) return null;
  if (condition.operator === 'start') return condition.caseInsensitive ? 'prefix-folded' : 'prefix';
  return condition.operator === 'contains' || condition.operator === 'end' ? 'substring' : null;
}

const unique = (keys: readonly string[]) => [...new Set(keys)];
const ascending = (key: string) => ({ key, direction: 'asc' as const });

/** The index that would serve `shape` on a table with `columns`; null when none would (as-of shapes: the advisor leaves the versions table lean). */
export function adviceFor(shape: QueryShape, columns: ColumnTypes): QueryIndex | null {
  if (shape.asOf) return null;
  const equal = unique(shape.conditions.filter((condition) => condition.operator === 'e' && indexable(condition.fieldKey, columns)).map((condition) => condition.fieldKey));
  const ranged = unique(shape.conditions.filter((condition) => RANGE_OPERATORS.has(condition.operator) && indexable(condition.fieldKey, columns)).map((condition) => condition.fieldKey)).filter(
    (key) => !equal.includes(key),
  );
  if (shape.kind === 'list') {
    const text = shape.conditions.map((condition) => ({ key: condition.fieldKey, kind: textKind(condition, columns) })).find((candidate) => candidate.kind !== null);
    if (text && equal.length === 0) return { fields: [ascending(text.key)], text: text.kind! };
    return bTree(equal, ranged, shape, columns);
  }
  // Read from the index alone: the filter's fields, then the grouped and aggregated values. An
  // ordinary index holds a key of a long column's values, not the values: a group by one needs a
  // covering index, which holds them whole. An aggregated long value (a count of a Text field) is
  // left to the rows: only the grouped aggregates read through a covering index's two parts.
  const aggregate = shape.aggregate!;
  const long = (key: string) => LONG_TYPES.has(columns.get(key)!);
  const groupKey = aggregate.groupByFieldKey !== undefined && indexable(aggregate.groupByFieldKey, columns) ? aggregate.groupByFieldKey : undefined;
  const covering = groupKey !== undefined && long(groupKey);
  const read = [aggregate.groupByFieldKey, aggregate.fieldKey].filter((key): key is string => key !== undefined);
  const covered = read.filter((key) => indexable(key, columns) && (!long(key) || (covering && key === groupKey)));
  // Without a filter to narrow it, an index that does not hold every value read saves nothing over the table.
  if (equal.length === 0 && ranged.length === 0 && covered.length < read.length) return null;
  const keys = unique([...equal, ...ranged.slice(0, 1), ...covered]).slice(0, MAX_QUERY_INDEX_FIELDS);
  if (keys.length === 0) return null;
  return covering && keys.includes(groupKey) ? { fields: keys.map(ascending), covering: true } : { fields: keys.map(ascending) };
}

function bTree(equal: readonly string[], ranged: readonly string[], shape: QueryShape, columns: ColumnTypes): QueryIndex | null {
  const fields: QueryIndex['fields'] = equal.slice(0, MAX_QUERY_INDEX_FIELDS).map(ascending);
  const sortable = shape.order.length > 0 && shape.order.every((key) => indexable(key.fieldKey, columns) && !equal.includes(key.fieldKey));
  if (sortable && fields.length + shape.order.length <= MAX_QUERY_INDEX_FIELDS) {
    fields.push(...shape.order.map((key) => ({ key: key.fieldKey, direction: key.direction })));
    const range = ranged.find((key) => !shape.order.some((sorted) => sorted.fieldKey === key));
    if (range && fields.length + 2 <= MAX_QUERY_INDEX_FIELDS) fields.push(ascending('id'), ascending(range));
  } else if (ranged.length > 0 && fields.length < MAX_QUERY_INDEX_FIELDS) {
    fields.push(ascending(ranged[0]!));
  }
  return fields.length === 0 ? null : { fields };
}

/**
 * The type's index that serves what `advice` would: the same, or a b-tree of the same kind that
 * `advice` is a prefix of (a covering index holds its long values whole only for the rows whose
 * values are short, so it serves aggregates, not pages; an ordinary one cannot cover a long group).
 */
export function servingIndex(advice: QueryIndex, indexes: readonly QueryIndex[]): QueryIndex | null {
  const signature = indexSignature(advice);
  return (
    indexes.find((index) => indexSignature(index) === signature) ??
    (advice.text
      ? null
      : (indexes.find(
          (index) =>
            !index.text &&
            (index.covering === true) === (advice.covering === true) &&
            advice.fields.every((field, position) => index.fields[position]?.key === field.key && index.fields[position]?.direction === field.direction),
        ) ?? null))
  );
}

export interface AdvisorThresholds {
  readonly enabled: boolean;
  /** Queries of a shape in the recent window before it is worth an index (slower shapes need fewer: costlyEnough). */
  readonly minCount: number;
  /** Their mean time, in milliseconds. */
  readonly minMeanMs: number;
  /** Advised indexes per type at most. */
  readonly budget: number;
}

/**
 * Where a shape stands: `indexed` (an index of the type serves it), `candidate` (frequent and slow:
 * the advisor declares its index on its next pass), `below-threshold`, `forbidden` (an operator
 * forbade its index), `over-budget` (the type has its budget of advised indexes), `unindexable`
 * (no index would serve it), `advisor-off`.
 */
export type ShapeStatus = 'indexed' | 'candidate' | 'below-threshold' | 'forbidden' | 'over-budget' | 'unindexable' | 'advisor-off';

export interface ShapeAssessment {
  readonly advice: QueryIndex | null;
  /** Who keeps the index that serves it, when one does. */
  readonly servedBy: QueryIndexOrigin | null;
  readonly status: ShapeStatus;
}

export interface TypeIndexes {
  readonly columns: ColumnTypes;
  readonly indexes: readonly QueryIndex[];
  readonly forbidden: readonly QueryIndex[];
}

/** Fewer queries than this never make a shape worth an index, however slow: one-off reports stay unindexed. */
export const MIN_SAMPLES = 10;

/**
 * Slow on average, and costly in all: the time its recent queries took is what `minCount`
 * queries at `minMeanMs` would take. A shape of 3 s queries qualifies after a few, where one of
 * 10 ms needs `minCount` of them: at load a slow shape completes few queries, and those are the
 * ones an index saves most.
 */
function costlyEnough(stats: ShapeStats, thresholds: AdvisorThresholds): boolean {
  if (stats.recentCount < Math.min(thresholds.minCount, MIN_SAMPLES)) return false;
  return stats.recentTotalMs / stats.recentCount >= thresholds.minMeanMs && stats.recentTotalMs >= thresholds.minCount * thresholds.minMeanMs;
}

export function assess(stats: ShapeStats, type: TypeIndexes, thresholds: AdvisorThresholds): ShapeAssessment {
  const advice = adviceFor(stats.shape, type.columns);
  if (!advice) return { advice, servedBy: null, status: 'unindexable' };
  const serving = servingIndex(advice, type.indexes);
  if (serving) return { advice, servedBy: originOf(serving), status: 'indexed' };
  const without = { advice, servedBy: null };
  if (!thresholds.enabled) return { ...without, status: 'advisor-off' };
  if (type.forbidden.some((index) => indexSignature(index) === indexSignature(advice))) return { ...without, status: 'forbidden' };
  if (!costlyEnough(stats, thresholds)) return { ...without, status: 'below-threshold' };
  if (type.indexes.filter((index) => originOf(index) === 'advised').length >= thresholds.budget) return { ...without, status: 'over-budget' };
  return { ...without, status: 'candidate' };
}
