import type { FieldType } from '../src/domain/content-type/definition';
import { INSTANT_RANGE, readInstant } from '../src/domain/content/instant';
import { DomainError } from '../src/domain/errors';
import {
  LIST_OPERATORS,
  OPERATORS,
  PRESENCE_OPERATORS,
  TEXT_OPERATORS,
  type Condition,
  type Filter,
  type Operator,
  type Scalar,
  type SortKey,
} from '../infra/readstore/query';

/**
 * Translates the filter and order of content queries, as clients write them (SERVICE-SPEC
 * "Filter tree and order", CONTRACT "Filters"), into the neutral language of the read
 * store. The input is untrusted JSON: every shape is checked, values are converted to the
 * type the field is stored with, and each refusal names the JSON path of its input.
 */

/** Field key of a content type -> its type. */
export type FieldTypes = ReadonlyMap<string, FieldType>;

export const MAX_FILTER_DEPTH = 10;
export const MAX_FILTER_CONDITIONS = 100;
/** Keeps one filter well under PostgreSQL's 65535 bind parameters: 100 lists of 500. */
export const MAX_LIST_VALUES = 500;
export const MAX_SORT_KEYS = 10;
/**
 * The values of start, end and contains conditions of one filter, together. LIKE compares
 * them at every position of every value scanned (time up to value length x pattern length,
 * per condition), and PGlite cannot time a statement out: this bounds the worst read.
 */
export const MAX_FILTER_TEXT_LENGTH = 200;

/** A filter or order the client wrote is invalid; `field` is the JSON path of the offending input. */
export class ContentQueryError extends DomainError {
  constructor(
    override readonly field: string,
    message: string,
  ) {
    super('invalid', message, field);
    this.name = 'ContentQueryError';
  }
}

// ---------------------------------------------------------------------------------------
// Fields

type ValueKind = 'string' | 'number' | 'boolean' | 'datetime' | 'json' | 'references';

/** Where a field lives in the stored content document and how it may be queried. */
interface QueryField {
  readonly path: string;
  readonly kind: ValueKind;
  /** start, end and contains apply. */
  readonly text: boolean;
  readonly filterable: boolean;
  readonly sortable: boolean;
}

const SYSTEM_DATE: Omit<QueryField, 'path'> = { kind: 'datetime', text: false, filterable: true, sortable: true };

const SYSTEM_FIELDS: ReadonlyMap<string, QueryField> = new Map([
  ['id', { path: 'itemId', kind: 'string', text: true, filterable: true, sortable: true }],
  ['createdAt', { path: 'createdAt', ...SYSTEM_DATE }],
  ['updatedAt', { path: 'updatedAt', ...SYSTEM_DATE }],
  ['publishedAt', { path: 'publishedAt', ...SYSTEM_DATE }],
]);

const CONTENT_FIELDS: Record<FieldType, Omit<QueryField, 'path'>> = {
  Text: { kind: 'string', text: true, filterable: true, sortable: true },
  RichText: { kind: 'string', text: true, filterable: true, sortable: true },
  Number: { kind: 'number', text: false, filterable: true, sortable: true },
  Boolean: { kind: 'boolean', text: false, filterable: true, sortable: true },
  DateTime: { kind: 'datetime', text: false, filterable: true, sortable: true },
  Relation: { kind: 'string', text: false, filterable: true, sortable: true },
  Media: { kind: 'string', text: false, filterable: true, sortable: true },
  References: { kind: 'references', text: false, filterable: true, sortable: false },
  Json: { kind: 'json', text: false, filterable: true, sortable: false },
  Encrypted: { kind: 'string', text: false, filterable: false, sortable: false },
};

type Use = 'filtered' | 'sorted';

/** System fields come first: a content field named like one (`id`) cannot be queried. */
function resolveField(fieldKey: unknown, fieldTypes: FieldTypes, use: Use, at: string): QueryField {
  const key = requireString(fieldKey, at);
  const system = SYSTEM_FIELDS.get(key);
  if (system) return system;
  const type = fieldTypes.get(key);
  if (type === undefined) throw new ContentQueryError(at, `unknown field ${quote(key)}`);
  const field: QueryField = { path: `fields.${key}`, ...CONTENT_FIELDS[type] };
  if (!(use === 'filtered' ? field.filterable : field.sortable)) {
    throw new ContentQueryError(at, `field ${quote(key)} of type ${type} cannot be ${use}`);
  }
  return field;
}

