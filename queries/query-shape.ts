import { createHash } from 'node:crypto';
import type { AggregateOperation, Filter, Operator, SortKey } from '../infra/readstore/query';

/**
 * The shape of a content query: what it filters on with which operators, how it orders, what it
 * aggregates, with every value left out. Queries of one shape are served by the same index, so
 * the service counts and times them by shape (./query-shape-recorder.ts) and the advisor picks
 * indexes for the frequent slow ones (./index-advice.ts). Fields are named by the keys clients
 * use (`price`, `id`, `createdAt`), as query indexes name them.
 */

/** A list (or its ids), an aggregate, a grouped aggregate. */
export type ShapeKind = 'list' | 'aggregate' | 'group';

export interface ShapeCondition {
  readonly fieldKey: string;
  readonly operator: Operator;
  readonly caseInsensitive?: true;
}

export interface ShapeOrder {
  readonly fieldKey: string;
  readonly direction: 'asc' | 'desc';
}

export interface ShapeAggregate {
  readonly fieldKey: string;
  readonly operation: AggregateOperation;
  readonly groupByFieldKey?: string;
}

export interface QueryShape {
  /** Tells shapes apart: a digest of everything below. */
  readonly key: string;
  readonly kind: ShapeKind;
  /** Asked with `asOf` (the versions table serves it). */
  readonly asOf: boolean;
  /** The filter without its values, `category e and price gte`; cut at MAX_SHAPE_TEXT characters. Empty: none. */
  readonly filter: string;
  /** The conditions the whole filter requires (it is one, or an `and` of them), each once, the first MAX_SHAPE_CONDITIONS by field: what an index can serve. */
  readonly conditions: readonly ShapeCondition[];
  readonly order: readonly ShapeOrder[];
  readonly aggregate?: ShapeAggregate;
}

/** A filter of 100 conditions on long field keys would make a long text; the key still tells it apart. */
export const MAX_SHAPE_TEXT = 500;
/** Conditions kept for advice (an index names three fields at most): a shape's memory stays a few kilobytes. */
export const MAX_SHAPE_CONDITIONS = 16;

export interface ShapeInput {
  readonly kind: ShapeKind;
  readonly asOf: boolean;
  /** The client's filter as translated for the read store (no scope conditions). */
  readonly filter: Filter | undefined;
  readonly sort?: readonly SortKey[];
  readonly aggregate?: { readonly field: string; readonly operation: AggregateOperation; readonly groupBy?: string };
}

/** The stored path of a field (queries/content-filter.ts) as clients name it. */
export function fieldKeyOf(path: string): string {
  if (path.startsWith('fields.')) return path.slice('fields.'.length);
  return path === 'itemId' ? 'id' : path;
}

export function shapeOf(input: ShapeInput): QueryShape {
  const text = input.filter ? filterText(input.filter, true) : '';
  const order = (input.sort ?? []).map((key) => ({ fieldKey: fieldKeyOf(key.field), direction: key.direction }));
  const aggregate = input.aggregate
    ? { fieldKey: fieldKeyOf(input.aggregate.field), operation: input.aggregate.operation, ...(input.aggregate.groupBy ? { groupByFieldKey: fieldKeyOf(input.aggregate.groupBy) } : {}) }
    : undefined;
  const key = createHash('sha256').update(JSON.stringify([input.kind, input.asOf, text, order, aggregate ?? null])).digest('hex').slice(0, 16);
  return {
    key,
    kind: input.kind,
    asOf: input.asOf,
    filter: text.length > MAX_SHAPE_TEXT ? `${text.slice(0, MAX_SHAPE_TEXT - 1)}…` : text,
    conditions: input.filter ? requiredConditions(input.filter) : [],
    order,
    ...(aggregate ? { aggregate } : {}),
  };
}

/** And and or are commutative, so their parts are sorted: `b and a` is the shape of `a and b`. */
function filterText(filter: Filter, top: boolean): string {
  switch (filter.type) {
    case 'condition':
      return `${fieldKeyOf(filter.field)} ${filter.operator}${filter.caseInsensitive ? ' ci' : ''}`;
    case 'not':
      return `not ${filterText(filter.condition, false)}`;
    case 'and':
    case 'or': {
      const parts = (filter.type === 'and' ? flattenAnd(filter.conditions) : filter.conditions).map((part) => filterText(part, false)).sort();
      const joined = parts.join(` ${filter.type} `);
      return top || parts.length === 1 ? joined : `(${joined})`;
    }
  }
}

function flattenAnd(conditions: readonly Filter[]): Filter[] {
  return conditions.flatMap((condition) => (condition.type === 'and' ? flattenAnd(condition.conditions) : [condition]));
}

function requiredConditions(filter: Filter): ShapeCondition[] {
  const parts = filter.type === 'and' ? flattenAnd(filter.conditions) : [filter];
  const seen = new Map<string, ShapeCondition>();
  for (const part of parts) {
    if (part.type !== 'condition') continue;
    const condition: ShapeCondition = { fieldKey: fieldKeyOf(part.field), operator: part.operator, ...(part.caseInsensitive ? { caseInsensitive: true as const } : {}) };
    seen.set(JSON.stringify(condition), condition);
  }
  const sorted = [...seen.values()].sort((a, b) => (a.fieldKey < b.fieldKey ? -1 : a.fieldKey > b.fieldKey ? 1 : a.operator < b.operator ? -1 : a.operator > b.operator ? 1 : 0));
  return sorted.slice(0, MAX_SHAPE_CONDITIONS);
}

/** `list where category e and price gte order price desc`, `group sum of price by category where price gte`. */
export function describeShape(shape: Pick<QueryShape, 'kind' | 'asOf' | 'filter' | 'order' | 'aggregate'>): string {
  const parts = [shape.asOf ? `${shape.kind} as of` : shape.kind];
  if (shape.aggregate) parts.push(`${shape.aggregate.operation} of ${shape.aggregate.fieldKey}${shape.aggregate.groupByFieldKey ? ` by ${shape.aggregate.groupByFieldKey}` : ''}`);
  if (shape.filter) parts.push(`where ${shape.filter}`);
  if (shape.order.length > 0) parts.push(`order ${shape.order.map((key) => `${key.fieldKey} ${key.direction}`).join(', ')}`);
  return parts.join(' ');
}
