import { applyMergePatch } from '../../src/domain/json-merge-patch';

describe('JSON Merge Patch (RFC 7396)', () => {
  // RFC 7396 Appendix A, every example: original, patch, result.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [['a', 'b'], ['c', 'd'], ['c', 'd']],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('patches %j with %j into %j', (original, patch, expected) => {
    expect(applyMergePatch(original, patch)).toEqual(expected);
  });

  it('leaves both arguments unchanged', () => {
    const original = { title: 'a', meta: { tags: ['x'], rank: 1 } };
    const patch = { meta: { rank: null, extra: { deep: true } } };
    const before = structuredClone({ original, patch });
    expect(applyMergePatch(original, patch)).toEqual({ title: 'a', meta: { tags: ['x'], extra: { deep: true } } });
    expect({ original, patch }).toEqual(before);
  });

  it('treats a member named __proto__ as data, not as the prototype', () => {
    const patch = JSON.parse('{"__proto__": {"polluted": true}}') as unknown;
    const result = applyMergePatch({}, patch) as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
  });
});
