import { type CorpusStatistics, inverseDocumentFrequency, rankBm25 } from '../../src/domain/search/bm25';
import { snippet } from '../../src/domain/search/snippet';
import { eachTextValue, foldText, questionTerms, stem, termOf, terms, textValues } from '../../src/domain/search/text';

describe('search terms', () => {
  it('stops at a limit with the first terms of the whole text, without reading the rest', () => {
    const long = 'Lighthouse keepers and harbours. '.repeat(100_000);
    expect(terms(long, 5)).toEqual(terms(long.slice(0, 200)).slice(0, 5));
    const timed = (run: () => void) => {
      const started = performance.now();
      run();
      return performance.now() - started;
    };
    const limited = Math.min(...[1, 2, 3].map(() => timed(() => terms(long, 4000))));
    const full = timed(() => terms(long));
    // 4,000 of 400,000 terms: a hundredth of the text is read, a fifth leaves room for a loaded machine.
    expect(limited).toBeLessThan(full / 5);
  });

  it("reads an item's values only as far as the limit needs, with the terms of reading them all", () => {
    const fields = Object.fromEntries(Array.from({ length: 450 }, (_, index) => [`f${index}`, `<p>Keeper ${index} of the lighthouse</p>`]));
    const read: string[] = [];
    const values = eachTextValue(fields);
    const counted = (function* () {
      for (const value of values) yield read[read.push(value) - 1]!;
    })();
    expect(terms(counted, 5)).toEqual(terms(textValues(fields).join('\n')).slice(0, 5));
    expect(read).toEqual(['Keeper 0 of the lighthouse', 'Keeper 1 of the lighthouse', 'Keeper 2 of the lighthouse']);
    expect([...eachTextValue(fields)]).toEqual(textValues(fields));
  });

  it('folds a long text a piece at a time to the same terms as folding it whole', () => {
    const piece = 'Ὀδυσσεύς ΟΔΥΣΣΕΥΣ Crème brûlée ﬁne naïve İstanbul ǅemal ŉat Ⅻ lighthouses ';
    const long = piece.repeat(Math.ceil(200_000 / piece.length));
    const whole = [...foldText(long).matchAll(/[\p{L}\p{N}]+/gu)].map(([word]) => word);
    expect(terms(long)).toEqual(whole.map((word) => termOf(word)).filter((term) => term !== null));
  });

  it('folds case and accents', () => {
    expect(foldText('Crème BRÛLÉE')).toBe('creme brulee');
    expect(terms('Crème Brûlée')).toEqual(terms('creme brulee'));
  });

  it('splits on anything but letters and digits, and drops one-letter words and contraction parts', () => {
    expect(terms("Rust-proof: 42 bolts, isn't it?")).toEqual(['rust', 'proof', '42', 'bolt']);
  });

  it('drops words over 64 characters, on both sides', () => {
    expect(terms(`${'a'.repeat(65)} lighthouse ${'b'.repeat(64)}`)).toEqual(['lighthouse', 'b'.repeat(64)]);
    expect(questionTerms(`where is ${'c'.repeat(8000)}`)).toEqual([]);
  });

  it('trims plural endings the same way on both sides', () => {
    expect(['lighthouses', 'stories', 'classes', 'bus', 'analysis', 'glass'].map(stem)).toEqual(['lighthouse', 'story', 'class', 'bus', 'analysis', 'glass']);
    expect(terms('the lighthouses')).toEqual(terms('a lighthouse'));
  });

  it('keeps the subject of a question and drops stopwords and request words, each term once', () => {
    expect(questionTerms('What can you tell me about the lighthouse keepers of the lighthouse?')).toEqual(['lighthouse', 'keeper']);
    expect(questionTerms('Who is it?')).toEqual([]);
  });

  it('collects text values of fields and translations, without markup, dates or ids', () => {
    const values = textValues({
      title: 'Hello',
      body: '<p>Rich <b>text</b></p>',
      released: '2026-01-05T10:00:00.000Z',
      maker: '0b6f3a2e-8a48-4f7e-9a55-2a1c7b0f3c11',
      price: 12,
      tags: ['red', 'blue'],
      translations: { title: { fr: 'Bonjour' } },
    });
    expect(values).toEqual(['Hello', 'Rich text', 'red', 'blue', 'Bonjour']);
  });
});

