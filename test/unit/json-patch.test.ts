import { applyPatch } from 'rfc6902';
import { ARRAY_ALIGNMENT_CELLS, createPatch } from '../../src/domain/json-patch';
import { type SeededRandom, seededRandom } from '../support/seeded-random';

/** `patch` applied to a copy of `from` by an independent RFC 6902 implementation (the rfc6902 package's applyPatch). */
function applied(from: unknown, patch: ReturnType<typeof createPatch>): unknown {
  const document = { root: structuredClone(from) };
  const results = applyPatch(
    document,
    patch.map((operation) => ({ ...operation, path: `/root${operation.path}` })),
  );
  expect(results.filter((result) => result !== null)).toEqual([]);
  return document.root;
}

// No names of Object.prototype members: the rfc6902 package's applyPatch mistakes them for inherited ones (tested on their own below).
const KEYS = ['a', 'b', 'c', 'title', 'tilde~key', 'slash/key', '0', ''];

function randomValue(random: SeededRandom, depth: number): unknown {
  const kind = depth >= 4 ? random.int(4) : random.int(6);
  if (kind === 0) return random.int(5);
  if (kind === 1) return random.pick(['x', 'y', 'z', '']);
  if (kind === 2) return random.pick([true, false, null]);
  if (kind === 3) return random.int(100) / 7;
  if (kind === 4) return Array.from({ length: random.int(8) }, () => randomValue(random, depth + 1));
  const object: Record<string, unknown> = {};
  for (let n = random.int(5); n > 0; n--) Object.defineProperty(object, random.pick(KEYS), { value: randomValue(random, depth + 1), enumerable: true, writable: true, configurable: true });
  return object;
}

/** `value` with a few random edits: members added, removed or changed, array elements inserted, removed, changed or moved. */
function mutated(random: SeededRandom, value: unknown, depth: number): unknown {
  if (random.chance(0.1)) return randomValue(random, depth);
  if (Array.isArray(value)) {
    const copy = value.map((element) => (random.chance(0.3) ? mutated(random, element, depth + 1) : element));
    for (let n = random.int(3); n > 0; n--) {
      const edit = random.int(3);
      if (edit === 0) copy.splice(random.int(copy.length + 1), 0, randomValue(random, depth + 1));
      else if (edit === 1 && copy.length > 0) copy.splice(random.int(copy.length), 1);
      else if (copy.length > 1) copy.push(...copy.splice(random.int(copy.length), 1));
    }
    return copy;
  }
  if (typeof value === 'object' && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(value)) {
      if (random.chance(0.15)) continue;
      Object.defineProperty(copy, key, { value: random.chance(0.4) ? mutated(random, member, depth + 1) : member, enumerable: true, writable: true, configurable: true });
    }
    if (random.chance(0.3)) Object.defineProperty(copy, random.pick(KEYS), { value: randomValue(random, depth + 1), enumerable: true, writable: true, configurable: true });
    return copy;
  }
  return value;
}

describe('createPatch (RFC 6902 diff)', () => {
  it('answers a patch that turns the first value into the second, for 2,000 random pairs', () => {
    const random = seededRandom(6902);
    for (let n = 0; n < 2000; n++) {
      const from = { fields: randomValue(random, 1), translations: randomValue(random, 1) };
      const to = mutated(random, from, 0);
      const patch = createPatch(from, to);
      expect(applied(from, patch)).toEqual(to);
      expect(createPatch(from, structuredClone(from))).toEqual([]);
    }
  });

  it('names members and elements as the rfc6902 package did for ordinary edits', () => {
    expect(createPatch({ fields: { title: 'one', gone: 1 } }, { fields: { title: 'two', added: 2 } })).toEqual([
      { op: 'remove', path: '/fields/gone' },
      { op: 'add', path: '/fields/added', value: 2 },
      { op: 'replace', path: '/fields/title', value: 'two' },
    ]);
    expect(createPatch({ tags: ['a', 'b', 'c'] }, { tags: ['a', 'x', 'b', 'c'] })).toEqual([{ op: 'add', path: '/tags/1', value: 'x' }]);
    expect(createPatch({ tags: ['a', 'b', 'c'] }, { tags: ['a', 'c'] })).toEqual([{ op: 'remove', path: '/tags/1' }]);
    expect(createPatch({ list: [{ id: 1, n: 'a' }, { id: 2 }] }, { list: [{ id: 1, n: 'b' }, { id: 2 }] })).toEqual([{ op: 'replace', path: '/list/0/n', value: 'b' }]);
    expect(createPatch({ 'a/b': { 'c~d': 1 } }, { 'a/b': { 'c~d': 2 } })).toEqual([{ op: 'replace', path: '/a~1b/c~0d', value: 2 }]);
  });

  it('treats members named like Object.prototype members as data', () => {
    const from = JSON.parse('{"__proto__": {"x": 1}, "constructor": 1}') as unknown;
    const to = JSON.parse('{"__proto__": {"x": 2}, "toString": 2}') as unknown;
    expect(createPatch(from, to)).toEqual([
      { op: 'remove', path: '/constructor' },
      { op: 'add', path: '/toString', value: 2 },
      { op: 'replace', path: '/__proto__/x', value: 2 },
    ]);
    expect(createPatch({}, to)).toEqual([
      { op: 'add', path: '/__proto__', value: { x: 2 } },
      { op: 'add', path: '/toString', value: 2 },
    ]);
  });

  it('replaces a long array whose changes are everywhere in one operation, in linear time', () => {
    const length = 10_000;
    expect(length * length).toBeGreaterThan(ARRAY_ALIGNMENT_CELLS);
    const from = { list: Array.from({ length }, (_, index) => ({ n: index })) };
    const to = { list: [...from.list].reverse() };
    const patch = createPatch(from, to);
    expect(patch).toEqual([{ op: 'replace', path: '/list', value: to.list }]);
    expect(applied(from, patch)).toEqual(to);
  });

  it('shares its alignment budget across nested arrays, so nesting cannot multiply the work', () => {
    const rows = 100;
    const columns = Math.floor(Math.sqrt(ARRAY_ALIGNMENT_CELLS * 0.6));
    // Every cell changed: the outer array and the first row fit the budget, aligning every row would fill 100 times that.
    const from = Array.from({ length: rows }, (_, row) => Array.from({ length: columns }, (_, column) => row * columns + column));
    const to = from.map((row) => row.map((cell) => -cell - 1));
    const patch = createPatch(from, to);
    // The first row element by element, every other row replaced whole.
    expect(patch).toHaveLength(columns + rows - 1);
    expect(patch.slice(columns).every((operation) => operation.op === 'replace' && /^\/\d+$/.test(operation.path))).toBe(true);
    expect(applied(from, patch)).toEqual(to);
  });
});
