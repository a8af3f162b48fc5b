import { canonicalJson } from '../../infra/eventstore/canonical-json';

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
});
