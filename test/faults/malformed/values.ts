import type { SeededRandom } from '../../support/seeded-random';

/**
 * Bodies that are not JSON at all, or only just: `parseable` when a lenient reader still gets
 * an object out of it (a byte order mark, an empty body, bytes that are not UTF-8 in a string).
 */
export function notJson(random: SeededRandom, valid: string): { body: string | Buffer; parseable: boolean } {
  const cut = Math.max(1, random.int(valid.length));
  const broken = (body: string | Buffer) => ({ body, parseable: false });
  const lenient = (body: string | Buffer) => ({ body, parseable: true });
  return random.pick<() => { body: string | Buffer; parseable: boolean }>([
    () => broken(valid.slice(0, cut)),
    // A raw control character is invalid inside a JSON string and outside one.
    () => broken(`${valid.slice(0, cut)}\u0001${valid.slice(cut)}`),
    () => broken(valid.replace(/"/g, "'")),
    () => broken(valid.replace(/}$/, ',}')),
    () => broken(`${valid}${valid}`),
    () => broken(`{"a": NaN, "b": Infinity, "c": undefined}`),
    () => broken(`{/* comment */ "a": 1}`),
    () => broken('{"a": 1, "a": 2, "__proto__": }'),
    () => broken('{"\\q": 1}'),
    () => broken('{"a": "\\ud800"'),
    () => broken(Buffer.from(Array.from({ length: 1 + random.int(200) }, () => 0x80 + random.int(128)))),
    () => broken('null,'),
    () => broken('[1, 2'),
    () => broken('{"a": 01}'),
    () => broken('{"a": -}'),
    () => broken('"unterminated'),
    () => broken(`{"a": ${'['.repeat(200_000)}`),
    () => lenient(`\uFEFF${valid}`),
    () => lenient(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xae, 0x22, 0x7d])),
    () => lenient('{"a": 1e999999}'),
    () => lenient(''),
    () => lenient(' \n\t '),
  ])();
}

/** Valid JSON of the wrong shape for a body that must be an object. */
export function wrongRoot(random: SeededRandom): string {
  return random.pick(['null', '[]', '[{}]', '"text"', '42', '-1', 'true', 'false', '0.5', '"{}"', '[null]', '1e308']);
}

/** A value of a type other than `current`'s (or null, which optional fields may accept). */
export function wrongValue(random: SeededRandom, current: unknown): unknown {
  const candidates: unknown[] = [
    null,
    42,
    -1,
    0,
    1.5,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    true,
    false,
    '',
    'text',
    '-1',
    'NaN',
    '2026-13-45T99:99:99Z',
    '../../etc/passwd',
    '%00',
    '\u0000',
    '\ud83d',
    'x'.repeat(100_000),
    [],
    [1, 'a', null, {}],
    Array.from({ length: 2000 }, (_, index) => index),
    {},
    { $gt: '' },
    JSON.parse('{"__proto__": {"polluted": true}}'),
    { constructor: { prototype: { polluted: true } } },
    nested(300),
  ];
  for (;;) {
    const candidate = random.pick(candidates);
    if (typeof candidate !== typeof current || Array.isArray(candidate) !== Array.isArray(current) || candidate === null) return candidate;
  }
}

/** Objects or arrays nested `depth` deep: stack-hungry parsers and recursive walkers. */
export function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { a: value };
  return value;
}

/** The JSON text of `nested(depth)`, for depths that JSON.stringify itself cannot take. */
export function nestedText(depth: number): string {
  const levels = Array.from({ length: depth }, (_, level) => (level % 2 === 0 ? ['[', ']'] : ['{"a":', '}']));
  return `${levels.map(([open]) => open).reverse().join('')}"bottom"${levels.map(([, close]) => close).join('')}`;
}

/** Unknown and hostile keys next to the real ones. */
export function extraFields(random: SeededRandom): Record<string, unknown> {
  return random.pick<Record<string, unknown>>([
    { unknownField: 1 },
    JSON.parse('{"__proto__": {"isAdmin": true}}') as Record<string, unknown>,
    { constructor: { prototype: { isAdmin: true } } },
    { hasOwnProperty: 'no' },
    { toString: 1 },
    { '': '' },
    { ['x'.repeat(10_000)]: 1 },
    Object.fromEntries(Array.from({ length: 5000 }, (_, index) => [`k${index}`, index])),
  ]);
}
