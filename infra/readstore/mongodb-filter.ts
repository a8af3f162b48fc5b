import type { Document as MongoDocument, Filter as MongoFilter } from 'mongodb';
import type { AggregateOperation, Condition, Filter, SortKey } from './query';
import { listValue, pathSegments, scalarValue, stringList } from './conditions';
import { type MongoColumns, NO_MONGO_COLUMNS } from './mongodb-columns';

/** A read-model document as MongoDB holds it: the document id is `_id`. */
export interface StoredDocument {
  _id: string;
  [field: string]: unknown;
}

/** The MongoDB field path for a dot path; the document id lives in `_id`, a typed column's value in its typed field. */
export function mongoPath(path: string, columns: MongoColumns = NO_MONGO_COLUMNS): string {
  pathSegments(path);
  return path === 'id' ? '_id' : (columns.get(path) ?? path);
}

export function mongoFilter(filter: Filter | undefined, columns: MongoColumns = NO_MONGO_COLUMNS): MongoFilter<StoredDocument> {
  if (!filter) return {};
  const inner = (child: Filter) => mongoFilter(child, columns);
  switch (filter.type) {
    case 'and':
      return filter.conditions.length === 0 ? {} : { $and: filter.conditions.map(inner) };
    case 'or':
      return filter.conditions.length === 0 ? { $expr: false } : { $or: filter.conditions.map(inner) };
    case 'not':
      return { $nor: [inner(filter.condition)] };
    case 'condition':
      return { [mongoPath(filter.field, columns)]: conditionOperators(filter) };
    default:
      throw new Error(`unknown filter type: ${String((filter as { type: unknown }).type)}`);
  }
}

const EMPTY_VALUES = [null, '', []];

// MongoDB's own comparisons already match the query language: `$eq: null` and `$in: [null]`
// also match a missing field, `$ne` and `$nin` match it, and `$gt` and friends compare only
// values of the same type.
function conditionOperators(condition: Condition): MongoDocument {
  switch (condition.operator) {
    case 'e':
      return { $eq: scalarValue(condition) };
    case 'ne':
      return { $ne: scalarValue(condition) };
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const value = scalarValue(condition);
      if (value === null) throw new Error(`operator ${condition.operator} on ${condition.field} needs a non-null value`);
      return { [`$${condition.operator}`]: value };
    }
    case 'in':
      return { $in: listValue(condition) };
    case 'nin':
      return { $nin: listValue(condition) };
    case 'start':
    case 'end':
    case 'contains':
      return textRegex(condition);
    case 'includes':
      // $elemMatch matches arrays only: a string field equal to one of the values does not match.
      return { $elemMatch: { $in: stringList(condition) } };
    case 'noe':
      return { $in: EMPTY_VALUES };
    case 'nnoe':
      return { $nin: EMPTY_VALUES };
    default:
      throw new Error(`unknown filter operator: ${String(condition.operator)}`);
  }
}

function textRegex(condition: Condition): MongoDocument {
  const text = condition.value;
  if (typeof text !== 'string') throw new Error(`operator ${condition.operator} on ${condition.field} needs a string value`);
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // \z, unlike $, does not also match before a final line break.
  const pattern = condition.operator === 'start' ? `^${escaped}` : condition.operator === 'end' ? `${escaped}\\z` : escaped;
  return condition.caseInsensitive ? { $regex: pattern, $options: 'i' } : { $regex: pattern };
}

/** Sort keys ending in `_id` ascending so pages are stable; missing and null sort lowest. */
export function mongoSort(sort: readonly SortKey[] | undefined, columns: MongoColumns = NO_MONGO_COLUMNS, sortIsUnique = false): [string, 1 | -1][] {
  const keys = (sort ?? []).map((key): [string, 1 | -1] => {
    if (key.direction !== 'asc' && key.direction !== 'desc') throw new Error(`invalid sort direction: ${String(key.direction)}`);
    return [mongoPath(key.field, columns), key.direction === 'asc' ? 1 : -1];
  });
  return keys.some(([path]) => path === '_id') || (sortIsUnique && keys.length > 0) ? keys : [...keys, ['_id', 1]];
}

/**
 * A `$group` stage computing `value` and `numbers` (how many values were numeric) per
 * group; sum over no numbers is null, not MongoDB's 0, so callers use `numbers` to tell.
 */
export function groupStage(field: string, operation: AggregateOperation, groupBy: string | undefined, columns: MongoColumns = NO_MONGO_COLUMNS): MongoDocument {
  const value = `$${mongoPath(field, columns)}`;
  const isNumber = { $isNumber: value };
  return {
    $group: {
      _id: groupBy === undefined ? null : `$${mongoPath(groupBy, columns)}`,
      value: accumulator(operation, value, isNumber),
      numbers: { $sum: { $cond: [isNumber, 1, 0] } },
    },
  };
}

function accumulator(operation: AggregateOperation, value: string, isNumber: MongoDocument): MongoDocument {
  switch (operation) {
    case 'count':
      return { $sum: { $cond: [{ $in: [{ $type: value }, ['missing', 'null']] }, 0, 1] } };
    case 'sum':
    case 'avg':
      // Decimals are added, not binary fractions (0.1 + 0.2 is 0.3): a double converts with its 15 significant digits, as PostgreSQL's numeric does.
      // The accumulators skip null, so non-numeric values become null to take no part.
      return { [`$${operation}`]: { $cond: [isNumber, { $toDecimal: value }, null] } };
    case 'min':
    case 'max':
      return { [`$${operation}`]: { $cond: [isNumber, value, null] } };
    default:
      throw new Error(`unknown aggregate operation: ${String(operation)}`);
  }
}
