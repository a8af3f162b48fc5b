import type { Condition, Scalar } from './query';

/**
 * Input checks shared by every read-store translator, so a filter means the same and is
 * refused the same way on every engine. Path segments are letters, digits, `_` and `-`:
 * nothing that needs quoting in SQL or that MongoDB would read as an operator.
 */
const PATH_SEGMENT = /^[A-Za-z0-9_-]+$/;

export function pathSegments(path: string): string[] {
  const segments = path.split('.');
  if (!segments.every((segment) => PATH_SEGMENT.test(segment))) throw new Error(`invalid field path: ${path}`);
  return segments;
}

export function scalarValue(condition: Condition): Scalar {
  const value = condition.value;
  if (value === undefined || Array.isArray(value)) throw new Error(`operator ${condition.operator} on ${condition.field} needs a single value`);
  return checkedScalar(value as Scalar, condition);
}

export function listValue(condition: Condition): Scalar[] {
  const value = condition.value;
  if (!Array.isArray(value)) throw new Error(`operator ${condition.operator} on ${condition.field} needs an array value`);
  return (value as readonly Scalar[]).map((item) => checkedScalar(item, condition));
}

/** The strings of an `includes` condition. */
export function stringList(condition: Condition): string[] {
  const list = listValue(condition);
  if (!list.every((item): item is string => typeof item === 'string')) throw new Error(`operator ${condition.operator} on ${condition.field} needs an array of strings`);
  return list;
}

function checkedScalar(value: Scalar, condition: Condition): Scalar {
  const valid = value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
  if (!valid) throw new Error(`invalid value for ${condition.operator} on ${condition.field}: ${String(value)}`);
  return value;
}