// ---------------------------------------------------------------------------------------
// Filter

interface FilterWalk {
  readonly fieldTypes: FieldTypes;
  readonly root: string;
  conditions: number;
  textLength: number;
}

/** `undefined`, `null` and `{}` mean no filter. */
export function translateContentFilter(input: unknown, fieldTypes: FieldTypes, root = 'filter'): Filter | undefined {
  if (input === undefined || input === null) return undefined;
  if (isRecord(input) && Object.keys(input).length === 0) return undefined;
  return translateNode(input, root, 1, { fieldTypes, root, conditions: 0, textLength: 0 });
}

function translateNode(input: unknown, at: string, depth: number, walk: FilterWalk): Filter {
  if (depth > MAX_FILTER_DEPTH) throw new ContentQueryError(at, `nests deeper than ${MAX_FILTER_DEPTH} levels`);
  const node = requireRecord(input, at);
  const type = readNodeType(node.type, `${at}.type`);
  switch (type) {
    case 'and':
    case 'or':
      return { type, conditions: translateChildren(node.conditions, `${at}.conditions`, depth, walk) };
    case 'not':
      return { type, condition: translateNotOperand(node, at, depth, walk) };
    case 'condition':
      return translateCondition(node, at, walk);
  }
}

const NODE_TYPES = ['and', 'or', 'not', 'condition'] as const;
type NodeType = (typeof NODE_TYPES)[number];

function readNodeType(value: unknown, at: string): NodeType {
  const type = requireString(value, at).toLowerCase();
  const known = NODE_TYPES.find((candidate) => candidate === type);
  if (!known) throw new ContentQueryError(at, `must be one of ${NODE_TYPES.join(', ')}`);
  return known;
}

function translateChildren(value: unknown, at: string, depth: number, walk: FilterWalk): Filter[] {
  const children = requireFilterList(value, at);
  return children.map((child, index) => translateNode(child, `${at}.${index}`, depth + 1, walk));
}

function requireFilterList(value: unknown, at: string): unknown[] {
  if (value === undefined || value === null) throw new ContentQueryError(at, 'is required');
  if (!Array.isArray(value)) throw new ContentQueryError(at, 'must be an array of filters');
  if (value.length === 0) throw new ContentQueryError(at, 'must not be empty');
  return value;
}

/** `not` takes its one operand as `condition`, or as `conditions` holding exactly one filter. */
function translateNotOperand(node: Record<string, unknown>, at: string, depth: number, walk: FilterWalk): Filter {
  const single = node.condition ?? undefined;
  const list = node.conditions ?? undefined;
  if (single !== undefined && list !== undefined) throw new ContentQueryError(at, 'not takes either condition or conditions, not both');
  if (single !== undefined) return translateNode(single, `${at}.condition`, depth + 1, walk);
  if (list === undefined) throw new ContentQueryError(`${at}.condition`, 'is required');
  const operands = requireFilterList(list, `${at}.conditions`);
  if (operands.length !== 1) throw new ContentQueryError(`${at}.conditions`, 'must hold exactly one filter for not');
  return translateNode(operands[0], `${at}.conditions.0`, depth + 1, walk);
}

function translateCondition(node: Record<string, unknown>, at: string, walk: FilterWalk): Filter {
  countCondition(walk);
  const field = resolveField(node.fieldKey, walk.fieldTypes, 'filtered', `${at}.fieldKey`);
  const operator = readOperator(node.operator, `${at}.operator`);
  if (field.kind === 'references') return referencesCondition(node, field, operator, at);
  const caseInsensitive = readCaseInsensitive(node.caseInsensitive, operator, `${at}.caseInsensitive`);
  const value = operandValue(operator, field, node.value, at, walk);
  return {
    type: 'condition',
    field: field.path,
    operator,
    ...(value === undefined ? {} : { value }),
    ...(caseInsensitive ? { caseInsensitive } : {}),
  };
}

/**
 * A References field holds an ordered list of item ids: `contains` an id, `in` (holds any of)
 * and `nin` (holds none of) a list of ids, and noe / nnoe (an empty list or none).
 */
