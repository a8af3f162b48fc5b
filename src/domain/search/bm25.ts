/**
 * Okapi BM25: ranks documents for a set of query terms by how often each term occurs in the
 * document (saturating), how rare it is across the corpus, and how long the document is.
 */

const K1 = 1.2;
const B = 0.75;

export interface CorpusStatistics {
  readonly documentCount: number;
  readonly averageLength: number;
  /** Documents containing each term. */
  readonly documentFrequency: ReadonlyMap<string, number>;
}

export interface Bm25Match {
  readonly score: number;
  /** The query terms the document contains. */
  readonly matched: readonly string[];
}

/** Inverse document frequency, never negative (the "+1" variant). */
export function inverseDocumentFrequency(documentCount: number, documentFrequency: number): number {
  return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

export function bm25Score(queryTerms: readonly string[], documentTerms: readonly string[], corpus: CorpusStatistics): Bm25Match {
  const frequencies = new Map<string, number>();
  for (const term of documentTerms) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  const lengthRatio = corpus.averageLength > 0 ? documentTerms.length / corpus.averageLength : 1;
  let score = 0;
  const matched: string[] = [];
  for (const term of queryTerms) {
    const frequency = frequencies.get(term) ?? 0;
    if (frequency === 0) continue;
    matched.push(term);
    const idf = inverseDocumentFrequency(corpus.documentCount, corpus.documentFrequency.get(term) ?? 0);
    score += (idf * frequency * (K1 + 1)) / (frequency + K1 * (1 - B + B * lengthRatio));
  }
  return { score, matched };
}

/** The best `limit` documents that match at least one term, best first; ties keep the input order. */
export function rankBm25<Id>(
  queryTerms: readonly string[],
  documents: readonly { readonly id: Id; readonly terms: readonly string[] }[],
  corpus: CorpusStatistics,
  limit: number,
): (Bm25Match & { readonly id: Id })[] {
  return documents
    .map((document) => ({ ...bm25Score(queryTerms, document.terms, corpus), id: document.id }))
    .filter((ranked) => ranked.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}
