import type { SeededRandom } from '../../support/seeded-random';
import { nested, wrongValue } from './values';

/** Field keys of the fixture content type, with a value of the right type for each. */
const FIELDS: Record<string, unknown> = { title: 'fuzz', price: 3, inStock: true, released: '2026-01-01T00:00:00Z', tags: 'json', maker: 'id', serial: 'x' };
const OPERATORS = ['e', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'start', 'end', 'contains', 'noe', 'nnoe'];

const condition = (fieldKey: unknown, operator: unknown, value: unknown, extra: Record<string, unknown> = {}) => ({ type: 'condition', fieldKey, operator, value, ...extra });

/** A filter the translator must refuse (or, for a wrong value type it can convert, may accept). */
export function badFilter(random: SeededRandom): { filter: unknown; mayBeValid: boolean } {
  const field = random.pick(Object.keys(FIELDS));
  const operator = random.pick(OPERATORS);
  const deep = (depth: number): unknown => {
    let node: unknown = condition('price', 'gt', 1);
    for (let level = 0; level < depth; level++) node = random.chance(0.5) ? { type: 'and', conditions: [node] } : { type: 'not', condition: node };
    return node;
  };
  return random.pick<() => { filter: unknown; mayBeValid: boolean }>([
    () => ({ filter: condition(field, random.pick(['eq', 'like', '$where', 'regex', '', 'E ', 'in;drop', 'gt\u0000']), 1), mayBeValid: false }),
    () => ({ filter: condition(random.pick(['nope', '', 'fields.title', '__proto__', "title'; drop table x;--", 'a'.repeat(5000)]), 'e', 1), mayBeValid: false }),
    () => ({ filter: condition(field, operator, wrongValue(random, FIELDS[field])), mayBeValid: true }),
    () => ({ filter: condition(field, random.pick(['in', 'nin']), random.pick([1, 'a', {}, null, Array.from({ length: 501 }, (_, index) => index)])), mayBeValid: false }),
    () => ({ filter: condition(random.pick(['price', 'inStock', 'released']), random.pick(['start', 'end', 'contains']), 'x'), mayBeValid: false }),
    () => ({ filter: condition('title', 'e', 'x', { caseInsensitive: random.pick([1, 'yes', {}, []]) }), mayBeValid: false }),
    () => ({ filter: deep(11 + random.int(200)), mayBeValid: false }),
    () => ({ filter: { type: 'or', conditions: Array.from({ length: 101 + random.int(400) }, () => condition('price', 'gt', 1)) }, mayBeValid: false }),
    () => ({ filter: { type: random.pick(['and', 'or']), conditions: random.pick([[], {}, null, 'x', [null], [1], [[]]]) }, mayBeValid: false }),
    () => ({ filter: { type: 'not', condition: condition('price', 'gt', 1), conditions: [condition('price', 'gt', 1)] }, mayBeValid: false }),
    () => ({ filter: { type: 'not', conditions: [condition('price', 'gt', 1), condition('price', 'lt', 5)] }, mayBeValid: false }),
    () => ({ filter: { type: random.pick(['xor', '', null, 1, {}, 'CONDITION ']), conditions: [] }, mayBeValid: false }),
    () => ({ filter: random.pick([1, 'filter', true, [], [condition('price', 'gt', 1)]]), mayBeValid: false }),
    () => ({ filter: nested(50 + random.int(200)), mayBeValid: false }),
    () => ({ filter: condition('serial', 'e', 'x'), mayBeValid: false }),
    () => ({ filter: condition('released', 'gt', random.pick(['yesterday', '99999-01-01T00:00:00Z', '2026-13-01T00:00:00Z', -1e20])), mayBeValid: false }),
  ])();
}

/** An order the translator must refuse. */
export function badOrder(random: SeededRandom): unknown {
  return random.pick<unknown>([
    { fieldKey: 'nope', sortDir: 'Asc' },
    { fieldKey: 'price', sortDir: 'sideways' },
    { fieldKey: 'tags', sortDir: 'Asc' },
    { fieldKey: 'serial', sortDir: 'Desc' },
    { fieldKey: 1, sortDir: 'Asc' },
    { type: 'group', fieldKey: 'price' },
    Array.from({ length: 11 }, () => ({ fieldKey: 'price' })),
    [null],
    'price desc',
    42,
  ]);
}