function referencesCondition(node: Record<string, unknown>, field: QueryField, operator: Operator, at: string): Filter {
  if (operator === 'noe' || operator === 'nnoe') return { type: 'condition', field: field.path, operator };
  if (operator !== 'contains' && operator !== 'in' && operator !== 'nin') {
    throw new ContentQueryError(`${at}.operator`, `operator ${operator} does not apply to a References field; use contains (an id), in or nin (a list of ids), noe or nnoe`);
  }
  if (node.caseInsensitive === true) throw new ContentQueryError(`${at}.caseInsensitive`, 'does not apply to a References field');
  const ids = operator === 'contains' ? [toText(node.value ?? undefined, `${at}.value`)] : listOperand(node.value, { ...field, kind: 'string' }, `${at}.value`).filter((id) => id !== null);
  const includes: Condition = { type: 'condition', field: field.path, operator: 'includes', value: ids };
  return operator === 'nin' ? { type: 'not', condition: includes } : includes;
}

function countCondition(walk: FilterWalk): void {
  walk.conditions += 1;
  if (walk.conditions > MAX_FILTER_CONDITIONS) throw new ContentQueryError(walk.root, `has more than ${MAX_FILTER_CONDITIONS} conditions`);
}

function readOperator(value: unknown, at: string): Operator {
  const name = requireString(value, at);
  const operator = OPERATORS.find((candidate) => candidate === name.toLowerCase());
  if (!operator) throw new ContentQueryError(at, `unknown operator ${quote(name)}; expected one of ${OPERATORS.join(', ')}`);
  return operator;
}

const isOneOf = (operators: readonly Operator[], operator: Operator): boolean => operators.includes(operator);

/** Only the text operators fold case; `false` is accepted anywhere and dropped. */
function readCaseInsensitive(value: unknown, operator: Operator, at: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new ContentQueryError(at, 'must be a boolean');
  if (value && !isOneOf(TEXT_OPERATORS, operator)) throw new ContentQueryError(at, `applies only to ${TEXT_OPERATORS.join(', ')}`);
  return value;
}

/** The condition's value, converted to the field's stored type; undefined for noe and nnoe. */
function operandValue(operator: Operator, field: QueryField, value: unknown, at: string, walk: FilterWalk): Scalar | Scalar[] | undefined {
  if (isOneOf(PRESENCE_OPERATORS, operator)) return undefined;
  if (isOneOf(LIST_OPERATORS, operator)) return listOperand(value, field, `${at}.value`);
  if (isOneOf(TEXT_OPERATORS, operator)) return textOperand(operator, value, field, at, walk);
  return singleOperand(value, field, operator === 'e' || operator === 'ne', `${at}.value`);
}

/** e and ne accept null (null or missing); the ordered comparisons need a value. */
function singleOperand(value: unknown, field: QueryField, nullable: boolean, at: string): Scalar {
  if (value === undefined) throw new ContentQueryError(at, 'is required');
  if (value === null) {
    if (nullable) return null;
    throw new ContentQueryError(at, 'must not be null');
  }
  return convertValue(value, field.kind, at);
}

/** Elements may be null, which matches null or missing as with e. */
function listOperand(value: unknown, field: QueryField, at: string): Scalar[] {
  if (value === undefined || value === null) throw new ContentQueryError(at, 'is required');
  if (!Array.isArray(value)) throw new ContentQueryError(at, 'must be an array');
  if (value.length > MAX_LIST_VALUES) throw new ContentQueryError(at, `must hold at most ${MAX_LIST_VALUES} values`);
  return value.map((item: unknown, index) => (item === null ? null : convertValue(item, field.kind, `${at}.${index}`)));
}

function textOperand(operator: Operator, value: unknown, field: QueryField, at: string, walk: FilterWalk): string {
  if (!field.text) throw new ContentQueryError(`${at}.operator`, `operator ${operator} applies only to Text and RichText fields and id`);
  if (value === undefined || value === null) throw new ContentQueryError(`${at}.value`, 'is required');
  const text = toText(value, `${at}.value`);
  walk.textLength += text.length;
  if (walk.textLength > MAX_FILTER_TEXT_LENGTH) {
    throw new ContentQueryError(`${at}.value`, `the values of ${TEXT_OPERATORS.join(', ')} in one filter may hold at most ${MAX_FILTER_TEXT_LENGTH} characters together`);
  }
  return text;
}

// ---------------------------------------------------------------------------------------
// Values: each converter receives a non-null value and returns it as the field stores it.

