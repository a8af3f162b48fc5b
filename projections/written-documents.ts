import type { Document } from '../infra/readstore/port';

/**
 * Recently written documents kept whole (between this many and twice as many); older ones are
 * read back from the store, a page's worth in one query per collection. 50,000 held about 225 MB
 * more at the peak of a rebuild than 10,000, for no replay speed (bench/RESULTS.md).
 */
const RECENT = 10_000;
/** 2^25 bits (4 MiB): under 1% false positives up to about 3 million keys, and still correct beyond. */
const FILTER_BITS = 2 ** 25;
const HASHES = 4;

/**
 * What a replay into fresh collections has written, so that it rarely has to read its own
 * writes back: the most recent documents whole, and every key it ever wrote in a Bloom filter.
 * The collections started empty and only the replay writes them, so a key the filter has
 * never seen is certainly absent; a key it may have seen, and that is no longer recent, has to
 * be read from the store (`undefined`).
 */
export class WrittenDocuments {
  /** Two generations: when the newer is full it becomes the older, and the older is dropped. */
  private recent = new Map<string, Document | null>();
  private older = new Map<string, Document | null>();
  private readonly filter = new Uint8Array(FILTER_BITS / 8);

  remember(key: string, document: Document | null): void {
    if (this.recent.size >= RECENT) {
      this.older = this.recent;
      this.recent = new Map();
    }
    this.recent.set(key, document);
    this.probe(key, true);
  }

  /** The document, null when it is certainly absent, undefined when only the store knows. */
  lookup(key: string): Document | null | undefined {
    const recent = this.recent.get(key);
    if (recent !== undefined || this.recent.has(key)) return recent;
    const older = this.older.get(key);
    if (older !== undefined || this.older.has(key)) return older;
    return this.probe(key, false) ? undefined : null;
  }

  /**
   * Whether every bit of `key` is set (HASHES positions from two FNV-1a hashes, double
   * hashing), setting them first when `set`. Allocates nothing: it runs for every key.
   */
  private probe(key: string, set: boolean): boolean {
    let first = 0x811c9dc5;
    let second = 0x01000193;
    for (let index = 0; index < key.length; index++) {
      const code = key.charCodeAt(index);
      first = Math.imul(first ^ code, 0x01000193);
      second = Math.imul(second ^ code, 0x5bd1e995);
    }
    for (let round = 0; round < HASHES; round++) {
      const bit = ((first + Math.imul(round, second | 1)) >>> 0) % FILTER_BITS;
      const mask = 1 << (bit & 7);
      const byte = this.filter[bit >>> 3] ?? 0;
      if (set) this.filter[bit >>> 3] = byte | mask;
      else if ((byte & mask) === 0) return false;
    }
    return true;
  }
}
