import { contentDigest, contentDigestInSlices, contentDigestYielding } from '../../infra/eventstore/chain';
import { canonicalJson, canonicalPieces } from '../../infra/eventstore/canonical-json';
import { ThreadSlices } from '../../infra/thread-slices';

describe('canonicalJson (RFC 8785 JCS)', () => {
  it('sorts members by UTF-16 code units, recursively, as the RFC example does', () => {
    // RFC 8785 section 3.2.3.
    const value = { '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ufb33': 'Hebrew Letter Dalet With Dagesh', '1': 'One', '\ud83d\ude00': 'Emoji: Grinning Face', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis' };
    const order = ['\r', '1', '\u0080', '\u00f6', '\u20ac', '\ud83d\ude00', '\ufb33'];
    expect(canonicalJson(value)).toBe(`{${order.map((key) => `${JSON.stringify(key)}:${JSON.stringify(value[key as keyof typeof value])}`).join(',')}}`);
    expect(canonicalJson({ b: [3, { z: 1, a: null }], a: 'x' })).toBe('{"a":"x","b":[3,{"a":null,"z":1}]}');
  });

  it('writes numbers and strings as ECMAScript does, and drops undefined members as JSON.stringify does', () => {
    // RFC 8785 section 3.2.2.3 and appendix B.
    expect(canonicalJson([Number('333333333.33333329'), 1e30, 4.5, 2e-3, 0.000001, 1e-7, -0, 1e21, 9007199254740991])).toBe(
      '[333333333.3333333,1e+30,4.5,0.002,0.000001,1e-7,0,1e+21,9007199254740991]',
    );
    expect(canonicalJson({ text: '€$\u000f\nA\'B"\\\\"/', missing: undefined, at: new Date('2024-01-02T03:04:05.000Z') })).toBe(
      '{"at":"2024-01-02T03:04:05.000Z","text":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('refuses what JSON cannot hold', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow('numbers must be finite');
    expect(() => canonicalJson({ f: Infinity })).toThrow('numbers must be finite');
  });

  it('writes the same text in pieces at every depth, undefined members, toJSON and empty containers included', () => {
    // Large ones too: a member over 8,192 characters is split, a smaller one written whole.
    const long = 'é\u0001'.repeat(5_000);
    const values: unknown[] = [
      { b: [3, { z: 1, a: null, u: undefined, f: () => 1 }], a: 'x', d: new Date(0), e: {}, l: [], n: [undefined, Symbol('s')] },
      { b: [3, { z: 1, a: null, u: undefined, f: () => 1, long }], a: long, d: new Date(0), e: {}, l: [], n: [undefined, Symbol('s'), long] },
      [{ deep: { deeper: { deepest: [1, 2, { x: '\ud83d\ude00' }] } } }],
      [{ deep: { deeper: { deepest: [1, 2, { x: '\ud83d\ude00', long }] } } }],
      'plain',
      7,
      null,
    ];
    for (const value of values) {
      for (const depth of [0, 1, 2, 3, 9]) expect([...canonicalPieces(value, depth)].join('')).toBe(canonicalJson(value));
    }
    expect([...canonicalPieces({ fields: { a: 'x', b: 'y' } }, 2)]).toEqual(['{', '"fields":{"a":"x","b":"y"}', '}']);
    const a = 'a'.repeat(9_000);
    expect([...canonicalPieces({ fields: { b: 'y', a } }, 2)]).toEqual(['{', '"fields":', '{', `"a":"${a}"`, ',"b":"y"', '}', '}']);
  });

  it('digests a large event in slices to the digest taken in one piece, letting other work run between them', async () => {
    const fields = Object.fromEntries(Array.from({ length: 450 }, (_, index) => [`f${index}`, `${'\ud83c\udf0d'.repeat(100)}${'ab '.repeat(450)}${index}`]));
    const event = { id: 'ABC-1', stream: 'content-w-i', type: 'ContentDraftSaved', data: { itemId: 'i', fields }, metadata: { workspaceId: 'w', actor: 'a', correlationId: 'c', timestamp: 't' } };
    let others = 0;
    const other = setInterval(() => others++, 0);
    try {
      const slices = new ThreadSlices();
      const digests: Buffer[] = [];
      // Enough rounds that the 4 ms slices are used up whatever the machine's speed.
      for (let round = 0; round < 20; round++) digests.push(await contentDigestInSlices(event, slices));
      for (const digest of digests) expect(digest.equals(contentDigest(event))).toBe(true);
    } finally {
      clearInterval(other);
    }
    expect(others).toBeGreaterThan(0);
    const small = { ...event, data: { itemId: 'i', fields: { title: 'x' } } };
    expect((await contentDigestInSlices(small, new ThreadSlices())).equals(contentDigest(small))).toBe(true);
  });

  it('tells a large event from a small one without spreading its arrays: a Json field of 300,000 numbers is digested as in one piece', async () => {
    const event = { id: 'a', stream: 's', type: 'ContentDraftSaved', data: { fields: { list: new Array<number>(300_000).fill(0) } }, metadata: { workspaceId: 'w', actor: 'a', correlationId: 'c', timestamp: 't' } };
    expect((await contentDigestYielding(event, new ThreadSlices())).equals(contentDigest(event))).toBe(true);
    const small = { ...event, data: { fields: { title: 'x' } } };
    expect(contentDigestYielding(small, new ThreadSlices())).toBeInstanceOf(Buffer);
  });
});