const CONVERTERS: Record<Exclude<ValueKind, 'references'>, (value: unknown, at: string) => Scalar> = {
  string: toText,
  number: toNumber,
  boolean: toBoolean,
  datetime: toDateTime,
  json: toJsonScalar,
};

function convertValue(value: unknown, kind: ValueKind, at: string): Scalar {
  if (kind === 'references') throw new ContentQueryError(at, 'a References field is compared with contains, in or nin');
  return CONVERTERS[kind](value, at);
}

function toText(value: unknown, at: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new ContentQueryError(at, 'must be a string');
}

/** Decimal notation only: Number() would also read '', ' ', '0x10' and 'Infinity'. */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

function toNumber(value: unknown, at: string): number {
  const number = typeof value === 'string' ? parseDecimal(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) throw new ContentQueryError(at, 'must be a number');
  return number;
}

function parseDecimal(text: string): number {
  return DECIMAL.test(text.trim()) ? Number(text) : NaN;
}

function toBoolean(value: unknown, at: string): boolean {
  if (typeof value === 'boolean') return value;
  const text = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
  if (text === 'true' || text === 'false') return text === 'true';
  throw new ContentQueryError(at, 'must be true or false');
}

function toDateTime(value: unknown, at: string): string {
  if (typeof value !== 'string') throw new ContentQueryError(at, 'must be a date-time string');
  const reading = readInstant(value);
  if ('problem' in reading) throw new ContentQueryError(at, reading.problem === 'unreadable' ? 'must be a valid date-time' : INSTANT_RANGE);
  return reading.instant;
}

/** Json fields hold any JSON; a filter compares them with a scalar as given. */
function toJsonScalar(value: unknown, at: string): Scalar {
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw new ContentQueryError(at, 'must be a string, number, boolean or null');
}

// ---------------------------------------------------------------------------------------
// Order

/**
 * One sort key object, or an array of them applied in order. `undefined`, `null` and `{}`
 * mean no order.
 */
export function translateContentOrder(input: unknown, fieldTypes: FieldTypes, root = 'order'): SortKey[] {
  if (input === undefined || input === null) return [];
  if (Array.isArray(input)) return translateSortKeys(input, fieldTypes, root);
  if (isRecord(input) && Object.keys(input).length === 0) return [];
  return [translateSortKey(input, fieldTypes, root)];
}

function translateSortKeys(keys: unknown[], fieldTypes: FieldTypes, at: string): SortKey[] {
  if (keys.length > MAX_SORT_KEYS) throw new ContentQueryError(at, `must hold at most ${MAX_SORT_KEYS} sort keys`);
  return keys.map((key, index) => translateSortKey(key, fieldTypes, `${at}.${index}`));
}

function translateSortKey(input: unknown, fieldTypes: FieldTypes, at: string): SortKey {
  const key = requireRecord(input, at);
  readSortKeyType(key.type, `${at}.type`);
  const field = resolveField(key.fieldKey, fieldTypes, 'sorted', `${at}.fieldKey`);
  return { field: field.path, direction: readDirection(key.sortDir, `${at}.sortDir`) };
}

/** Optional; the spec's examples carry `type: condition`. */
function readSortKeyType(value: unknown, at: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'string' || value.toLowerCase() !== 'condition') throw new ContentQueryError(at, 'must be condition when given');
}

function readDirection(value: unknown, at: string): SortKey['direction'] {
  if (value === undefined || value === null) return 'asc';
  const direction = typeof value === 'string' ? value.toLowerCase() : undefined;
  if (direction === 'asc' || direction === 'desc') return direction;
  throw new ContentQueryError(at, 'must be Asc or Desc');
}

// ---------------------------------------------------------------------------------------
// Shapes

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function requireRecord(value: unknown, at: string): Record<string, unknown> {
  if (!isRecord(value)) throw new ContentQueryError(at, 'must be an object');
  return value;
}

function requireString(value: unknown, at: string): string {
  if (value === undefined || value === null || value === '') throw new ContentQueryError(at, 'is required');
  if (typeof value !== 'string') throw new ContentQueryError(at, 'must be a string');
  return value;
}

/** Quotes client text in a message, cut short so an abusive input is not echoed whole. */
function quote(text: string): string {
  return JSON.stringify(text.length > 100 ? `${text.slice(0, 100)}…` : text);
}
