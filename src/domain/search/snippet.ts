import { termOf } from './text';

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
/** Matches looked at; enough to place a window in any realistic item. */
const MAX_HITS = 200;
/** How far a cut may move to land between words. */
const BOUNDARY_SLACK = 24;

interface Hit {
  readonly start: number;
  readonly end: number;
  readonly term: string;
}

/**
 * At most `maxLength` characters of `text` around the words that match `queryTerms`: the window
 * holding the most distinct matched terms (then the most matches), cut between words, with "…"
 * where text was left out. Without a match, the beginning of the text.
 */
export function snippet(text: string, queryTerms: readonly string[], maxLength: number): string {
  if (text.length <= maxLength) return text;
  const hits = matchesIn(text, new Set(queryTerms));
  let best = { start: 0, distinct: 0, count: 0 };
  for (const hit of hits) {
    const start = Math.max(0, Math.min(hit.start - Math.floor(maxLength / 4), text.length - maxLength));
    const inside = hits.filter((other) => other.start >= start && other.end <= start + maxLength);
    const distinct = new Set(inside.map((other) => other.term)).size;
    if (distinct > best.distinct || (distinct === best.distinct && inside.length > best.count)) best = { start, distinct, count: inside.length };
  }
  return cut(text, best.start, maxLength);
}

function matchesIn(text: string, wanted: ReadonlySet<string>): Hit[] {
  const hits: Hit[] = [];
  for (const match of text.matchAll(WORD)) {
    const term = termOf(match[0]);
    if (term === null || !wanted.has(term)) continue;
    hits.push({ start: match.index, end: match.index + match[0].length, term });
    if (hits.length >= MAX_HITS) break;
  }
  return hits;
}

function cut(text: string, from: number, maxLength: number): string {
  // Back to the start of the word the window begins in, so no matched word is cut off.
  const space = text.lastIndexOf(' ', from);
  const start = from > 0 && space !== -1 && from - space <= BOUNDARY_SLACK ? space + 1 : from;
  let end = Math.min(text.length, start + maxLength);
  if (end < text.length) {
    const lastSpace = text.lastIndexOf(' ', end);
    if (lastSpace > start && end - lastSpace <= BOUNDARY_SLACK) end = lastSpace;
  }
  return `${start > 0 ? '…' : ''}${text.slice(start, end).trim()}${end < text.length ? '…' : ''}`;
}
