/**
 * How text becomes search terms, the same way for stored content and for questions:
 * accents and case folded, split into runs of letters and digits, words too common to
 * tell items apart dropped, plural endings trimmed (so "lighthouses" finds "lighthouse").
 */

const ENGLISH_STOPWORDS = [
  'a', 'about', 'above', 'after', 'again', 'against', 'all', 'am', 'an', 'and', 'any', 'are', 'as', 'at', 'be', 'because', 'been',
  'before', 'being', 'below', 'between', 'both', 'but', 'by', 'can', 'could', 'did', 'do', 'does', 'doing', 'down', 'during', 'each',
  'few', 'for', 'from', 'further', 'had', 'has', 'have', 'having', 'he', 'her', 'here', 'hers', 'herself', 'him', 'himself', 'his',
  'how', 'i', 'if', 'in', 'into', 'is', 'it', 'its', 'itself', 'just', 'me', 'more', 'most', 'my', 'myself', 'no', 'nor', 'not', 'now',
  'of', 'off', 'on', 'once', 'only', 'or', 'other', 'our', 'ours', 'ourselves', 'out', 'over', 'own', 'same', 'she', 'should', 'so',
  'some', 'such', 'than', 'that', 'the', 'their', 'theirs', 'them', 'themselves', 'then', 'there', 'these', 'they', 'this', 'those',
  'through', 'to', 'too', 'under', 'until', 'up', 'very', 'was', 'we', 'were', 'what', 'when', 'where', 'which', 'while', 'who',
  'whom', 'whose', 'why', 'will', 'with', 'would', 'you', 'your', 'yours', 'yourself', 'yourselves',
];

/** What is left of contractions once the apostrophe splits them ("isn't" → "isn", "t"). */
const CONTRACTION_PARTS = ['aren', 'couldn', 'didn', 'doesn', 'don', 'hadn', 'hasn', 'haven', 'isn', 'll', 're', 'shouldn', 've', 'wasn', 'weren', 'won', 'wouldn'];

/** Words of a request rather than of its subject. */
const COMMON_WORDS = [
  'anything', 'anyone', 'also', 'get', 'give', 'got', 'know', 'let', 'like', 'list', 'look', 'many', 'may', 'might', 'much', 'must',
  'need', 'please', 'say', 'says', 'shall', 'show', 'something', 'tell', 'thing', 'things', 'want', 'whats', 'find',
];

const IGNORED = new Set([...ENGLISH_STOPWORDS, ...CONTRACTION_PARTS, ...COMMON_WORDS]);
const WORD = /[\p{L}\p{N}]+/gu;
const MIN_TERM_LENGTH = 2;
/**
 * Longer words are not terms. Searching matches ` term ` with LIKE; with every stored word this
 * short too, each comparison ends within one word, so a search costs time linear in the text.
 */
const MAX_TERM_LENGTH = 64;

/** Lower case without accents: "Café" and "cafe" are one word. */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** Trims plural endings; applied to every term, so both sides of a match agree. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && word.endsWith('sses')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !/(ss|us|is)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** The term a single word counts as, or null when it is too short or too common to search for. */
export function termOf(word: string): string | null {
  return termOfFolded(foldText(word));
}

const NOT_ASCII = /[^ -~]/;

/**
 * termOf for a word of folded text: folding an ASCII word again changes nothing, so only other
 * words are folded again (folding is not idempotent for every script).
 */
function termOfFoldedWord(word: string): string | null {
  return termOfFolded(NOT_ASCII.test(word) ? foldText(word) : word);
}

function termOfFolded(folded: string): string | null {
  if (folded.length < MIN_TERM_LENGTH || folded.length > MAX_TERM_LENGTH || IGNORED.has(folded)) return null;
  return stem(folded);
}

/**
 * The terms of `texts` (one text or several, read one after the other and only as far as the
 * limit needs), in order, repeats kept (term frequency counts them); the first `limit` of them.
 */
export function terms(texts: string | Iterable<string>, limit = Number.POSITIVE_INFINITY): string[] {
  const found: string[] = [];
  for (const text of typeof texts === 'string' ? [texts] : texts) {
    for (const chunk of foldedChunks(text)) {
      for (const [word] of chunk.matchAll(WORD)) {
        if (found.length >= limit) return found;
        const term = termOfFoldedWord(word);
        if (term !== null) found.push(term);
      }
    }
  }
  return found;
}

/** Small enough that a limited read folds little past where it stops (4,000 terms are ~25,000 characters of prose). */
const FOLD_CHUNK_LENGTH = 8_192;

/**
 * `text` folded a piece at a time, so a limited read stops folding where it stops reading.
 * Pieces end before a space: nothing of folding (decomposition, mark reordering, final sigma)
 * looks across a space, so the pieces folded are the whole folded.
 */
function* foldedChunks(text: string): Generator<string> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + FOLD_CHUNK_LENGTH);
    if (end < text.length) {
      const space = text.indexOf(' ', end);
      end = space === -1 ? text.length : space;
    }
    yield foldText(text.slice(start, end));
    start = end;
  }
}

/** The distinct terms of a question, in the order asked. */
export function questionTerms(question: string): string[] {
  return [...new Set(terms(question))];
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_DEPTH = 4;

/**
 * The text-like values of an item: strings of its fields and translations, also inside arrays
 * and objects (Json fields), with HTML tags of rich text removed. Dates and ids (relations,
 * media) are strings too but say nothing a reader would search for, so they are left out.
 */
export function textValues(value: unknown): string[] {
  return [...eachTextValue(value)];
}

/** textValues one at a time, each cleaned when it is read: a reader that stops early (terms at its limit) cleans no more. */
export function* eachTextValue(value: unknown, depth = 0): Generator<string> {
  if (typeof value === 'string') {
    const text = value.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
    if (text !== '' && !ISO_DATE.test(text) && !UUID.test(text)) yield text;
    return;
  }
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') return;
  for (const nested of Object.values(value)) yield* eachTextValue(nested, depth + 1);
}