describe('BM25 ranking', () => {
  const corpus = (documentFrequency: Record<string, number>, documentCount = 100, averageLength = 10): CorpusStatistics => ({
    documentCount,
    averageLength,
    documentFrequency: new Map(Object.entries(documentFrequency)),
  });

  it('weighs rare terms above common ones', () => {
    expect(inverseDocumentFrequency(100, 1)).toBeGreaterThan(inverseDocumentFrequency(100, 50));
    expect(inverseDocumentFrequency(100, 100)).toBeGreaterThan(0);
    const ranked = rankBm25(
      ['harbour', 'lighthouse'],
      [
        { id: 'common', terms: ['harbour', 'boat', 'sea', 'fish'] },
        { id: 'rare', terms: ['lighthouse', 'boat', 'sea', 'fish'] },
      ],
      corpus({ harbour: 60, lighthouse: 2 }),
      5,
    );
    expect(ranked.map((match) => match.id)).toEqual(['rare', 'common']);
  });

  it('ranks more matched terms first, and repeats with diminishing returns', () => {
    const ranked = rankBm25(
      ['copper', 'kettle'],
      [
        { id: 'one term, repeated', terms: ['copper', 'copper', 'copper', 'copper', 'pan'] },
        { id: 'both terms', terms: ['copper', 'kettle', 'tea', 'pot', 'pan'] },
        { id: 'no term', terms: ['tea', 'pot'] },
      ],
      corpus({ copper: 5, kettle: 5 }),
      5,
    );
    expect(ranked.map((match) => match.id)).toEqual(['both terms', 'one term, repeated']);
    expect(ranked[0]!.matched).toEqual(['copper', 'kettle']);
  });

  it('prefers the shorter of two documents with the same matches, and keeps only the best `limit`', () => {
    const filler = Array.from({ length: 40 }, (_, index) => `word${index}`);
    const ranked = rankBm25(
      ['falcon'],
      [
        { id: 'long', terms: ['falcon', ...filler] },
        { id: 'short', terms: ['falcon', 'bird'] },
      ],
      corpus({ falcon: 2 }),
      1,
    );
    expect(ranked.map((match) => match.id)).toEqual(['short']);
  });
});

describe('snippet', () => {
  const filler = (count: number) => Array.from({ length: count }, (_, index) => `filler${index}`).join(' ');

  it('returns short text whole', () => {
    expect(snippet('A short text.', ['short'], 100)).toBe('A short text.');
  });

  it('cuts a window around the matched words, between words, marking what was left out', () => {
    const text = `${filler(60)} The old lighthouse keeper was named Ada Quill. ${filler(60)}`;
    const passage = snippet(text, ['lighthouse', 'keeper', 'quill'], 120);
    expect(passage.length).toBeLessThanOrEqual(122);
    expect(passage).toMatch(/^…/);
    expect(passage).toMatch(/…$/);
    expect(passage).toContain('lighthouse keeper was named Ada Quill');
    const words = text.split(' ');
    for (const word of passage.replace(/…/g, '').trim().split(' ')) expect(words).toContain(word);
  });

  it('prefers the window with the most distinct matched terms', () => {
    const text = `lighthouse ${filler(40)} lighthouse keeper Quill ${filler(40)}`;
    expect(snippet(text, ['lighthouse', 'keeper', 'quill'], 80)).toContain('lighthouse keeper Quill');
  });

  it('starts at the beginning when nothing matches', () => {
    expect(snippet(filler(50), ['absent'], 40)).toMatch(/^filler0 .*…$/);
  });
});
