import { isDeepStrictEqual } from 'node:util';

/** Equal as JSON: key order and members holding undefined do not count (a read model's JSONB keeps neither). */
export const sameJson = (a: unknown, b: unknown): boolean => isDeepStrictEqual(asJson(a), asJson(b));

const asJson = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
